// assetlib-bench: asset-baker as a child process: full bakes with -j1 and -jN, a no-op rebuild,
// LZ4-HC and (when the default is block-compressed) RGBA8 variants; wall time, CPU time and peak
// RSS of each run.
#pragma once

#include "options.h"
#include "results.h"

#include <string>

namespace bench {

// Bakes `tree` in every configuration the report needs, into `options.work_dir`/<label>/...
// False with `error` set when the baker cannot run or crashes (exit codes 0 and 1 are normal:
// 1 means some sources are broken, which the corpus has on purpose).
bool bake_tree(const BenchOptions& options, const SourceTree& tree, TreeBake& out, std::string& error);

// Makespan of `durations` dispatched in order to `workers` workers, each taking the next job
// when free (the baker's scheduler).
double simulate_dispatch(const std::vector<double>& durations, unsigned workers);

}  // namespace bench
