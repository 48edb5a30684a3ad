// Baking a whole input tree: walk, plan, skip what is up to date, bake the rest in parallel,
// remove outputs of deleted sources, write the cache and the manifest.
#pragma once

#include "pipeline/bake_job.h"
#include "pipeline/progress_report.h"
#include "pipeline/shard.h"
#include "pipeline/shared_cache.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace baker {

// The per-file time limit by default: far beyond any real source (a 16384² texture bakes in under
// a minute on one core), short of a CI job's own timeout.
inline constexpr double kDefaultTimeLimit = 600;

// The `--json` report's layout (docs/baker.md, "JSON report"). Raised when a field changes meaning
// or goes away; new fields may appear without it.
inline constexpr int kReportSchemaVersion = 1;

struct BakeOptions {
  std::filesystem::path input;  // a folder, or one source file (a single-file bake, below)
  // For a single file: the folder its output names are relative to, so that it lands where a bake
  // of that whole folder puts it (default: the file's own folder).
  std::optional<std::filesystem::path> root;
  std::optional<std::filesystem::path> output;  // default: the preset's, else "<input>-baked"
  std::optional<std::filesystem::path> config;  // default: nearest baker.json
  std::string preset;
  unsigned jobs = 0;  // 0: all cores
  uint64_t memory_budget =
      0;  // bytes all running bakes may hold together; 0: half the machine's memory
  double time_limit = kDefaultTimeLimit;  // seconds one source may bake (job_runner.h); 0: none
  bool force = false;
  bool verify = false;
  bool quiet = false;
  bool verbose = false;
  bool warnings_as_errors = false;  // any warning makes the exit code 1 (outputs are still written)
  // Wait while another baker holds the output folder, instead of exit 2 (--watch: a rebake must
  // not drop the change it is for).
  bool wait_for_lock = false;
  std::optional<std::filesystem::path> json_report;
  // `--pack`: the pack the caller writes after a bake without failures (pack_folder.h). Checked
  // with the folders before anything is baked: never inside the input folder.
  std::optional<std::filesystem::path> pack;
  // The shared cache (shared_cache.h): the folder named, else $ASSETLIB_CACHE_DIR, else none;
  // none with no_cache. Trimmed to cache_limit bytes after a bake that stored.
  std::optional<std::filesystem::path> cache_dir;
  bool no_cache = false;
  uint64_t cache_limit = kDefaultCacheLimit;
  // Bake only this shard's sources (shard.h), with texture roles and output claims still settled
  // over the whole tree; the output folder then holds that shard alone.
  std::optional<Shard> shard;
};

// A single-file bake writes that file's outputs into the output folder and its entries into the
// cache and manifest there, leaving every other entry and output as it was: an editor or a CI step
// rebakes one asset in a baked tree. Its texture roles still come from every model in the root.
//
// Returns the process exit code: 0 when nothing failed, 1 when a source failed (or, with
// warnings_as_errors, anything warned), 2 on a usage or configuration error.
int run_bake(const BakeOptions& options);

// The output folder a bake with `options` would write to, and the configuration it would follow;
// nullopt when they do not resolve (the bake itself then says why).
struct ResolvedBake {
  std::filesystem::path output;
  BakeConfig config;
};
std::optional<ResolvedBake> resolve_bake(const BakeOptions& options);

// What a walk of the input folder found.
struct SourceWalk {
  std::vector<Source> sources;  // every bakeable file, sorted by path
  size_t unsupported = 0;       // files of other kinds
  size_t excluded = 0;          // files and folders baker.json's "exclude" left out
  // Folders that could not be listed (root-relative, "." for the root), each reported as an
  // error: which sources they hold is unknown, so none of their previous outputs may be taken
  // for a deleted source's.
  std::vector<std::string> unreadable;

  // Whether `relative` lies in an unreadable folder (collect keeps such entries).
  bool unknown(const std::string& relative) const;
};

// Every bakeable file under `root`, skipping `output` (an output folder inside the input: a
// warning names sources in it), what `config` excludes (exclusion_of: such folders are not even
// listed), symlinked folders (not followed) and symlinks that lead outside the root (a warning
// each on `report`). A folder that cannot be listed, and a FIFO, socket or device with a source's
// name, are errors on `report`.
SourceWalk scan_sources(const std::filesystem::path& root, const std::filesystem::path& output,
                        const BakeConfig& config, ProgressReport& report);

// For each of `sources` (in path order, outputs planned), the output an earlier source already
// claims (a.png and a.jpg both make a.tx; "" when none), or the baker's own file it would
// replace (manifest.json/x.png): that source fails, the first bakes.
// Sources whose names are not UTF-8 claim nothing.
std::vector<std::string> taken_outputs(const std::vector<Source>& sources);

// Why `relative` may not bake (RefusedPath), given `taken` from taken_outputs: its output is an
// earlier source's or a name the output folder keeps for the baker's own files (manifest.json,
// .assetlib-*), or its name is not UTF-8.
BakeStatus refused_source(const std::string& relative, const std::string& taken);

}  // namespace baker
