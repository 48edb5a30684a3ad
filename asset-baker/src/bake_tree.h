// Baking a whole input tree: walk, plan, skip what is up to date, bake the rest in parallel,
// remove outputs of deleted sources, write the cache and the manifest.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace baker {

struct BakeOptions {
  std::filesystem::path input;
  std::optional<std::filesystem::path> output;  // default: the preset's, else "<input>-baked"
  std::optional<std::filesystem::path> config;  // default: nearest baker.json
  std::string preset;
  unsigned jobs = 0;  // 0: all cores
  bool force = false;
  bool verify = false;
  bool quiet = false;
  bool verbose = false;
  std::optional<std::filesystem::path> json_report;
};

// Returns the process exit code: 0 when nothing failed, 1 when a source failed, 2 on a usage or
// configuration error.
int run_bake(const BakeOptions& options);

}  // namespace baker
