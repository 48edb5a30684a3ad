// assetlib-bench, measurement 4: asset-baker as a child process. Full bakes with -j1 and -jN, a
// no-op rebuild, LZ4-HC and (when the default is block-compressed) RGBA8 variants; wall time, CPU
// time and peak RSS of each run, and the cores other processes used meanwhile.
#include "bench.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>
#include <queue>

namespace bench {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Median over the repetitions of one figure of a child run.
template <typename Figure>
double median_over(const std::vector<ChildResult>& runs, Figure figure) {
  std::vector<double> v;
  for (const ChildResult& r : runs) v.push_back(figure(r));
  return median_of(v);
}

}  // namespace

double BakeRun::median_wall() const {
  return median_over(runs, [](const ChildResult& r) { return r.wall_seconds; });
}

double BakeRun::median_others() const {
  return median_over(runs, [](const ChildResult& r) {
    return r.wall_seconds > 0 ? r.others_cpu_seconds / r.wall_seconds : 0;
  });
}

double BakeRun::median_cpu() const {
  return median_over(runs, [](const ChildResult& r) { return r.cpu_seconds; });
}

uint64_t BakeRun::max_peak_rss() const {
  uint64_t peak = 0;
  for (const ChildResult& r : runs) peak = std::max(peak, r.peak_rss);
  return peak;
}

const BakeRun* TreeBake::find(const std::string& config, unsigned jobs, bool force) const {
  for (const BakeRun& r : runs) {
    if (r.config == config && r.jobs == jobs && r.force == force) return &r;
  }
  return nullptr;
}

namespace {

// Makespan of `durations` dispatched in order to `workers` workers, each taking the next job
// when free (the baker's scheduler).
double simulate_dispatch(const std::vector<double>& durations, unsigned workers) {
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (unsigned w = 0; w < std::max(1u, workers); ++w) free_at.push(0);
  double makespan = 0;
  for (double d : durations) {
    double start = free_at.top();
    free_at.pop();
    free_at.push(start + d);
    makespan = std::max(makespan, start + d);
  }
  return makespan;
}

struct Config {
  std::string name;      // "default", "hc", "rgba8"
  std::string settings;  // JSON object of baker.json "settings"
};

fs::path write_config(const BenchOptions& options, const Config& config) {
  fs::path path = options.work_dir / ("baker-" + config.name + ".json");
  std::ofstream(path) << "{ \"settings\": " << config.settings << " }\n";
  return path;
}

bool read_report(const fs::path& path, BakeRun& run, std::string& error) {
  std::ifstream in(path);
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    error = path.string() + ": no readable baker report";
    return false;
  }
  run.baked = doc.value("baked", uint64_t(0));
  run.up_to_date = doc.value("up_to_date", uint64_t(0));
  run.failed = doc.value("failed", uint64_t(0));
  run.bytes_in = doc.value("bytes_in", uint64_t(0));
  run.bytes_out = doc.value("bytes_out", uint64_t(0));
  run.reported_seconds = doc.value("seconds", 0.0);
  run.file_seconds.clear();
  for (const json& f : doc.value("files", json::array())) {
    run.file_seconds.emplace_back(f.value("source", ""), f.value("seconds", 0.0));
  }
  return true;
}

// Reads every file under `root` once (page cache warm for every bake, the first one included);
// returns their total size.
uint64_t warm_tree(const fs::path& root) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    if (warm_page_cache(it->path())) bytes += it->file_size(ec);
  }
  return bytes;
}

// Trees of this size or more wait for a quiet machine before each bake (--quiet-wait).
constexpr uint64_t kQuietWaitMinBytes = 10u << 20;

// Why a baker run counts as failed, or "" when it ran to the end. Exit code 1 is a normal end:
// some sources are broken, which the corpus has on purpose.
std::string baker_failure(const ChildResult& r) {
  if (!r.error.empty()) return r.error;
  if (!r.ran) return "exit " + std::to_string(r.exit_code);
  if (r.signal != 0) return "signal " + std::to_string(r.signal);
  if (r.exit_code != 0 && r.exit_code != 1) return "exit " + std::to_string(r.exit_code);
  return "";
}

// What every bake of one tree shares.
struct TreeBaker {
  const BenchOptions& options;
  const SourceTree& tree;
  uint64_t tree_bytes = 0;  // the sources' total size

  // One more repetition of `run`: asset-baker <root> -o <out> -j N -q --json ... --config ...
  bool bake_once(const fs::path& config, const fs::path& out, BakeRun& run,
                 std::string& error) const {
    fs::path logs = options.work_dir / "logs";
    fs::create_directories(logs);
    std::string stem = tree.label + "-" + run.config + "-j" + std::to_string(run.jobs) +
                       (run.force ? "-full" : "-noop") + "-" + std::to_string(run.runs.size());
    fs::path report = logs / (stem + ".report.json");
    std::vector<std::string> argv = {options.baker.string(),
                                     tree.root.string(),
                                     "-o",
                                     out.string(),
                                     "-j",
                                     std::to_string(run.jobs),
                                     "-q",
                                     "--json",
                                     report.string(),
                                     "--config",
                                     config.string()};
    if (run.force) argv.push_back("--force");
    wait_for_quiet_machine_if_large();
    double busy_before = machine_busy_seconds();
    ChildResult r = run_measured(options.self, argv, logs / stem);
    r.others_cpu_seconds = std::max(0.0, machine_busy_seconds() - busy_before - r.cpu_seconds);
    if (std::string failure = baker_failure(r); !failure.empty()) {
      error = "asset-baker " + run.what + " on " + tree.root.string() + " failed: " + failure +
              " (log: " + (logs / stem).string() + ".err)";
      return false;
    }
    run.runs.push_back(r);
    std::fprintf(stderr, "  bake %s: %-24s %7.2f s  peak RSS %6.0f MiB  others %.2f cores\n",
                 tree.label.c_str(), run.what.c_str(), r.wall_seconds,
                 double(r.peak_rss) / double(1 << 20),
                 r.wall_seconds > 0 ? r.others_cpu_seconds / r.wall_seconds : 0);
    return read_report(report, run, error);
  }

  // Bakes of trees of kQuietWaitMinBytes or more take seconds: worth waiting for a quiet machine
  // before each, so that the -j1 / -jN comparison is not skewed by load elsewhere.
  void wait_for_quiet_machine_if_large() const {
    if (options.quiet_wait <= 0 || tree_bytes < kQuietWaitMinBytes) return;
    double others = wait_for_quiet_machine(options.quiet_wait);
    if (others >= kQuietCores)
      std::fprintf(stderr, "  (machine still busy: others use %.2f cores)\n", others);
  }
};

BakeRun make_run(std::string what, std::string config, unsigned jobs, bool force) {
  BakeRun run;
  run.what = std::move(what);
  run.config = std::move(config);
  run.jobs = jobs;
  run.force = force;
  return run;
}

// The largest asset a baker job holds decoded: for each baked asset the larger of the decoded
// source image (width x height x 4 x bytes per channel) and the unpacked size (raw_size).
void find_largest_decoded(const BakedTree& tree, TreeBake& out) {
  for (const BakedAsset& a : tree.assets) {
    uint64_t size = std::max(a.decoded_source_bytes, a.unpacked_bytes);
    if (size > out.largest_decoded) {
      out.largest_decoded = size;
      out.largest_decoded_name = a.name;
    }
  }
}

bool has_block_compressed(const BakedTree& tree) {
  return std::any_of(tree.assets.begin(), tree.assets.end(),
                     [](const BakedAsset& a) { return a.format.rfind("BC", 0) == 0; });
}

// The speed-ups the -j1 per-file times allow with `jobs` workers: the -j1 run's serial part
// plus the simulated schedule, in path order and longest first.
void compute_bounds(const BakeRun& j1, unsigned jobs, TreeBake& out) {
  std::vector<double> durations;
  for (const auto& [name, seconds] : j1.file_seconds) durations.push_back(seconds);
  double work = std::accumulate(durations.begin(), durations.end(), 0.0);
  double wall = j1.median_wall();
  double serial = std::max(0.0, wall - work);
  double path_order = serial + simulate_dispatch(durations, jobs);
  std::sort(durations.rbegin(), durations.rend());
  double longest_first = serial + simulate_dispatch(durations, jobs);
  out.bound_path_order = path_order > 0 ? wall / path_order : 0;
  out.bound_longest_first = longest_first > 0 ? wall / longest_first : 0;
}

}  // namespace

bool bake_tree(const BenchOptions& options, const SourceTree& tree, TreeBake& out,
               std::string& error) {
  const unsigned n = options.jobs;
  const std::string jn = "-j" + std::to_string(n);
  fs::path base = options.work_dir / tree.label;
  fs::path default_dir = base / "baked-default", j1_dir = base / "baked-j1",
           hc_dir = base / "baked-hc", rgba8_dir = base / "baked-rgba8";
  fs::path default_cfg = write_config(options, {"default", "{}"});
  fs::path hc_cfg = write_config(
      options, {"hc", "{ \"lz4_hc_level\": " + std::to_string(options.hc_level) + " }"});
  fs::path rgba8_cfg = write_config(options, {"rgba8", "{ \"block_compression\": false }"});

  const TreeBaker baker{options, tree, warm_tree(tree.root)};
  out = TreeBake{};
  out.label = tree.label;
  out.source_root = tree.root.string();
  out.default_dir = default_dir.string();
  out.hc_dir = hc_dir.string();

  // Full bakes, -jN and -j1 alternating so that load elsewhere on the machine hits both.
  BakeRun full_n = make_run("full " + jn, "default", n, true);
  BakeRun full_1 = make_run("full -j1", "default", 1, true);
  for (int rep = 0; rep < options.bake_repetitions; ++rep) {
    if (!baker.bake_once(default_cfg, default_dir, full_n, error)) return false;
    if (!baker.bake_once(default_cfg, j1_dir, full_1, error)) return false;
  }
  // No-op: the same command again on the -jN output, nothing changed.
  BakeRun noop = make_run("no-op " + jn, "default", n, false);
  for (int rep = 0; rep < options.bake_repetitions; ++rep) {
    if (!baker.bake_once(default_cfg, default_dir, noop, error)) return false;
  }
  BakeRun hc =
      make_run("full " + jn + " LZ4-HC " + std::to_string(options.hc_level), "hc", n, true);
  if (!baker.bake_once(hc_cfg, hc_dir, hc, error)) return false;

  BakedTree baked;
  if (!read_baked_tree(tree.label, "default", tree.root, default_dir, baked, error)) return false;
  out.assets = baked.assets.size();
  find_largest_decoded(baked, out);
  out.runs = {full_n, full_1, noop, hc};
  // RGBA8 exists only to compare with a block-compressed default.
  if (has_block_compressed(baked)) {
    BakeRun rgba8 = make_run("full " + jn + " RGBA8", "rgba8", n, true);
    if (!baker.bake_once(rgba8_cfg, rgba8_dir, rgba8, error)) return false;
    out.rgba8_dir = rgba8_dir.string();
    out.runs.push_back(rgba8);
  }
  compute_bounds(full_1, n, out);
  return true;
}

}  // namespace bench
