// assetlib-bench: the command line and the order of the measurements. bench.h lists the stages;
// docs/benchmarks.md explains what is measured and how to read the figures.
#include "bench.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

namespace bench {
namespace {

namespace fs = std::filesystem;

bool fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return false;
}

// --- The command line ---------------------------------------------------------------------------

// What the command line gives besides BenchOptions: paths still to resolve.
struct CommandLine {
  std::string corpus = ASSETLIB_BENCH_CORPUS_DIR, assets = ASSETLIB_BENCH_ASSETS_DIR;
  std::string baker = ASSETLIB_BENCH_BAKER;
  std::string json_out, work;
  double min_sample_ms = 2;
};

// Parses argv into `o` and `cl`. Returns an exit code when the program should stop here
// (--help: 0, a usage error: CLI11's code), nothing to go on.
std::optional<int> parse_command_line(int argc, char** argv, BenchOptions& o, CommandLine& cl) {
  CLI::App app{
      "assetlib-bench: load, unpack, bake and size benchmarks of assetlib against decoding the "
      "sources "
      "and against the machine's limits (docs/benchmarks.md)"};
  o.jobs = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("--corpus", cl.corpus, "Third-party corpus to bake and measure besides assets/")
      ->capture_default_str();
  app.add_option("--assets", cl.assets, "The bundled asset folder")->capture_default_str();
  app.add_option("--baker", cl.baker, "asset-baker executable")->capture_default_str();
  app.add_option("--json", cl.json_out, "Write every figure to this JSON file");
  app.add_flag("--quick", o.quick,
               "assets/ only, one sample, one bake each: checks that everything runs (ctest)");
  app.add_option("--samples", o.samples, "Timed samples per measurement; the median is reported")
      ->capture_default_str();
  app.add_option("--min-sample-ms", cl.min_sample_ms,
                 "A sample repeats a call until it lasts this long")
      ->capture_default_str();
  app.add_option("--bake-reps", o.bake_repetitions, "Repetitions of the full and no-op bakes")
      ->capture_default_str();
  app.add_option("-j,--jobs", o.jobs, "N of the -jN bake (default: all cores)")
      ->capture_default_str();
  app.add_option("--hc-level", o.hc_level, "LZ4-HC level compared with fast LZ4")
      ->capture_default_str();
  app.add_option("--quiet-wait", o.quiet_wait,
                 "Before each bake of a tree of 10 MB or more, wait up to this many seconds for "
                 "other processes to "
                 "leave the CPUs idle (0: do not wait)")
      ->capture_default_str();
  app.add_option("--work", cl.work,
                 "Folder for bake outputs and logs (default: a temporary folder, deleted after)");
  app.add_flag("--keep-work", o.keep_work, "Keep the work folder");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // Quick mode (ctest): every code path once, as fast as possible, unless asked otherwise.
  if (o.quick) {
    if (!app.count("--samples")) o.samples = 1;
    if (!app.count("--min-sample-ms")) cl.min_sample_ms = 0;
    if (!app.count("--bake-reps")) o.bake_repetitions = 1;
    if (!app.count("--quiet-wait")) o.quiet_wait = 0;
  }
  return std::nullopt;
}

// Resolves the paths of `cl` into `o` and checks them. False after printing why.
bool resolve_paths(const CommandLine& cl, BenchOptions& o) {
  o.min_sample_seconds = cl.min_sample_ms / 1000;
  o.samples = std::max(1, o.samples);
  o.bake_repetitions = std::max(1, o.bake_repetitions);
  o.baker = fs::absolute(cl.baker);
  o.json_out = cl.json_out;
  std::error_code ec;
  o.self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::fprintf(stderr, "error: cannot find this executable: %s\n", ec.message().c_str());
    return false;
  }
  o.trees.push_back({"assets", fs::absolute(cl.assets)});
  if (!o.quick) o.trees.push_back({"corpus", fs::weakly_canonical(fs::absolute(cl.corpus))});
  for (const SourceTree& t : o.trees) {
    if (!fs::is_directory(t.root)) {
      std::fprintf(stderr, "error: %s: not a folder (%s)\n", t.root.c_str(), t.label.c_str());
      return false;
    }
  }
  if (!fs::is_regular_file(o.baker)) {
    std::fprintf(stderr, "error: %s: asset-baker not found (--baker)\n", o.baker.c_str());
    return false;
  }
  return true;
}

// Sets o.work_dir to `work`, or to a new temporary folder when `work` is empty. False after
// printing why.
bool make_work_dir(const std::string& work, BenchOptions& o) {
  if (work.empty()) {
    std::string pattern = (fs::temp_directory_path() / "assetlib-bench.XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::perror("mkdtemp");
      return false;
    }
    o.work_dir = pattern;
  } else {
    o.work_dir = fs::absolute(work);
    fs::create_directories(o.work_dir);
  }
  return true;
}

std::string quote_command(int argc, char** argv) {
  std::string out = "assetlib-bench";
  for (int i = 1; i < argc; ++i) out += std::string(" ") + argv[i];
  return out;
}

// --- The run ------------------------------------------------------------------------------------

// The settings of the run, echoed in the report's header and the JSON.
Results start_results(const BenchOptions& o, const std::string& command) {
  Results r;
  r.machine = describe_machine();
  r.command = command;
  r.quick = o.quick;
  r.samples = o.samples;
  r.min_sample_seconds = o.min_sample_seconds;
  r.bake_repetitions = o.bake_repetitions;
  r.jobs = o.jobs;
  r.hc_level = o.hc_level;
  return r;
}

void add_sizes(const BakedTree& tree, std::vector<SizeRecord>& out) {
  for (const BakedAsset& a : tree.assets) {
    out.push_back({tree.label, tree.variant, a.name, a.type, a.format, a.source_bytes, a.file_bytes,
                   a.unpacked_bytes});
  }
}

// Every tree baked in each variant the measurements compare, read back through its manifest.
struct BakedVariants {
  std::vector<BakedTree> defaults, rgba8s, hcs;
};

bool bake_trees(const BenchOptions& options, Results& r, BakedVariants& baked) {
  std::string error;
  for (const SourceTree& tree : options.trees) {
    std::fprintf(stderr, "bake %s (%s)\n", tree.label.c_str(), tree.root.c_str());
    TreeBake bake;
    if (!bake_tree(options, tree, bake, error)) return fail(error);
    BakedTree d, h, v;
    if (!read_baked_tree(tree.label, "default", tree.root, bake.default_dir, d, error) ||
        !read_baked_tree(tree.label, "hc", tree.root, bake.hc_dir, h, error)) {
      return fail(error);
    }
    baked.defaults.push_back(std::move(d));
    baked.hcs.push_back(std::move(h));
    if (!bake.rgba8_dir.empty()) {
      if (!read_baked_tree(tree.label, "rgba8", tree.root, bake.rgba8_dir, v, error))
        return fail(error);
      baked.rgba8s.push_back(std::move(v));
    }
    r.bakes.push_back(std::move(bake));
  }
  return true;
}

// Packs the default bake of `tree` with `asset-baker pack` into the work folder and maps it.
bool pack_tree(const BenchOptions& o, const BakedTree& tree, MappedPack& out) {
  fs::path pack = o.work_dir / (tree.label + ".pack");
  fs::path log = o.work_dir / (tree.label + "-pack");
  ChildResult r = run_measured(
      o.self, {o.baker.string(), "pack", tree.baked_root.string(), "-o", pack.string()}, log);
  if (!r.ran || r.exit_code != 0) {
    return fail("asset-baker pack " + tree.baked_root.string() + " failed (see " + log.string() +
                ".err)");
  }
  std::string error;
  return out.open(pack, error) || fail(error);
}

// The assets of `tree` measured against their sources (sections 1 and 2, default bake), and the
// sum of their source decode times.
std::set<std::string> source_measured(const Results& r, const std::string& tree,
                                      double& source_seconds) {
  std::set<std::string> names;
  for (const auto* loads : {&r.texture_loads, &r.mesh_loads}) {
    for (const LoadComparison& c : *loads) {
      if (c.tree != tree || c.variant != "default") continue;
      names.insert(c.name);
      source_seconds += c.source_seconds;
    }
  }
  return names;
}

// Bakes every tree, measures, judges the targets. False on an error that makes the figures
// incomplete.
bool run(const BenchOptions& options, Results& r) {
  double start = now_seconds();
  // First, before the bakes below delete and replace hundreds of files (peer_bench.cpp says why).
  std::string peer_error;
  if (!bench_peers(options, options.trees.back().root, r.peers, r.notes, peer_error))
    return fail(peer_error);
  BakedVariants baked;
  if (!bake_trees(options, r, baked)) return false;
  const auto& [defaults, rgba8s, hcs] = baked;

  TimingPolicy policy;
  policy.samples = options.samples;
  policy.min_sample_seconds = options.min_sample_seconds;
  std::fprintf(stderr, "measure loads\n");
  for (const BakedTree& t : defaults) bench_texture_loads(t, policy, r.texture_loads, r.notes);
  for (const BakedTree& t : rgba8s) bench_texture_loads(t, policy, r.texture_loads, r.notes);
  for (const BakedTree& t : defaults) bench_mesh_loads(t, policy, r.mesh_loads, r.notes);
  std::vector<std::unique_ptr<MappedPack>> packs;
  for (const BakedTree& t : defaults) {
    packs.push_back(std::make_unique<MappedPack>());
    if (!pack_tree(options, t, *packs.back())) return false;
  }
  std::fprintf(stderr, "measure limits\n");
  for (size_t i = 0; i < defaults.size(); ++i)
    bench_limits(defaults[i], *packs[i], policy, r.limits, r.notes);
  std::fprintf(stderr, "measure whole-tree loads\n");
  for (size_t i = 0; i < defaults.size(); ++i) {
    TreeLoad load;
    std::set<std::string> names = source_measured(r, defaults[i].label, load.source_seconds);
    if (std::string e = bench_tree_load(defaults[i], *packs[i], names, policy, load); !e.empty())
      return fail(defaults[i].label + ": " + e);
    r.tree_loads.push_back(load);
  }
  std::fprintf(stderr, "measure partial reads\n");
  for (const BakedTree& t : defaults) bench_partial_reads(t, 2, policy, r.partial_reads, r.notes);
  for (size_t i = 0; i < defaults.size(); ++i)
    bench_codec_loads(defaults[i], hcs[i], policy, r.codec_loads, r.notes);
  std::fprintf(stderr, "measure source decoders\n");
  for (size_t i = 0; i < defaults.size(); ++i)
    bench_decoders(defaults[i], r.bakes[i], policy, r.decoders, r.notes);

  std::fprintf(stderr, "measure loader peak RSS\n");
  std::vector<std::string> dirs;
  for (const BakedTree& t : defaults) dirs.push_back(t.baked_root.string());
  std::string error;
  if (!measure_loader_rss(options, dirs, r.loader, error)) return fail(error);

  for (const auto* trees : {&defaults, &rgba8s, &hcs}) {
    for (const BakedTree& t : *trees) add_sizes(t, r.sizes);
  }
  r.machine.loadavg_end = read_loadavg();
  r.total_seconds = now_seconds() - start;
  compute_targets(r);
  return true;
}

// Prints the report and writes the JSON. False when the JSON cannot be written or a note is an
// error (a baked file that failed to load or unpack).
bool report(const BenchOptions& o, const Results& r) {
  std::cout << render_report(r) << std::flush;
  bool ok = true;
  std::string error;
  if (!o.json_out.empty() && !write_json(r, o.json_out, error)) ok = fail(error);
  for (const std::string& n : r.notes) {
    if (n.rfind("error:", 0) == 0) ok = false;
  }
  return ok;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  namespace fs = std::filesystem;
  // Child modes, started by the bench itself (measure.h, bench.h).
  if (argc >= 2 && std::string(argv[1]) == "--measure-child") return launcher_main(argc, argv);
  if (argc >= 2 && std::string(argv[1]) == "--load-all") return load_all_main(argc, argv);

  BenchOptions o;
  CommandLine cl;
  if (std::optional<int> code = parse_command_line(argc, argv, o, cl)) return *code;
  if (!resolve_paths(cl, o)) return 2;
  const bool temporary = cl.work.empty();
  if (!make_work_dir(cl.work, o)) return 2;
  std::fprintf(stderr, "work folder: %s%s\n", o.work_dir.c_str(),
               temporary && !o.keep_work ? " (deleted at the end)" : "");

  Results r = start_results(o, quote_command(argc, argv));
  bool ok = run(o, r) && report(o, r);
  if (temporary && !o.keep_work) {
    std::error_code ec;
    fs::remove_all(o.work_dir, ec);
  } else {
    std::fprintf(stderr, "work folder kept: %s\n", o.work_dir.c_str());
  }
  return ok ? 0 : 1;
}
