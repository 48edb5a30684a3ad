#include "cli/commands.h"

#include "common/terminal_text.h"
#include "pipeline/bake_folders.h"
#include "pipeline/bake_job.h"
#include "pipeline/bake_tree.h"
#include "pipeline/output_index.h"
#include "pipeline/output_lock.h"
#include "pipeline/source_record.h"

#include <chrono>
#include <cstdio>
#include <set>

namespace baker {
namespace {

namespace fs = std::filesystem;

// The entry of `source` now: its record when a bake-one run wrote one since the index was last
// written (`previous`), else the previous entry. nullopt when it has none (never baked, or failed).
// A record that is there but cannot be read sets `unreadable_record` and gives the previous entry.
// The stamps of a record read join `next`, with its run's start.
std::optional<CacheEntry> current_entry(const OutputTree& output, const BakeCache& previous,
                                        const std::string& source, BakeCache& next,
                                        bool& unreadable_record) {
  unreadable_record = false;
  auto old = previous.entries.find(source);
  auto previous_entry = [&]() -> std::optional<CacheEntry> {
    if (old == previous.entries.end()) return std::nullopt;
    return old->second;
  };
  std::optional<FileStat> stat = output.file_stat(record_path(source));
  // A record older than the index was folded into it already: its entry is there (or a whole
  // bake replaced it since, and that is the newer truth). Judged against when the index was
  // written, not against its stamps' earliest start, which stays with the first bake-one run.
  bool folded = stat && stat->mtime_ns < previous.indexed_ns - kRacyWindowNs;
  if (!stat || (folded && old != previous.entries.end())) return previous_entry();
  std::optional<SourceRecord> record = read_record(output, source);
  if (!record) {
    unreadable_record = true;
    return previous_entry();
  }
  for (auto& [path, stamp] : record->stamps) next.stamps[path] = stamp;
  keep_earliest_start(next, record->run_started_ns);
  if (!record->failed) return record->entry;
  if (record->keep_previous) return previous_entry();
  return std::nullopt;
}

// True when none of `entry`'s outputs is claimed in `claimed` yet; then claims them for `source`.
bool claim(std::map<std::string, std::string>& claimed, const std::string& source,
           const CacheEntry& entry) {
  for (const OutputRecord& o : entry.outputs) {
    if (claimed.count(o.path)) return false;
  }
  for (const OutputRecord& o : entry.outputs) claimed[o.path] = source;
  return true;
}

}  // namespace

int run_collect(const CollectOptions& options) {
  auto started_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  fs::path root, out;
  OutputTree output;
  OutputLock lock;
  BakeConfig config;
  BakeStatus ready = resolve_root(options.root, root);
  if (ready) ready = load_bake_config(root, options.config, options.preset, config);
  if (ready) ready = resolve_output(root, options.output, out);
  if (ready) ready = OutputTree::open(out, output);
  if (ready) ready = lock.acquire(output);
  if (ready) ready = check_manifest_replaceable(output);
  if (!ready) {
    print_message("error", ready.message());
    return 2;
  }
  output.sweep_leftovers();
  ProgressReport progress(0, options.quiet, false);
  SourceWalk walk = scan_sources(root, out, config, progress);
  const std::vector<Source>& sources = walk.sources;
  BakeCache previous = load_cache(output);
  BakeCache next;
  // Every stamp was taken by an earlier run (bake-one's, or the one that wrote `previous`): the
  // index is judged against the earliest of their starts, not this run's.
  next.run_started_ns = next.indexed_ns = int64_t(started_ns);
  next.stamps = previous.stamps;
  keep_earliest_start(next, previous.run_started_ns);
  std::map<std::string, std::string> claimed;
  size_t left_out = 0;
  size_t never_baked = 0;
  for (const Source& s : sources) {
    bool unreadable_record = false;
    std::optional<CacheEntry> entry =
        current_entry(output, previous, s.relative, next, unreadable_record);
    if (unreadable_record) {
      // A damaged record (an interrupted copy of the folder, an edit): what it said is lost, so
      // the source counts as left out; its previous entry stays listed while its outputs hold.
      progress.warning(s.relative + ": its bake-one record " + record_path(s.relative) +
                       " cannot be read; left out of the manifest (bake it again)");
      ++left_out;
      if (!entry) continue;
    }
    if (!entry && !previous.entries.count(s.relative) &&
        !output.file_stat(record_path(s.relative))) {
      // Not failed (that leaves a record): never baked into this folder. A build system whose
      // stamps say otherwise lost the folder; the manifest cannot be complete.
      if (never_baked++ == 0)
        progress.warning(s.relative + ": never baked into " + out.string() +
                         " (a deleted output folder? clean the build's stamps and build again)");
      continue;
    }
    if (!entry) continue;
    if (!outputs_hold(output, previous, *entry) || !claim(claimed, s.relative, *entry)) {
      progress.warning(s.relative +
                       ": its outputs are missing, changed or claimed by another source; left "
                       "out of the manifest (bake it again)");
      ++left_out;
      continue;
    }
    next.entries[s.relative] = std::move(*entry);
  }
  // Sources an unreadable folder hides keep their entries: nothing says they are gone.
  for (const auto& [source, entry] : previous.entries) {
    if (walk.unknown(source)) next.entries.emplace(source, entry);
  }
  const std::vector<std::string> unheld_textures = unheld_texture_warnings(next);
  for (const std::string& w : unheld_textures) progress.warning(w);
  size_t removed = 0;
  std::vector<std::string> kept;
  if (BakeStatus s = write_index(output, previous, next, removed, kept); !s) {
    print_message("error", s.message());
    return 1;
  }
  for (const std::string& path : kept) progress.warning(kept_output_warning(path));
  std::string cache_warning;
  std::unique_ptr<SharedCache> cache = open_cache_for(
      {options.cache_dir, options.no_cache, options.cache_limit}, root, output, cache_warning);
  if (cache) cache->trim();
  if (!options.quiet) {
    size_t assets = 0;
    for (const auto& [source, entry] : next.entries) assets += entry.outputs.size();
    std::printf("collected %zu of %zu sources, %zu assets, removed %zu -> %s\n",
                next.entries.size(), sources.size(), assets, removed, out.string().c_str());
  }
  if (never_baked > 1)
    progress.warning(std::to_string(never_baked) + " sources in all were never baked here");
  return left_out || never_baked || !unheld_textures.empty() || !walk.unreadable.empty() ? 1 : 0;
}

}  // namespace baker
