// assetlib-bench: what one run measures and how hard.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace bench {

// A folder of sources to bake and load ("assets" = the bundled set, "corpus" = ../shared/corpus).
struct SourceTree {
  std::string label;
  std::filesystem::path root;
};

struct BenchOptions {
  std::vector<SourceTree> trees;     // baked and measured in this order
  std::filesystem::path baker;       // the asset-baker executable
  std::filesystem::path self;        // this executable (re-run as launcher and loader child)
  std::filesystem::path json_out;    // empty: no JSON
  std::filesystem::path work_dir;    // bake outputs and child logs
  bool keep_work = false;
  bool quick = false;
  int samples = 7;                   // timed samples per measurement (median reported)
  double min_sample_seconds = 0.002; // a sample repeats the call until it lasts this long
  int bake_repetitions = 3;          // full and no-op bakes, each repeated (median reported)
  unsigned jobs = 0;                 // N of the -jN bake: all cores
  int hc_level = 9;                  // LZ4-HC level of the size comparison
  double quiet_wait = 10;            // before each bake of a large tree, wait up to this long for idle CPUs
};

}  // namespace bench
