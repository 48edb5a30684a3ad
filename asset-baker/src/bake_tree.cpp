#include "bake_tree.h"

#include "bake_cache.h"
#include "bake_config.h"
#include "bake_job.h"
#include "content_hash.h"
#include "progress_report.h"
#include "source_paths.h"

#include <assetlib/manifest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

namespace baker {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kTempMarker = ".assetlib-tmp-";

struct Source {
  std::string relative;  // root-relative, '/'
  AssetKind kind;
  std::string output;    // output-relative
};

std::optional<AssetKind> kind_of(const std::string& relative) {
  static const std::set<std::string> images = {".png", ".jpg", ".jpeg", ".tga", ".bmp", ".psd",
                                               ".gif", ".hdr", ".pic", ".pnm", ".ppm", ".pgm"};
  std::string ext = lower_extension(relative);
  if (images.count(ext)) return AssetKind::Texture;
  if (ext == ".obj") return AssetKind::Mesh;
  return std::nullopt;
}

// Every bakeable file under `root`, sorted, skipping `exclude` (an output folder inside the input)
// and symlinks that lead outside the root.
std::vector<Source> scan_sources(const fs::path& root, const fs::path& exclude, ProgressReport& report) {
  std::vector<Source> sources;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    // Error-code overloads throughout: a symlink loop or a vanished file is a warning, not a throw.
    std::error_code entry_ec;
    bool directory = entry.is_directory(entry_ec);
    if (directory && fs::equivalent(entry.path(), exclude, entry_ec)) {
      it.disable_recursion_pending();
      continue;
    }
    std::string relative = entry.path().lexically_relative(root).generic_string();
    if (entry.is_symlink(entry_ec)) {
      bool resolves = fs::exists(entry.path(), entry_ec);
      if (!resolves || !inside_root(root, relative)) {
        report.warning(relative + (resolves ? ": symlink leads outside the input folder; not followed"
                                            : ": symlink is broken or loops; not followed"));
        if (directory) it.disable_recursion_pending();
        continue;
      }
    }
    if (!entry.is_regular_file(entry_ec)) continue;
    std::optional<AssetKind> kind = kind_of(relative);
    if (!kind) {
      report.verbose("skipped " + relative + " (not a supported source)");
      continue;
    }
    sources.push_back({relative, *kind, with_extension(relative, *kind == AssetKind::Texture ? ".tx" : ".mesh")});
  }
  if (ec) report.error(root.string() + ": walking the folder failed: " + ec.message());
  std::sort(sources.begin(), sources.end(), [](const Source& a, const Source& b) { return a.relative < b.relative; });
  return sources;
}

// Temporary files left by a killed run: never valid outputs, always safe to delete.
void remove_stale_temporaries(const fs::path& output_root) {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::recursive_directory_iterator it(output_root, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().filename().string().find(kTempMarker) != std::string::npos) {
      stale.push_back(it->path());
    }
  }
  for (const fs::path& p : stale) fs::remove(p, ec);
}

struct Totals {
  size_t baked = 0, up_to_date = 0, failed = 0, skipped_collisions = 0, removed = 0;
  uint64_t bytes_in = 0, bytes_out = 0;
};

void write_json_report(const fs::path& path, const Totals& t, double seconds, const std::vector<JobResult>& results,
                       const std::vector<Source>& sources, ProgressReport& report) {
  json files = json::array();
  for (size_t i = 0; i < sources.size(); ++i) {
    const JobResult& r = results[i];
    files.push_back({{"source", sources[i].relative}, {"output", sources[i].output}, {"status", to_string(r.outcome)},
                     {"message", r.error}, {"warnings", r.warnings}, {"seconds", r.seconds},
                     {"bytes_in", r.bytes_in}, {"bytes_out", r.entry.output_size}});
  }
  json doc = {{"baked", t.baked},         {"up_to_date", t.up_to_date}, {"failed", t.failed},
              {"removed", t.removed},     {"seconds", seconds},         {"bytes_in", t.bytes_in},
              {"bytes_out", t.bytes_out}, {"files", files}};
  std::string text = doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  if (assetlib::Status s = assetlib::write_file_atomically(path.string(), parts); !s) report.error(s.message);
}

// Input, configuration and output folder of a bake, resolved and checked.
struct Setup {
  fs::path input, output;
  BakeConfig config;
};

// Returns an error message, or "" when `setup` is ready.
std::string resolve_setup(const BakeOptions& options, Setup& setup) {
  std::error_code ec;
  if (!fs::is_directory(options.input, ec)) return options.input.string() + ": not a folder";
  setup.input = fs::weakly_canonical(options.input);
  std::optional<fs::path> config_path = options.config ? options.config : find_config(setup.input);
  if (config_path) {
    if (assetlib::Status s = load_config(*config_path, options.preset, setup.config); !s) return s.message;
  } else if (!options.preset.empty()) {
    return "--preset " + options.preset + " given but no baker.json found";
  }
  fs::path output = options.output      ? *options.output
                    : setup.config.output ? fs::path(*setup.config.output)
                                          : fs::path(setup.input.string() + "-baked");
  fs::create_directories(output, ec);
  if (ec) return output.string() + ": cannot create output folder: " + ec.message();
  setup.output = fs::weakly_canonical(output);
  if (setup.output == setup.input) return "the output folder must differ from the input folder";
  return {};
}

// Two sources that would write the same output (a.png, a.jpg): the first in path order bakes, the
// others fail. So does a name that is not UTF-8: the manifest (JSON) could not name it. Returns the
// indices of the sources to run.
std::vector<size_t> claim_outputs(const std::vector<Source>& sources, std::vector<JobResult>& results,
                                  ProgressReport& progress) {
  std::set<std::string> claimed;
  std::vector<size_t> to_run;
  for (size_t i = 0; i < sources.size(); ++i) {
    bool utf8 = is_utf8(sources[i].relative);
    if (utf8 && claimed.insert(sources[i].output).second) {
      to_run.push_back(i);
      continue;
    }
    results[i].error = sources[i].relative + (utf8 ? ": output " + sources[i].output + " is already produced by another source"
                                                   : ": file name is not valid UTF-8; rename it");
    progress.error(results[i].error);
    progress.step(sources[i].relative, to_string(Outcome::Failed));
  }
  return to_run;
}

// Big sources go first, so that the longest bakes do not end up last on one worker while the
// others idle. Outputs do not depend on the order.
void largest_first(const fs::path& input, const std::vector<Source>& sources, std::vector<size_t>& to_run) {
  std::vector<uintmax_t> sizes(sources.size(), 0);
  std::error_code ec;
  for (size_t i : to_run) sizes[i] = fs::file_size(input / sources[i].relative, ec);
  std::stable_sort(to_run.begin(), to_run.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
}

// Runs the jobs on `jobs` threads, each taking the next source; one asset per thread in memory.
void run_jobs(JobContext& context, const std::vector<Source>& sources, const std::vector<size_t>& to_run,
              unsigned jobs, std::vector<JobResult>& results, ProgressReport& progress) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next.fetch_add(1)) < to_run.size();) {
      size_t i = to_run[k];
      results[i] = run_job(context, sources[i].relative, sources[i].kind, sources[i].output);
      for (const std::string& w : results[i].warnings) progress.warning(w);
      if (results[i].outcome == Outcome::Failed) progress.error(results[i].error);
      progress.step(sources[i].relative, to_string(results[i].outcome));
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<size_t>(jobs, to_run.size()); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
}

// The new cache and manifest hold the baked and up-to-date sources; outputs of deleted or now
// failing sources are removed. Both files are written atomically, the manifest last.
void finish_outputs(const Setup& setup, const std::vector<Source>& sources, const std::vector<JobResult>& results,
                    const BakeCache& old_cache, JobContext& context, Totals& totals, ProgressReport& progress) {
  BakeCache cache;
  assetlib::Manifest manifest;
  std::set<std::string> live_outputs;
  for (size_t i = 0; i < sources.size(); ++i) {
    const JobResult& r = results[i];
    totals.bytes_in += r.bytes_in;
    if (r.outcome == Outcome::Failed) {
      ++totals.failed;
      continue;
    }
    (r.outcome == Outcome::Baked ? totals.baked : totals.up_to_date)++;
    if (r.outcome == Outcome::Baked) totals.bytes_out += r.entry.output_size;
    cache.entries[sources[i].relative] = r.entry;
    live_outputs.insert(r.entry.output);
    manifest.assets.push_back({sources[i].relative, r.entry.type, r.entry.output, r.entry.output_hash,
                               r.entry.output_size, r.entry.raw_size});
  }
  std::error_code ec;
  for (const auto& [old_source, entry] : old_cache.entries) {
    if (live_outputs.count(entry.output) || !fs::remove(setup.output / entry.output, ec)) continue;
    ++totals.removed;
    const std::string& relative = old_source;  // clang 14 cannot capture a structured binding
    bool still_there = std::any_of(sources.begin(), sources.end(), [&](const Source& s) { return s.relative == relative; });
    progress.info("removed " + entry.output + (still_there ? " (its source failed to bake)" : " (source deleted)"));
  }
  cache.stamps = context.take_stamps();
  if (assetlib::Status s = save_cache(setup.output, cache); !s) progress.error(s.message);
  std::string manifest_text = assetlib::write_manifest(manifest);
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(manifest_text))};
  if (assetlib::Status s = assetlib::write_file_atomically((setup.output / "manifest.json").string(), parts); !s) {
    progress.error(s.message);
    ++totals.failed;
  }
}

}  // namespace

int run_bake(const BakeOptions& options) {
  auto start = std::chrono::steady_clock::now();
  Setup setup;
  if (std::string error = resolve_setup(options, setup); !error.empty()) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 2;
  }
  ProgressReport progress(0, options.quiet, options.verbose);
  for (const std::string& w : setup.config.warnings) progress.warning(w);
  std::vector<Source> sources = scan_sources(setup.input, setup.output, progress);
  remove_stale_temporaries(setup.output);
  BakeCache old_cache = load_cache(setup.output);

  JobContext context(setup.input, setup.output, setup.config, old_cache);
  context.force = options.force;
  context.verify = options.verify;
  for (const Source& s : sources) {
    if (s.kind == AssetKind::Texture) context.textures.insert(s.relative);
  }
  progress.set_total(sources.size());
  std::vector<JobResult> results(sources.size());
  std::vector<size_t> to_run = claim_outputs(sources, results, progress);
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned jobs = options.jobs ? options.jobs : cores;
  // Every job may compress blocks on all cores. A fixed share (cores / jobs) left cores idle at the
  // tail of a bake, when one large texture was still compressing on its share alone; measured on
  // the corpus at -j2, the full bake is 3 % faster this way (docs/benchmarks.md).
  context.threads_per_job = cores;
  largest_first(setup.input, sources, to_run);
  run_jobs(context, sources, to_run, jobs, results, progress);

  Totals totals;
  finish_outputs(setup, sources, results, old_cache, context, totals, progress);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!options.quiet) {
    std::printf("baked %zu, up to date %zu, failed %zu, removed %zu in %.2f s; %.1f MB read, %.1f MB written -> %s\n",
                totals.baked, totals.up_to_date, totals.failed, totals.removed, seconds, double(totals.bytes_in) / 1e6,
                double(totals.bytes_out) / 1e6, setup.output.string().c_str());
  }
  if (options.json_report) write_json_report(*options.json_report, totals, seconds, results, sources, progress);
  return totals.failed ? 1 : 0;
}

}  // namespace baker
