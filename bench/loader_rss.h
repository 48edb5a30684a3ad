// assetlib-bench, measurement 4 (loader side): peak RSS of a process that loads and unpacks every
// baked asset once, one at a time, each into freshly allocated buffers freed afterwards: what a
// loader costs in memory beyond the asset it is loading. Measured in a child process started by
// the launcher (process.h), against the same child loading nothing.
#pragma once

#include "options.h"
#include "results.h"

#include <string>
#include <vector>

namespace bench {

// The child: `--load-all <baked-dir>...`. Exit 0 when every asset loaded.
int load_all_main(int argc, char** argv);

// Runs the child over `baked_dirs` and over nothing; fills `out`.
bool measure_loader_rss(const BenchOptions& options, const std::vector<std::string>& baked_dirs, LoaderRss& out,
                        std::string& error);

}  // namespace bench
