#include "loader_rss.h"

#include "baked_load.h"
#include "process.h"

#include <assetlib/manifest.h>

#include <cstdio>
#include <filesystem>

namespace bench {
namespace fs = std::filesystem;

int load_all_main(int argc, char** argv) {
  int failures = 0;
  for (int i = 2; i < argc; ++i) {
    assetlib::Manifest manifest;
    fs::path dir = argv[i];
    if (auto s = assetlib::load_manifest((dir / "manifest.json").string(), manifest); !s) {
      std::fprintf(stderr, "%s\n", s.message.c_str());
      ++failures;
      continue;
    }
    for (const assetlib::ManifestEntry& e : manifest.assets) {
      StagingBuffers buffers;  // fresh per asset, freed when the next one starts
      if (!load_asset(dir / e.path, buffers)) {
        std::fprintf(stderr, "%s: load failed\n", (dir / e.path).c_str());
        ++failures;
      }
    }
  }
  return failures ? 1 : 0;
}

bool measure_loader_rss(const BenchOptions& options, const std::vector<std::string>& baked_dirs, LoaderRss& out,
                        std::string& error) {
  out = LoaderRss{};
  for (const std::string& dir : baked_dirs) {
    assetlib::Manifest manifest;
    if (auto s = assetlib::load_manifest((fs::path(dir) / "manifest.json").string(), manifest); !s) {
      error = s.message;
      return false;
    }
    for (const assetlib::ManifestEntry& e : manifest.assets) {
      if (e.file_size + e.raw_size > out.largest_need) {
        out.largest_need = e.file_size + e.raw_size;
        out.largest_name = e.name;
      }
    }
  }
  fs::path logs = options.work_dir / "logs";
  fs::create_directories(logs);
  std::vector<std::string> argv = {options.self.string(), "--load-all"};
  ChildResult baseline = run_measured(options.self, argv, logs / "loader-baseline");
  argv.insert(argv.end(), baked_dirs.begin(), baked_dirs.end());
  ChildResult all = run_measured(options.self, argv, logs / "loader-all");
  for (const ChildResult* r : {&baseline, &all}) {
    if (!r->ran || r->exit_code != 0) {
      error = "loader child failed: " + (r->error.empty() ? "exit " + std::to_string(r->exit_code) : r->error) +
              " (logs in " + logs.string() + ")";
      return false;
    }
  }
  out.baseline = baseline.peak_rss;
  out.peak = all.peak_rss;
  out.measured = true;
  return true;
}

}  // namespace bench
