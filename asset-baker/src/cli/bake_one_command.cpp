#include "cli/commands.h"

#include "common/asset_kinds.h"
#include "common/file_time.h"
#include "common/source_paths.h"
#include "common/terminal_text.h"
#include "pipeline/bake_folders.h"
#include "pipeline/bake_tree.h"
#include "pipeline/depfile.h"
#include "pipeline/job_runner.h"
#include "pipeline/memory_budget.h"
#include "pipeline/output_lock.h"
#include "pipeline/plan_textures.h"
#include "pipeline/side_files.h"
#include "pipeline/source_plan.h"
#include "pipeline/source_record.h"

#include <assetlib/asset_file.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace baker {
namespace {

namespace fs = std::filesystem;

int usage_error(const BakeStatus& s) {
  print_message("error", s.message());
  return 2;
}

// The source's texture plan and the output another source takes from it, read from the whole
// root as a whole-folder bake plans them.
BakeStatus plan_from_tree(const fs::path& root, const fs::path& output, const BakeConfig& config,
                          const std::string& relative, TexturePlan& plan, std::string& refused) {
  ProgressReport quiet(0, true, false);
  SourceWalk walk = scan_sources(root, output, config, quiet);
  // A plan from part of the tree could give an image the wrong role: the bake waits for it all.
  if (!walk.unreadable.empty()) {
    const std::string& folder = walk.unreadable.front();
    return BakeStatus::failure(BakeError::UnreadableSource, folder == "." ? root.string() : folder,
                               "cannot list the folder: the root's texture roles are unknown, "
                               "so the source is not baked");
  }
  std::vector<Source>& sources = walk.sources;
  plan = plan_textures(root, config, sources);
  for (Source& s : sources) plan_outputs(plan, s);
  std::vector<std::string> taken = taken_outputs(sources);
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].relative != relative) continue;
    refused = taken[i];
    return {};
  }
  return BakeStatus::failure(BakeError::Config, relative,
                             "not bakeable from its root (inside the output folder, or a "
                             "symlink leading out of the root)");
}

// What the bake read, as a depfile lists it: files by path; for one looked for and missing, its
// nearest existing folder (inside the root), whose time changes when the file appears.
std::vector<std::string> read_paths(const fs::path& root, const std::string& relative,
                                    const CacheEntry& entry, const BakeConfig& config,
                                    const std::optional<fs::path>& plan_file) {
  std::vector<std::string> paths{(root / relative).string()};
  for (const Dependency& dep : entry.deps) {
    // A texture name: its plan file covers it. A slot whose image failed to bake depends on the
    // image's content (bake_job.h): the image is listed.
    if (std::optional<TextureDependency> t = texture_dependency_of(dep); t && !t->failed_image_hash)
      continue;
    std::optional<fs::path> file = inside_root(root, dep.path);
    if (!file) continue;
    if (dep.state != kAbsentFile) {
      paths.push_back(file->string());
      continue;
    }
    std::error_code ec;
    fs::path folder = file->parent_path();
    while (folder_within(folder, root) && folder != root && !fs::is_directory(folder, ec))
      folder = folder.parent_path();
    paths.push_back(folder.string());
  }
  if (!config.path.empty()) paths.push_back(resolved(config.path).string());
  if (plan_file) paths.push_back(plan_file->string());
  return paths;
}

JobResult refused_result(const std::string& relative, const std::string& taken) {
  JobResult r;
  r.outcome = Outcome::Failed;
  r.status = refused_source(relative, taken);
  return r;
}

const char* outcome_line(const JobResult& r) {
  if (r.from_cache) return "restored from the cache";
  return to_string(r.outcome);
}

// The edge's build files: its depfile naming `read` (the output it names: --depfile-target, else
// the stamp, else `fallback_target`) and, when `stamped`, its stamp dated `stamp_ns`. An error is
// printed; false then.
bool write_edge_files(const BakeOneOptions& options, const std::string& fallback_target,
                      const std::vector<std::string>& read, bool stamped, int64_t stamp_ns) {
  if (options.depfile) {
    std::string target = options.depfile_target ? *options.depfile_target
                         : options.stamp        ? options.stamp->string()
                                                : fallback_target;
    if (BakeStatus s = write_depfile(*options.depfile, target, read); !s) {
      print_message("error", s.message());
      return false;
    }
  }
  if (options.stamp && stamped) {
    if (BakeStatus s = write_stamp(*options.stamp, stamp_ns); !s) {
      print_message("error", s.message());
      return false;
    }
  }
  return true;
}

// A source baker.json excludes: nothing is baked and the edge succeeds (a build globs every file).
// collect leaves it out of the manifest, as a whole bake would. Its depfile names baker.json, so
// that an edit lifting the exclusion runs the edge again.
int finish_excluded(const BakeOneOptions& options, const fs::path& root,
                    const std::string& relative, const BakeConfig& config, const std::string& glob,
                    int64_t stamp_ns) {
  if (!options.quiet) std::printf("%s\n", terminal_text(excluded_message(relative, glob)).c_str());
  const bool written = write_edge_files(options, (root / relative).string(),
                                        read_paths(root, relative, {}, config, {}), true, stamp_ns);
  return written ? 0 : 1;
}

}  // namespace

int run_bake_one(const BakeOneOptions& options) {
  // The stamp is dated when the bake began, not when it ended: a source saved while the edge ran is
  // then newer than the stamp, and the build system runs the edge again. Dated at its end, the
  // stamp made the edit look built, for good. It is dated by the clock file times come from
  // (file_clock_now_ns, a tick coarser than the precise one): dated by the precise clock, a stamp
  // could read newer than the manifest collect wrote a moment later, and the next build ran collect
  // again. (An edit in the same tick as the start still looks older. Dating the stamp earlier would
  // make inputs written just before the run, a plan file, look newer for ever.)
  const int64_t stamp_ns = file_clock_now_ns();
  auto started_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  fs::path root, out;
  if (BakeStatus s = resolve_root(options.root, root); !s) return usage_error(s);
  const std::string relative = source_relative(options.source, options.root);
  const fs::path file = root / relative;
  std::optional<AssetKind> kind = source_kind(relative);
  if (relative.empty() || !kind) {
    return usage_error(
        BakeStatus::failure(BakeError::Config, options.source.string(),
                            "not a source the baker reads inside --root " + root.string()));
  }
  BakeConfig config;
  if (BakeStatus s = load_bake_config(root, options.config, options.preset, config); !s)
    return usage_error(s);
  if (BakeStatus s = resolve_output(root, options.output, out); !s) return usage_error(s);
  if (BakeStatus s = check_build_files(options.stamp, options.depfile, root, out); !s)
    return usage_error(s);
  if (std::optional<std::string> glob = exclusion_above(config, relative))
    return finish_excluded(options, root, relative, config, *glob, stamp_ns);
  OutputTree output;
  OutputLock lock;
  if (BakeStatus s = OutputTree::open(out, output); !s) return usage_error(s);
  if (BakeStatus s = lock.acquire_shared(output); !s) return usage_error(s);

  std::error_code ec;
  uint64_t bytes = fs::file_size(file, ec);
  Source source{relative, *kind, {}, {}, ec ? 0 : bytes};
  TexturePlan plan;
  std::string refused;
  std::optional<fs::path> plan_file;
  if (options.plan_dir) {
    plan_file = resolved(*options.plan_dir / plan_file_name(relative));
    if (BakeStatus s = read_source_plan(*options.plan_dir, relative, plan, refused); !s)
      return usage_error(s);
  } else if (BakeStatus s = plan_from_tree(root, out, config, relative, plan, refused); !s) {
    if (s.code == BakeError::Config) return usage_error(s);
    print_message("error", s.message());
    return 1;
  }
  plan_outputs(plan, source);

  BakeCache previous;
  if (std::optional<SourceRecord> last = read_record(output, relative)) {
    if (last->entry) previous.entries[relative] = *last->entry;
    previous.stamps = last->stamps;
    previous.run_started_ns = last->run_started_ns;
  }
  MemoryBudget budget(default_memory_budget());
  JobContext context(root, output, config, previous, budget);
  context.started_ns = int64_t(started_ns);
  context.force = options.force;
  context.verify = options.verify;
  context.textures = std::move(plan);
  std::string cache_warning;
  std::unique_ptr<SharedCache> cache = open_cache_for(
      {options.cache_dir, options.no_cache, options.cache_limit}, root, output, cache_warning);
  if (!cache_warning.empty()) print_message("warning", cache_warning);
  context.shared_cache = cache.get();

  JobResult result;
  bool abandoned = false;
  // Through the job runner, for its time limit. An abandoned job still reads its source, the
  // context and the report: all live until the process ends.
  const std::vector<Source> sources{source};
  const std::vector<size_t> to_run{0};
  std::vector<JobResult> results(1);
  ProgressReport errors_only(1, true, false);  // quiet: it prints the error (warnings below)
  if (!refused.empty() || !is_utf8(relative)) {
    result = refused_result(relative, refused);
    print_message("error", result.status.message());
  } else {
    abandoned = run_jobs(context, sources, to_run, {1, options.time_limit}, results, errors_only);
    result = results[0];
  }
  SourceRecord record{relative, int64_t(started_ns), result.outcome == Outcome::Failed,
                      false,    std::nullopt,        context.take_stamps()};
  if (record.failed)
    record.keep_previous = !result.status.blames_source() || result.inputs_unchanged;
  else
    record.entry = result.entry;
  for (const std::string& w : result.warnings) print_message("warning", w);
  int code = record.failed ? 1 : 0;
  if (BakeStatus s = write_record(output, record); !s) {
    print_message("error", s.message());
    code = 1;
  }
  if (!options.quiet && !record.failed)
    std::printf("%s %s\n", outcome_line(result), terminal_text(relative).c_str());
  if (!write_edge_files(options, (out / record_path(relative)).string(),
                        read_paths(root, relative, result.entry, config, plan_file), code == 0,
                        stamp_ns))
    code = 1;
  if (abandoned) {
    // The stuck job's thread still runs (commits stopped): end without unwinding what it uses.
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}

}  // namespace baker
