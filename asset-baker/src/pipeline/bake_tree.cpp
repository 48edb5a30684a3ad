#include "pipeline/bake_tree.h"

#include "common/asset_kinds.h"
#include "common/content_hash.h"
#include "common/source_paths.h"
#include "common/terminal_text.h"
#include "pipeline/bake_cache.h"
#include "pipeline/bake_config.h"
#include "pipeline/bake_folders.h"
#include "pipeline/bake_job.h"
#include "pipeline/bake_order.h"
#include "pipeline/failure_summary.h"
#include "pipeline/interrupt.h"
#include "pipeline/job_runner.h"
#include "pipeline/memory_budget.h"
#include "pipeline/output_index.h"
#include "pipeline/output_lock.h"
#include "pipeline/output_tree.h"
#include "pipeline/plan_textures.h"
#include "pipeline/progress_report.h"
#include "pipeline/side_files.h"
#include "pipeline/source_record.h"
#include "pipeline/streamed_file.h"

#include <assetlib/manifest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <thread>

namespace baker {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

}  // namespace

namespace {

// Names what a walk skips: sources inside an output folder that lies in the input (they are not
// baked: that folder is the bake's), counted once per run.
void warn_sources_in_output(const fs::path& output, const fs::path& root, ProgressReport& report) {
  std::error_code ec;
  size_t count = 0;
  std::string first;
  fs::recursive_directory_iterator it(output, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec) || !source_kind(it->path().filename().string())) continue;
    if (count++ == 0) first = it->path().lexically_relative(root).generic_string();
  }
  if (count > 0) {
    report.warning(std::to_string(count) + " source file(s) inside the output folder " +
                   output.lexically_relative(root).generic_string() + " are not baked (first: " +
                   first + "): the output folder is left out of the walk");
  }
}

// One entry of the walk: a source, a file of another kind, or something to say.
void take_entry(const fs::path& root, const fs::directory_entry& entry, SourceWalk& walk,
                ProgressReport& report) {
  std::error_code ec;
  std::string relative = entry.path().lexically_relative(root).generic_string();
  if (entry.is_symlink(ec)) {
    bool resolves = fs::exists(entry.path(), ec);
    if (!resolves || !inside_root(root, relative)) {
      report.warning(relative + (resolves ? ": symlink leads outside the input folder; not followed"
                                          : ": symlink is broken or loops; not followed"));
      return;
    }
  }
  std::optional<AssetKind> kind = source_kind(relative);
  if (!entry.is_regular_file(ec)) {
    // A FIFO, socket or device with a source's name: reading it could block or never end.
    if (kind && !entry.is_directory(ec)) {
      report.error(BakeStatus::failure(BakeError::UnreadableSource, relative,
                                       "not a regular file (a FIFO, socket or device); not read"));
    }
    return;
  }
  if (!kind) {
    if (is_source_companion(relative)) return;
    ++walk.unsupported;
    if (std::optional<std::string> format = unread_asset_format(relative))
      report.info("skipped " + relative + ": " + *format);
    else
      report.verbose("skipped " + relative + " (not a supported source)");
    return;
  }
  uintmax_t size = entry.file_size(ec);
  walk.sources.push_back({relative, *kind, {}, {}, ec ? 0 : uint64_t(size)});
}

}  // namespace

bool SourceWalk::unknown(const std::string& relative) const {
  return std::any_of(unreadable.begin(), unreadable.end(), [&](const std::string& folder) {
    return folder == "." || (relative.size() > folder.size() && relative.starts_with(folder) &&
                             relative[folder.size()] == '/');
  });
}

SourceWalk scan_sources(const fs::path& root, const fs::path& output, const BakeConfig& config,
                        ProgressReport& report) {
  SourceWalk walk;
  // Folder by folder rather than recursive_directory_iterator, whose skip_permission_denied drops
  // an unreadable folder without a word: its sources would be taken for deleted.
  std::vector<fs::path> pending = {root};
  while (!pending.empty()) {
    const fs::path folder = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(folder, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const fs::directory_entry& entry = *it;
      std::error_code entry_ec;
      // Excluded: folders (not listed) and sources. Files read with the sources (.mtl, .bin) are
      // read whatever an exclude says, and others are skipped anyway.
      const std::string relative = entry.path().lexically_relative(root).generic_string();
      if (entry.is_directory(entry_ec) || source_kind(relative)) {
        if (std::optional<std::string> glob = exclusion_of(config, relative)) {
          ++walk.excluded;
          report.verbose("excluded " + relative + " (baker.json: '" + *glob + "')");
          continue;
        }
      }
      // Symlinked folders are not followed: a loop, or the same files twice.
      if (entry.is_directory(entry_ec) && !entry.is_symlink(entry_ec)) {
        if (!output.empty() && fs::equivalent(entry.path(), output, entry_ec)) {
          // A walk of the whole output folder, only where the warning is shown (not per bake-one).
          if (!report.quiet()) warn_sources_in_output(entry.path(), root, report);
        } else {
          pending.push_back(entry.path());
        }
        continue;
      }
      take_entry(root, entry, walk, report);
    }
    if (ec) {
      std::string relative = folder.lexically_relative(root).generic_string();
      walk.unreadable.push_back(relative);
      report.error(BakeStatus::failure(
          BakeError::UnreadableSource, relative == "." ? root.string() : relative,
          "cannot list the folder (" + ec.message() +
              "): nothing is baked (what it holds may change other assets), every previous "
              "output is kept"));
    }
  }
  std::sort(walk.sources.begin(), walk.sources.end(),
            [](const Source& a, const Source& b) { return a.relative < b.relative; });
  return walk;
}

namespace {

struct Totals {
  size_t baked = 0, up_to_date = 0, failed = 0, not_run = 0, removed = 0, unsupported = 0;
  size_t from_cache = 0;
  uint64_t bytes_in = 0, bytes_out = 0;
};

uint64_t bytes_written(const CacheEntry& entry) {
  uint64_t bytes = 0;
  for (const OutputRecord& o : entry.outputs) bytes += o.size;
  return bytes;
}

void write_json_report(const fs::path& path, const Totals& t, double seconds,
                       const std::vector<JobResult>& results, const std::vector<Source>& sources,
                       ProgressReport& report) {
  json files = json::array();
  for (size_t i = 0; i < sources.size(); ++i) {
    const JobResult& r = results[i];
    json outputs = json::array();
    for (const OutputRecord& o : r.entry.outputs) outputs.push_back(o.path);
    files.push_back({{"source", sources[i].relative},
                     {"outputs", outputs},
                     {"status", to_string(r.outcome)},
                     {"code", bake_error_name(r.status.code)},
                     {"message", r.status.message()},
                     {"warnings", r.warnings},
                     {"from_cache", r.from_cache},
                     {"seconds", r.seconds},
                     {"bytes_in", r.bytes_in},
                     {"bytes_out", bytes_written(r.entry)}});
  }
  json doc = {{"schema_version", kReportSchemaVersion},
              {"baked", t.baked},
              {"up_to_date", t.up_to_date},
              {"failed", t.failed},
              {"not_run", t.not_run},
              {"removed", t.removed},
              {"from_cache", t.from_cache},
              {"unsupported", t.unsupported},
              {"warnings", report.warning_count()},
              {"seconds", seconds},
              {"bytes_in", t.bytes_in},
              {"bytes_out", t.bytes_out},
              {"files", files}};
  std::string text = doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  if (BakeStatus s = write_named_file(path, parts); !s) report.error(s);
}

// Input, configuration and output folder of a bake, resolved and checked.
struct Setup {
  fs::path input, output;
  fs::path named_input;  // the input as named, absolute: a symlink's own path, not its target's
  BakeConfig config;
  std::string only;  // a single-file bake: the file, relative to `input` (its root)
};

// The input folder, or for a single file its root and its path there.
BakeStatus resolve_input(const BakeOptions& options, Setup& setup) {
  std::error_code ec;
  if (fs::is_directory(options.input, ec)) {
    if (options.root)
      return BakeStatus::failure(BakeError::Config, "--root", "applies to a single file only");
    setup.input = fs::weakly_canonical(options.input);
    // "alias/.." is not the parent of alias's target: with a "..", the resolved path is the name.
    const fs::path named = fs::absolute(options.input, ec);
    const bool climbs =
        std::any_of(named.begin(), named.end(), [](const fs::path& part) { return part == ".."; });
    setup.named_input = climbs ? setup.input : named.lexically_normal();
    if (!setup.named_input.has_filename()) setup.named_input = setup.named_input.parent_path();
    return {};
  }
  if (!fs::is_regular_file(options.input, ec)) {
    return BakeStatus::failure(BakeError::Config, options.input.string(),
                               "neither a folder nor a file");
  }
  const fs::path named_root =
      options.root ? *options.root : fs::absolute(options.input, ec).parent_path();
  setup.input = fs::weakly_canonical(named_root);
  setup.only = source_relative(options.input, named_root);
  if (setup.only.empty()) {
    return BakeStatus::failure(BakeError::Config, options.input.string(),
                               "not inside --root " + setup.input.string());
  }
  setup.named_input = setup.input;
  if (!source_kind(setup.only)) {
    return BakeStatus::failure(BakeError::Config, options.input.string(),
                               "not a source the baker reads (see docs/baker.md)");
  }
  return {};
}

// Resolves the folders and the configuration. The output may lie inside the input (it is then left
// out of the walk) but not contain it: the bake writes and deletes only inside the output folder,
// and no source may ever be taken for one of its files. An output folder named by the input's
// own configuration or by default (not by -o) must not be a symlink: that could point anywhere.
// --pack is written after the bake, by the caller; it must not land in the input folder (the
// source tree is never modified), unless in an output folder lying there.
BakeStatus check_pack_path(const fs::path& pack, const Setup& setup) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(pack, ec);
  if (ec || !folder_within(target, setup.input) || folder_within(target, setup.output)) return {};
  return BakeStatus::failure(BakeError::Config, pack.string(),
                             "--pack names a file in the input folder, which a bake never "
                             "modifies; name one outside it or in the output folder");
}

BakeStatus resolve_setup(const BakeOptions& options, Setup& setup) {
  std::error_code ec;
  if (BakeStatus s = resolve_input(options, setup); !s) return s;
  std::optional<fs::path> config_path = options.config ? options.config : find_config(setup.input);
  if (config_path) {
    if (BakeStatus s = load_config(*config_path, options.preset, setup.config); !s) return s;
  } else if (!options.preset.empty()) {
    return BakeStatus::failure(BakeError::Config, "",
                               "--preset " + options.preset + " given but no baker.json found");
  }
  fs::path output = options.output        ? *options.output
                    : setup.config.output ? fs::path(*setup.config.output)
                                          : fs::path(setup.named_input.string() + "-baked");
  if (!options.output && fs::is_symlink(output, ec)) {
    return BakeStatus::failure(
        BakeError::RefusedPath, output.string(),
        "the output folder is a symlink; name it with -o to bake into it anyway");
  }
  setup.output = fs::weakly_canonical(output, ec);
  if (ec)
    return BakeStatus::failure(BakeError::IoError, output.string(),
                               "cannot resolve: " + ec.message());
  if (output_holds_input(setup.input, setup.output)) {
    std::string why = setup.input == setup.output
                          ? "the output folder must differ from the input folder"
                      : folder_within(setup.input, setup.output)
                          ? "the output folder contains the input folder " + setup.input.string() +
                                "; choose another output folder"
                          : "the output folder is, or holds, the input folder " +
                                setup.input.string() + " under another path (a bind mount?)";
    return BakeStatus::failure(BakeError::Config, setup.output.string(), why);
  }
  if (options.json_report) {
    if (BakeStatus s = check_side_file(*options.json_report, SideFile::Report, "--json",
                                       setup.input, setup.output);
        !s)
      return s;
  }
  if (options.pack) return check_pack_path(*options.pack, setup);
  return {};
}

// The outputs sources claim: exact paths, and the parts folders of OBJ and glTF sources.
// Whether a manifest can list `path`: an output, or a parts folder (ending in '/') for the outputs
// in it. Not one starting like a Windows drive ("a:") or holding a backslash
// (is_safe_relative_path).
bool manifest_can_hold(std::string_view path) {
  if (path.ends_with('/')) path.remove_suffix(1);
  return assetlib::is_safe_relative_path(path);
}

// The outputs the sources claim, in path order: a later source may take no output path an earlier
// one claims, nor need a folder where an earlier one writes a file, nor write a file where an
// earlier one needs a folder (a source `a.png` writes `a.tx`, a source `a.tx/b.png` needs the
// folder `a.tx/`). Decided here, by path order, not by which job writes first: the same tree
// always bakes the same sources.
class OutputClaims {
 public:
  // The claimed output `source` would overwrite or collide with as a file and a folder (or a
  // baker's file, is_baker_file, or a path no manifest holds), or "" when it takes none.
  std::string conflict(const Source& source) const {
    for (const std::string& path : source.outputs) {
      if (paths_.count(path) || is_baker_file(path) || !manifest_can_hold(path)) return path;
      for (size_t slash = path.find('/'); slash != std::string::npos;
           slash = path.find('/', slash + 1)) {
        if (parts_.count(path.substr(0, slash + 1))) return path;  // in another's parts folder
      }
      if (folders_.count(path + "/")) return path;  // an earlier output lies in a folder so named
      if (std::string file = claimed_file_above(path); !file.empty()) return file;
    }
    if (!source.parts.empty()) {
      if (!manifest_can_hold(source.parts)) return source.parts;
      auto inside = paths_.lower_bound(source.parts);
      if (inside != paths_.end() && inside->rfind(source.parts, 0) == 0) return *inside;
      if (std::string file = claimed_file_above(source.parts); !file.empty()) return file;
      const std::string folder(source.parts, 0, source.parts.size() - 1);
      if (paths_.count(folder)) return folder;
    }
    return {};
  }
  // Whether an earlier run's file at `path` stands where a claimed output needs a folder, or in a
  // folder where one is a file (a.tx; a.tx/b.tx), or in a claimed parts folder, whose files are
  // its source's alone.
  bool blocked_by(const std::string& path) const {
    if (folders_.count(path + "/") || !claimed_file_above(path).empty()) return true;
    for (size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      if (parts_.count(path.substr(0, slash + 1))) return true;
    }
    return false;
  }
  void claim(const Source& source) {
    for (const std::string& path : source.outputs) {
      paths_.insert(path);
      add_folders_above(path);
    }
    if (!source.parts.empty()) {
      parts_.insert(source.parts);
      folders_.insert(source.parts);
      add_folders_above(source.parts);
    }
  }

 private:
  // A claimed file at a folder on the way to `path` ("a.tx" for "a.tx/b.tx"), or "".
  std::string claimed_file_above(const std::string& path) const {
    for (size_t slash = path.find('/'); slash != std::string::npos && slash + 1 < path.size();
         slash = path.find('/', slash + 1)) {
      std::string folder = path.substr(0, slash);
      if (paths_.count(folder)) return folder;
    }
    return {};
  }
  void add_folders_above(const std::string& path) {
    for (size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1))
      folders_.insert(path.substr(0, slash + 1));
  }

  std::set<std::string> paths_;
  std::set<std::string> parts_;    // "a.obj.parts/": the folders of whole sources
  std::set<std::string> folders_;  // "x/": every folder a claimed output or parts folder lies in
};

}  // namespace

BakeStatus refused_source(const std::string& relative, const std::string& taken) {
  if (!is_utf8(relative)) {
    return BakeStatus::failure(BakeError::RefusedPath, relative,
                               "file name is not valid UTF-8; rename it");
  }
  const char* why = is_baker_file(taken) ? " is a name the output folder keeps for the baker's "
                                           "own files (manifest.json, .assetlib-*); rename the "
                                           "source"
                    : !manifest_can_hold(taken)
                        ? " is no path a manifest can hold (a '\\', or a drive letter such as "
                          "'a:' at its start, as Windows reads it); rename the source"
                        : " is already produced by another source";
  return BakeStatus::failure(BakeError::RefusedPath, relative, "output " + taken + why);
}

std::vector<std::string> taken_outputs(const std::vector<Source>& sources) {
  OutputClaims claims;
  std::vector<std::string> taken(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!is_utf8(sources[i].relative)) continue;
    taken[i] = claims.conflict(sources[i]);
    if (taken[i].empty()) claims.claim(sources[i]);
  }
  return taken;
}

namespace {

// Outputs of different sources whose paths differ only by ASCII case (a.png and A.png): one file on
// the case-insensitive file systems a baked folder is often copied to (Windows, macOS), where one
// would silently replace the other. Each such source after the first gets a warning.
void warn_case_collisions(const std::vector<Source>& sources, const std::vector<size_t>& to_run,
                          ProgressReport& progress) {
  std::map<std::string, std::pair<std::string, size_t>> folded;  // lower case -> output, source
  for (size_t i : to_run) {
    for (const std::string& output : sources[i].outputs) {
      std::string key = output;
      for (char& c : key) c = char(std::tolower(static_cast<unsigned char>(c)));
      auto [it, added] = folded.try_emplace(key, output, i);
      if (added || it->second.second == i) continue;
      progress.warning(
          sources[i].relative + ": output " + output + " differs from " + it->second.first +
          " (of " + sources[it->second.second].relative +
          ") only by case: one file on case-insensitive file systems (Windows, macOS)");
    }
  }
}

// Two sources that would write the same output (a.png, a.jpg; `taken`, from taken_outputs): the
// first in path order bakes, the others fail. So does a name that is not UTF-8: the manifest
// (JSON) could not name it. Returns the indices of the sources to run.
std::vector<size_t> claim_outputs(const std::vector<Source>& sources,
                                  const std::vector<std::string>& taken_by_other,
                                  std::vector<JobResult>& results, ProgressReport& progress) {
  std::vector<size_t> to_run;
  for (size_t i = 0; i < sources.size(); ++i) {
    bool utf8 = is_utf8(sources[i].relative);
    const std::string& taken = taken_by_other[i];
    if (utf8 && taken.empty()) {
      to_run.push_back(i);
      continue;
    }
    results[i].outcome = Outcome::Failed;
    results[i].status = refused_source(sources[i].relative, taken);
    progress.error(results[i].status);
    progress.step(sources[i].relative, to_string(Outcome::Failed), sources[i].bytes);
  }
  return to_run;
}

// A single-file bake: `sources` becomes that file alone. It may not take an output any other
// source writes (before or after it in path order): the other sources' entries are carried over
// as they are, and two entries must never name one file.
BakeStatus select_only(const std::string& only, std::vector<Source>& sources) {
  OutputClaims claims;
  const Source* chosen = nullptr;
  for (const Source& s : sources) {
    if (s.relative == only)
      chosen = &s;
    else
      claims.claim(s);
  }
  if (!chosen) {
    return BakeStatus::failure(BakeError::Config, only,
                               "not bakeable from its root (inside the output folder, or a "
                               "symlink leading out of the root)");
  }
  if (std::string taken = claims.conflict(*chosen); !taken.empty())
    return refused_source(only, taken);
  Source kept = *chosen;
  sources = {std::move(kept)};
  return {};
}

// Keeps the sources of `shard` (and what taken_outputs found for them over the whole tree).
void keep_shard(const Shard& shard, std::vector<Source>& sources, std::vector<std::string>& taken) {
  std::vector<Source> kept_sources;
  std::vector<std::string> kept_taken;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!in_shard(shard, sources[i].relative)) continue;
    kept_sources.push_back(std::move(sources[i]));
    kept_taken.push_back(std::move(taken[i]));
  }
  sources = std::move(kept_sources);
  taken = std::move(kept_taken);
}

// One line on what the shared cache did, when it did anything.
void report_cache(const SharedCache& cache, bool quiet) {
  SharedCacheCounts c = cache.counts();
  if (quiet || c.hits + c.stored + c.damaged + c.store_failures == 0) return;
  std::string line = "cache " + cache.root().string() + ": ";
  line += std::to_string(c.hits) + " restored, ";
  line += std::to_string(c.stored) + " stored";
  if (c.damaged) line += ", " + std::to_string(c.damaged) + " damaged entries removed";
  if (c.store_failures) {
    line += ", " + std::to_string(c.store_failures) + " not stored (first: ";
    line += cache.first_store_failure() + ")";
  }
  std::printf("%s\n", terminal_text(line).c_str());
}

// Whether a source's previous outputs survive this run: when the source was not run (interrupted),
// or failed for a reason that is not the source's (a full disk, the configuration, the baker, or
// any failure of inputs that baked before), and every output still holds what the baker wrote.
// Nothing good is removed because a new one could not be made; the outputs of a source that is now
// broken or gone are.
bool keeps_previous(const JobResult& r, const CacheEntry& old, const OutputTree& output) {
  bool not_the_source =
      r.outcome == Outcome::Failed && (!r.status.blames_source() || r.inputs_unchanged);
  if (r.outcome != Outcome::NotRun && !not_the_source) return false;
  return std::all_of(old.outputs.begin(), old.outputs.end(),
                     [&](const OutputRecord& o) { return output.file_hash(o.path) == o.hash; });
}

// An image failed to bake, and a model this run baked (or found up to date) names its texture: the
// folder would fail `check`, and an engine would look for a texture that is not there. Such models
// are baked again with the image's slots untextured, each with a warning, as for a missing image;
// the bake still fails on the image. Not for an image whose previous texture stays (a failure not
// its own), nor in a single-file or shard bake, which do not make every texture their models name.
// Returns true when jobs were abandoned (run_jobs).
bool rebake_models_naming_failed_images(JobContext& context, const std::vector<Source>& sources,
                                        const BakeCache& old_cache, const OutputTree& output,
                                        RunLimits limits, std::vector<JobResult>& results,
                                        ProgressReport& progress) {
  context.failed_images.clear();
  for (size_t i = 0; i < sources.size(); ++i) {
    const JobResult& r = results[i];
    if (sources[i].kind != AssetKind::Texture || r.outcome != Outcome::Failed) continue;
    auto old = old_cache.entries.find(sources[i].relative);
    if (old != old_cache.entries.end() && keeps_previous(r, old->second, output)) continue;
    // The hash of the bytes that failed (read before the decoder refused them), not of the file
    // now: an image fixed meanwhile must not pass for the broken one.
    const bool own_fault = r.status.blames_source() && !r.inputs_unchanged;
    context.failed_images[sources[i].relative] = own_fault ? r.entry.source_hash : "";
  }
  std::vector<size_t> models;
  uint64_t bytes = 0;
  for (size_t i = 0; i < sources.size() && !context.failed_images.empty(); ++i) {
    const JobResult& r = results[i];
    if (r.outcome != Outcome::Baked && r.outcome != Outcome::UpToDate) continue;
    const bool names_failed =
        std::any_of(r.entry.deps.begin(), r.entry.deps.end(),
                    [&](const Dependency& d) { return names_failed_image(context, d); });
    if (!names_failed) continue;
    models.push_back(i);
    bytes += sources[i].bytes;
  }
  if (models.empty()) return false;
  std::vector<JobResult> first;  // kept when the second bake of a model does not succeed
  for (size_t i : models) first.push_back(results[i]);
  progress.add_to_total(models.size(), bytes);
  const bool abandoned = run_jobs(context, sources, models, limits, results, progress);
  for (size_t k = 0; k < models.size(); ++k) {
    const Outcome outcome = results[models[k]].outcome;
    if (outcome != Outcome::Baked && outcome != Outcome::UpToDate) results[models[k]] = first[k];
  }
  return abandoned;
}

// The new cache and manifest, and the output paths they hold.
struct NewState {
  BakeCache cache;
  assetlib::Manifest manifest;
  std::set<std::string> live;

  bool any_live(const CacheEntry& entry) const {
    return std::any_of(entry.outputs.begin(), entry.outputs.end(),
                       [&](const OutputRecord& o) { return live.count(o.path) > 0; });
  }
  void add(const std::string& source, const CacheEntry& entry) {
    cache.entries[source] = entry;
    for (const OutputRecord& o : entry.outputs) {
      manifest.assets.push_back({o.name, o.type, o.path, o.hash, o.size, o.raw_size});
      live.insert(o.path);
    }
  }
  // Takes `source`'s entry out again; returns it.
  CacheEntry drop(const std::string& source) {
    CacheEntry entry = cache.entries.at(source);
    cache.entries.erase(source);
    for (const OutputRecord& o : entry.outputs) {
      live.erase(o.path);
      std::erase_if(manifest.assets,
                    [&](const assetlib::ManifestEntry& a) { return a.path == o.path; });
    }
    return entry;
  }
};

// Why the output of `relative`, a source of the previous run, goes.
const char* removal_reason(const std::string& relative, const std::vector<Source>& sources,
                           const JobContext& context) {
  bool still_there = std::any_of(sources.begin(), sources.end(),
                                 [&](const Source& s) { return s.relative == relative; });
  return still_there ? " (its source failed to bake or no longer makes it)"
         : context.shard && !in_shard(*context.shard, relative)
             ? " (another shard's: a shard's output folder holds that shard alone)"
         : exclusion_above(context.config, relative) ? " (source excluded by baker.json)"
                                                     : " (source deleted)";
}

// Deletes the output `o` of `relative`, a source of the previous run, while it still holds what the
// baker wrote (a file someone changed since is left alone, with a warning).
// `why`: the reason said, looked up by removal_reason when null.
void remove_previous(const OutputTree& output, const std::string& relative, const OutputRecord& o,
                     const std::vector<Source>& sources, const JobContext& context, Totals& totals,
                     ProgressReport& progress, const char* why = nullptr) {
  OutputTree::Removal removal = output.remove_if_unchanged(o.path, o.hash);
  if (removal == OutputTree::Removal::Kept) progress.warning(kept_output_warning(o.path));
  if (removal != OutputTree::Removal::Removed) return;
  ++totals.removed;
  // The reason is looked up only for a removal: a scan of every source per entry made a no-op bake
  // of 100k sources quadratic.
  progress.info("removed " + o.path + (why ? why : removal_reason(relative, sources, context)));
}

// The outputs of the previous run that stood in the way of this run's (clear_the_way): removed, or
// kept with a warning, and done with either way.
using ClearedWay = std::set<std::string>;

// A model not rebaked by this run (interrupted, stopped at the time limit, or failed through no
// fault of its own) keeps its previous outputs, whose materials name the textures they were baked
// with. The previous entries holding those textures stay too, while their files hold what the
// baker wrote, even when their source is gone or no longer makes them: removed, they left a
// manifest `check` fails. The next bake that rebakes the model removes them. (A complete bake
// never needs this: a model naming a texture that changed is rebaked. A single-file bake removes
// what it is asked to and warns; a shard's folder never holds every texture its models name.)
void keep_named_textures(const BakeCache& own, const OutputTree& output, NewState& state) {
  const std::set<std::string> held = held_textures(state.cache);
  std::set<std::string> named;
  for (const auto& [source, entry] : state.cache.entries) {
    for (const auto& [name, image] : unheld_textures(entry, held)) named.insert(name);
  }
  if (named.empty()) return;
  for (const auto& [source, entry] : own.entries) {
    const bool holds_named =
        std::any_of(entry.outputs.begin(), entry.outputs.end(),
                    [&](const OutputRecord& o) { return named.count(o.name); });
    if (!holds_named || state.cache.entries.count(source) || state.any_live(entry)) continue;
    if (std::all_of(entry.outputs.begin(), entry.outputs.end(),
                    [&](const OutputRecord& o) { return output.file_hash(o.path) == o.hash; }))
      state.add(source, entry);
  }
}

// A bake stopped before it made a texture that a model's material names: the texture cleared out
// of the way of another output, or not reached (a model baked first). Such a model goes too, as
// if not reached, so that the manifest names only what it holds: its new outputs are deleted, its
// previous ones (remove_orphans) too; the rerun bakes it. (A complete bake keeps a model whose
// texture failed: one broken file does not take others with it, and the bake fails anyway.)
void drop_models_naming_unheld(const OutputTree& output, const BakeCache& own, NewState& state) {
  const std::set<std::string> held = held_textures(state.cache);
  std::vector<std::string> models;
  for (const auto& [source, entry] : state.cache.entries)
    if (!unheld_textures(entry, held).empty()) models.push_back(source);
  for (const std::string& source : models) {
    const CacheEntry entry = state.drop(source);
    auto old = own.entries.find(source);
    for (const OutputRecord& o : entry.outputs) {
      const bool previous = old != own.entries.end() &&
                            std::any_of(old->second.outputs.begin(), old->second.outputs.end(),
                                        [&](const OutputRecord& p) { return p.hash == o.hash; });
      if (!previous) output.remove_if_unchanged(o.path, o.hash);  // remove_orphans does those
    }
  }
}

// The outputs of the previous run that no source of this run owns, deleted (remove_previous).
void remove_orphans(const OutputTree& output, const std::vector<Source>& sources,
                    const BakeCache& old_cache, const std::set<std::string>& live,
                    const ClearedWay& cleared, const JobContext& context, Totals& totals,
                    ProgressReport& progress) {
  for (const auto& [relative, entry] : old_cache.entries) {
    for (const OutputRecord& o : entry.outputs) {
      if (!live.count(o.path) && !cleared.count(o.path))
        remove_previous(output, relative, o, sources, context, totals, progress);
    }
  }
}

// The outputs of the previous run that stand where a source run now writes: a file where it needs
// a folder (a deleted a.png's a.tx, where a new a.tx/b.png writes a.tx/b.tx), a file in a folder
// where it writes a file, or in its parts folder. No source makes them this run (theirs is deleted,
// excluded or refused, or no longer makes them: a role a material dropped), so a whole bake would
// remove them at its end; gone first, the source that needs their place bakes now instead of
// failing once. A single-file bake removes those alone, and its carried entries lose them.
ClearedWay clear_the_way(const OutputTree& output, const std::vector<Source>& sources,
                         const std::vector<size_t>& to_run, const BakeCache& old_cache,
                         const JobContext& context, Totals& totals, ProgressReport& progress) {
  OutputClaims claims;
  std::map<std::string, const Source*> running;
  for (size_t i : to_run) {
    claims.claim(sources[i]);
    running.emplace(sources[i].relative, &sources[i]);
  }
  // Whether `source`, run now, makes `path` again (its parts: it may, whatever their names).
  auto makes_again = [](const Source& source, const std::string& path) {
    return std::find(source.outputs.begin(), source.outputs.end(), path) != source.outputs.end() ||
           (!source.parts.empty() && path.rfind(source.parts, 0) == 0);
  };
  ClearedWay cleared;
  for (const auto& [relative, entry] : old_cache.entries) {
    auto run = running.find(relative);
    for (const OutputRecord& o : entry.outputs) {
      if (run != running.end() && makes_again(*run->second, o.path)) continue;
      if (!claims.blocked_by(o.path)) continue;
      cleared.insert(o.path);
      remove_previous(output, relative, o, sources, context, totals, progress,
                      " (no source makes it any more, and an output of this bake goes there)");
    }
  }
  return cleared;
}

// The outputs a killed bake put in place (OutputJournal) that no source of this run makes, deleted
// while they still hold what it noted.
void remove_left_over(const OutputTree& output, const OutputJournal& journal,
                      const std::set<std::string>& live, Totals& totals, ProgressReport& progress) {
  for (const auto& [noted_path, noted_hash] : journal.left_over()) {
    const std::string path(noted_path);
    if (live.count(path) ||
        output.remove_if_unchanged(path, std::string(noted_hash)) != OutputTree::Removal::Removed)
      continue;
    ++totals.removed;
    progress.info("removed " + path + " (put there by a bake that ended before recording it)");
  }
}

// The new cache and manifest hold the baked, up-to-date and kept sources; orphaned outputs are
// removed. Both files are written atomically, the manifest last.
//
// A single-file bake (of `only`) carries every other source's entry over as it was, unchecked (they
// are not this run's business), and removes only what the named file no longer makes (all of it
// when baker.json excludes the file). A run whose
// walk could not list a folder baked nothing: it carries every entry over and removes nothing.
void finish_outputs(const OutputTree& output, const SourceWalk& walk,
                    const std::vector<JobResult>& results, const BakeCache& old_cache,
                    const ClearedWay& cleared, const std::string& only, JobContext& context,
                    Totals& totals, ProgressReport& progress) {
  const std::vector<Source>& sources = walk.sources;
  const bool partial = !only.empty();
  NewState state;
  state.cache.run_started_ns = state.cache.indexed_ns = context.started_ns;
  state.cache.shard = context.shard;
  // Shards merge only when they planned the same tree with the same settings.
  if (context.shard) {
    const uint64_t parts[2] = {context.textures.digest(), config_digest(context.config)};
    state.cache.shard_plan = hash_bytes(parts, sizeof parts);
  }
  BakeCache own;  // the previous entries of this run's sources
  for (const auto& [old_source, entry] : old_cache.entries) {
    const std::string& source = old_source;  // clang 14 cannot capture a structured binding
    // With a folder unlisted nothing ran: every entry is carried, none judged deleted.
    // The file a single-file bake names is ours even when excluded (no source then): its outputs
    // go. So is an entry naming an output it bakes: that of a source deleted since (select_only
    // refused a collision with any source still there), which would list one file twice. An
    // entry carried over loses the outputs cleared out of the way.
    auto names_our_output = [&](const CacheEntry& e) {
      return std::any_of(e.outputs.begin(), e.outputs.end(), [&](const OutputRecord& o) {
        return std::any_of(sources.begin(), sources.end(), [&](const Source& s) {
          return std::find(s.outputs.begin(), s.outputs.end(), o.path) != s.outputs.end();
        });
      });
    };
    bool ours = walk.unreadable.empty() &&
                (!partial || source == only ||
                 std::any_of(sources.begin(), sources.end(),
                             [&](const Source& s) { return s.relative == source; }) ||
                 names_our_output(entry));
    if (ours) {
      own.entries.emplace(source, entry);
      continue;
    }
    CacheEntry carried = entry;
    std::erase_if(carried.outputs, [&](const OutputRecord& o) { return cleared.count(o.path); });
    if (!carried.outputs.empty()) state.add(source, carried);
  }
  if (partial) {
    state.cache.stamps = old_cache.stamps;
    // The carried stamps were judged against the old run's start (bake_cache.h, kRacyWindowNs).
    keep_earliest_start(state.cache, old_cache.run_started_ns);
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    const JobResult& r = results[i];
    totals.bytes_in += r.bytes_in;
    if (r.outcome == Outcome::Failed) ++totals.failed;
    if (r.outcome == Outcome::NotRun) ++totals.not_run;
    if (r.outcome == Outcome::Baked || r.outcome == Outcome::UpToDate) {
      (r.outcome == Outcome::Baked ? totals.baked : totals.up_to_date)++;
      if (r.from_cache) ++totals.from_cache;
      if (r.outcome == Outcome::Baked) totals.bytes_out += bytes_written(r.entry);
      state.add(sources[i].relative, r.entry);
      continue;
    }
    auto old = old_cache.entries.find(sources[i].relative);
    if (old != old_cache.entries.end() && !state.any_live(old->second) &&
        keeps_previous(r, old->second, output)) {
      state.add(sources[i].relative, old->second);
      if (r.outcome == Outcome::Failed) {
        for (const OutputRecord& o : old->second.outputs)
          progress.info("kept the previous " + o.path);
      }
    }
  }
  if (!partial && !context.shard) {
    keep_named_textures(own, output, state);
    const bool stopped = std::any_of(results.begin(), results.end(), [](const JobResult& r) {
      return r.outcome == Outcome::NotRun;
    });
    if (stopped) drop_models_naming_unheld(output, own, state);
  }
  remove_orphans(output, sources, own, state.live, cleared, context, totals, progress);
  // A single-file bake does not know what the other sources make: what killed runs left waits
  // for a whole bake.
  if (!partial && walk.unreadable.empty() && context.journal)
    remove_left_over(output, *context.journal, state.live, totals, progress);
  for (auto& [path, stamp] : context.take_stamps()) state.cache.stamps[path] = stamp;
  state.cache.planned = std::move(context.planned);
  // A single-file bake does not rebake the others: a material of theirs may name a texture it just
  // removed (an image excluded since). Said, as check would say it.
  if (partial) {
    for (const std::string& warning : unheld_texture_warnings(state.cache))
      progress.warning(warning);
  }
  // Without the cache the next run rebakes everything, but loses nothing: still a failure to
  // report.
  const bool unchanged = cache_unchanged(state.cache, old_cache) && !may_hold_records(output);
  BakeStatus saved = unchanged ? BakeStatus{} : save_cache(output, state.cache);
  if (!saved) {
    progress.error(saved);
    ++totals.failed;
  } else if (context.journal && (!partial || context.journal->left_over().empty())) {
    context.journal->clear();  // the cache now describes every output noted
  }
  // Rewritten only when it changed: an up-to-date tree's bake writes nothing.
  std::string manifest_text = assetlib::write_manifest(state.manifest);
  if (output.read_file("manifest.json", manifest_text.size() + 1) == manifest_text) return;
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(manifest_text))};
  if (BakeStatus s = output.write("manifest.json", parts); !s) {
    progress.error(s);
    ++totals.failed;
  }
}

}  // namespace

std::optional<ResolvedBake> resolve_bake(const BakeOptions& options) {
  Setup setup;
  if (!resolve_setup(options, setup)) return std::nullopt;
  return ResolvedBake{setup.output, std::move(setup.config)};
}

int run_bake(const BakeOptions& options) {
  auto start = std::chrono::steady_clock::now();
  auto started_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  Setup setup;
  OutputTree output;
  OutputLock lock;
  BakeStatus ready = resolve_setup(options, setup);
  if (ready) ready = OutputTree::open(setup.output, output);
  if (ready && options.wait_for_lock) {
    ready = lock.acquire_waiting(output, [&] {
      std::printf("waiting for another asset-baker to finish baking into %s\n",
                  terminal_text(setup.output.string()).c_str());
      std::fflush(stdout);
    });
  } else if (ready) {
    ready = lock.acquire(output);
  }
  if (ready) ready = check_manifest_replaceable(output);
  if (!ready && interrupt_signal()) return 128 + interrupt_signal();  // Ctrl-C while waiting
  if (!ready) {
    print_message("error", ready.message());
    return 2;
  }
  InterruptScope interrupt_scope;
  ProgressReport progress(0, options.quiet, options.verbose);
  progress.info(config_line(setup.config));
  for (const std::string& w : setup.config.warnings) progress.warning(w);
  Totals totals;
  SourceWalk walk = scan_sources(setup.input, setup.output, setup.config, progress);
  totals.unsupported = walk.unsupported;
  std::vector<Source>& sources = walk.sources;
  output.sweep_leftovers();  // under the lock: no other run's temporaries are in flight
  BakeCache old_cache = load_cache(output);
  OutputJournal journal;
  journal.open(output);

  MemoryBudget budget(options.memory_budget ? options.memory_budget : default_memory_budget());
  JobContext context(setup.input, output, setup.config, old_cache, budget);
  context.started_ns = int64_t(started_ns);
  context.shard = options.shard;
  context.journal = &journal;
  context.force = options.force;
  context.verify = options.verify;
  std::string cache_warning;
  std::unique_ptr<SharedCache> shared_cache =
      open_cache_for({options.cache_dir, options.no_cache, options.cache_limit}, setup.input,
                     output, cache_warning);
  if (!cache_warning.empty()) progress.warning(cache_warning);
  context.shared_cache = shared_cache.get();
  const PlanMemory plan_memory{
      &old_cache.planned, [&context](const std::string& path) { return context.file_hash(path); },
      &context.planned};
  context.textures = plan_textures(setup.input, setup.config, sources, &plan_memory);
  for (Source& s : sources) plan_outputs(context.textures, s);
  if (!setup.only.empty()) {
    totals.unsupported = 0;  // the walk of the root was for texture roles; none of it is skipped
    if (std::optional<std::string> glob = exclusion_above(setup.config, setup.only)) {
      // Nothing to bake; the outputs an earlier bake made of it go, as in a whole bake.
      progress.info(excluded_message(setup.only, *glob));
      sources.clear();
    } else if (BakeStatus s = select_only(setup.only, sources); !s) {
      print_message("error", s.message());
      return s.code == BakeError::Config ? 2 : 1;
    }
  }
  std::vector<std::string> taken = taken_outputs(sources);
  if (options.shard) keep_shard(*options.shard, sources, taken);
  uint64_t total_bytes = 0;
  for (const Source& s : sources) total_bytes += s.bytes;
  progress.set_total(sources.size(), total_bytes);
  std::vector<JobResult> results(sources.size());
  std::vector<size_t> to_run = claim_outputs(sources, taken, results, progress);
  // Behind an unreadable folder may be the textures a material names, or models that give an
  // image its role: a bake now could make wrong assets. Nothing runs; everything is kept.
  if (!walk.unreadable.empty()) to_run.clear();
  warn_case_collisions(sources, to_run, progress);
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned jobs = options.jobs ? options.jobs : cores;
  // Every job may compress blocks on all cores. A fixed share (cores / jobs) left cores idle at the
  // tail of a bake, when one large texture was still compressing on its share alone.
  context.threads_per_job = cores;
  const ClearedWay cleared =
      clear_the_way(output, sources, to_run, old_cache, context, totals, progress);
  longest_first(setup.input, sources, cores, to_run);
  const RunLimits limits{jobs, options.time_limit};
  bool abandoned = run_jobs(context, sources, to_run, limits, results, progress);
  if (!abandoned && !interrupt_signal() && setup.only.empty() && !options.shard &&
      walk.unreadable.empty()) {
    abandoned = rebake_models_naming_failed_images(context, sources, old_cache, output, limits,
                                                   results, progress);
  }

  finish_outputs(output, walk, results, old_cache, cleared, setup.only, context, totals, progress);
  if (shared_cache && shared_cache->counts().stored > 0) shared_cache->trim();
  progress.finish();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!options.quiet) {
    std::printf(
        "baked %zu, up to date %zu, failed %zu, removed %zu, skipped %zu unsupported files in "
        "%.2f s; %.1f MB read, %.1f MB written -> %s\n",
        totals.baked, totals.up_to_date, totals.failed, totals.removed, totals.unsupported, seconds,
        double(totals.bytes_in) / 1e6, double(totals.bytes_out) / 1e6,
        setup.output.string().c_str());
  }
  if (shared_cache) report_cache(*shared_cache, options.quiet);
  if (options.json_report)
    write_json_report(*options.json_report, totals, seconds, results, sources, progress);
  std::fflush(stdout);  // the totals line first, then the list, also when both go to one file
  std::fputs(failure_summary(progress.failures()).c_str(), stderr);
  const size_t warnings = progress.warning_count();
  const bool strict_failure = options.warnings_as_errors && warnings > 0;
  if (strict_failure) {
    std::fprintf(stderr, "%zu warning(s) treated as errors (--warnings-as-errors)\n", warnings);
  }
  if (int signal = interrupt_signal()) {
    std::fprintf(stderr,
                 "interrupted: %zu source(s) not started or stopped; the cache and manifest hold "
                 "what is done, run again to finish\n",
                 totals.not_run);
    if (!abandoned) return 128 + signal;
    // Sources still baking were abandoned: their threads still run; end without unwinding.
    std::fflush(nullptr);
    std::_Exit(128 + signal);
  }
  if (abandoned) {
    std::fprintf(
        stderr,
        "stopped at the time limit: %zu source(s) not baked; the cache and manifest hold what is "
        "done\n",
        totals.not_run);
    // The abandoned jobs' threads still run: end without unwinding what they use.
    std::fflush(nullptr);
    std::_Exit(1);
  }
  // Errors outside any source's bake (a folder the walk could not list, a report not written)
  // fail the run too.
  return totals.failed || !progress.failures().empty() || strict_failure ? 1 : 0;
}

}  // namespace baker
