// assetlib-bench: the report. Markdown tables and TARGET lines on stdout, everything (including
// every per-file figure) in the JSON file.
#pragma once

#include "results.h"

#include <filesystem>
#include <string>

namespace bench {

// Judges the targets of the issue on `results` and stores them in results.targets.
void compute_targets(Results& results);

// "TARGET <name>: met|missed <figure>"
std::string target_line(const Target& target);

// The tables, notes and TARGET lines, in Markdown.
std::string render_report(const Results& results);

bool write_json(const Results& results, const std::filesystem::path& path, std::string& error);

}  // namespace bench
