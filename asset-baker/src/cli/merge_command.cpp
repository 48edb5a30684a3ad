#include "cli/commands.h"

#include "common/terminal_text.h"
#include "pipeline/bake_folders.h"
#include "pipeline/output_index.h"
#include "pipeline/output_lock.h"
#include "pipeline/shared_cache.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

namespace baker {
namespace {

namespace fs = std::filesystem;

bool same_outputs(const CacheEntry& a, const CacheEntry& b) {
  if (a.outputs.size() != b.outputs.size()) return false;
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    if (a.outputs[i].path != b.outputs[i].path || a.outputs[i].hash != b.outputs[i].hash)
      return false;
  }
  return true;
}

// Copies (or links) every output of `entry` from `shard` into `output`, each verified against
// its recorded size and hash, and publishes them all or none. A file already there with the same
// hash (a merge run again) is kept; a user's file at an output path fails the entry
// (OutputTree::replaceable).
BakeStatus copy_entry(const OutputTree& shard, const OutputTree& output, CacheEntry& entry) {
  std::vector<StagedFile> staged(entry.outputs.size());
  std::vector<bool> present(entry.outputs.size(), false);
  for (size_t i = 0; i < entry.outputs.size(); ++i) {
    const OutputRecord& o = entry.outputs[i];
    present[i] = output.file_hash(o.path) == o.hash;
    if (present[i]) continue;
    std::string leaf;
    int folder = shard.open_folder_of(o.path, leaf);
    if (folder < 0) {
      return BakeStatus::failure(BakeError::UnreadableSource, (shard.root() / o.path).string(),
                                 "missing from its shard");
    }
    BakeStatus s = output.stage_from(o.path, folder, leaf, true, o.size, o.hash, staged[i]);
    ::close(folder);
    if (!s) return s;
  }
  for (size_t i = 0; i < entry.outputs.size(); ++i) {
    if (!present[i]) {
      if (BakeStatus s = output.replaceable(staged[i]); !s) return s;
    }
  }
  for (size_t i = 0; i < entry.outputs.size(); ++i) {
    if (!present[i]) {
      if (BakeStatus s = output.publish(staged[i]); !s) return s;
    }
    if (std::optional<FileStat> now = output.file_stat(entry.outputs[i].path))
      entry.outputs[i].mtime_ns = now->mtime_ns;
  }
  return {};
}

// What the shards say of themselves: which K of which N, and the texture plan each was baked
// against (by digest, with the first shard that had it).
struct ShardSet {
  std::map<uint32_t, std::set<uint32_t>> given;  // N -> the K given (0-based)
  std::map<uint64_t, fs::path> plans;
};

// One shard folder and its cache, read once; `unreadable` says why it cannot be merged.
struct OpenedShard {
  fs::path dir;
  OutputTree tree;
  BakeCache cache;
  std::string unreadable;
};

OpenedShard open_shard(const fs::path& dir) {
  OpenedShard s{dir, {}, {}, {}};
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || !OutputTree::open(dir, s.tree) ||
      !s.tree.file_stat(kCacheFileName)) {
    s.unreadable = dir.string() + ": not a baked folder (no " + kCacheFileName + ")";
    return s;
  }
  std::string damaged;
  s.cache = load_cache(s.tree, &damaged);
  if (!damaged.empty())
    s.unreadable = (dir / kCacheFileName).string() + ": " + damaged + "; this shard is not merged";
  return s;
}

// Merges one shard's entries into `next`; each problem is printed and counted in `problems`. What
// the shard says of itself goes into `shards`.
void merge_shard(const OpenedShard& opened, const OutputTree& output, BakeCache& next,
                 std::map<std::string, std::string>& claimed, ShardSet& shards, size_t& problems) {
  auto problem = [&problems](const std::string& message) {
    print_message("error", message);
    ++problems;
  };
  if (!opened.unreadable.empty()) {
    problem(opened.unreadable);
    return;
  }
  const fs::path& dir = opened.dir;
  const OutputTree& shard = opened.tree;
  const BakeCache& cache = opened.cache;
  if (cache.shard) shards.given[cache.shard->count].insert(cache.shard->index);
  if (cache.shard_plan) shards.plans.emplace(*cache.shard_plan, dir);
  for (const auto& [shard_source, shard_entry] : cache.entries) {
    const std::string& source = shard_source;  // clang 14 cannot capture a structured binding
    CacheEntry entry = shard_entry;
    if (auto known = next.entries.find(source); known != next.entries.end()) {
      if (!same_outputs(known->second, entry))
        problem(source + ": baked differently in two shards (" + dir.string() + ")");
      continue;
    }
    bool free = std::all_of(entry.outputs.begin(), entry.outputs.end(), [&](const OutputRecord& o) {
      auto owner = claimed.find(o.path);
      return owner == claimed.end() || owner->second == source;
    });
    if (!free) {
      problem(source + ": an output of it is also another shard's source's (" + dir.string() + ")");
      continue;
    }
    if (BakeStatus s = copy_entry(shard, output, entry); !s) {
      problem(s.message());
      continue;
    }
    for (const OutputRecord& o : entry.outputs) claimed[o.path] = source;
    next.entries[source] = std::move(entry);
  }
  for (const auto& [path, stamp] : cache.stamps) next.stamps.emplace(path, stamp);
  keep_earliest_start(next, cache.run_started_ns);
}

// After a merge with problems (a shard missing or damaged, an output that could not be copied):
// the previous entries of the sources it did not merge stay in `next`, their outputs listed and
// not deleted, unless another source took an output of theirs. A merge without problems then
// removes what is gone. Returns how many were kept.
size_t keep_unmerged(const BakeCache& previous, BakeCache& next,
                     std::map<std::string, std::string>& claimed) {
  size_t kept = 0;
  for (const auto& [previous_source, entry] : previous.entries) {
    const std::string& source = previous_source;  // clang 14 cannot capture a structured binding
    if (next.entries.count(source)) continue;
    bool free = std::none_of(entry.outputs.begin(), entry.outputs.end(),
                             [&](const OutputRecord& o) { return claimed.count(o.path) > 0; });
    if (!free) continue;
    for (const OutputRecord& o : entry.outputs) claimed[o.path] = source;
    next.entries[source] = entry;
    ++kept;
  }
  for (const auto& [path, stamp] : previous.stamps) next.stamps.emplace(path, stamp);
  keep_earliest_start(next, previous.run_started_ns);
  return kept;
}

// Shards of one bake come as the set 1/N..N/N: a folder of another N, or a missing K, makes the
// merge incomplete (a glob that missed a CI artifact), and a merge without problems would remove
// the outputs of the sources that shard bakes. Folders of whole bakes say nothing and are free.
// Every shard plans the whole tree with its configuration: two plans mean two states of them (an
// .mtl or baker.json edited between the CI jobs, another --config or --preset), whose materials
// may name textures the other shards never made, or whose assets another bake would not make.
void check_shard_set(const ShardSet& set, size_t& problems) {
  if (set.plans.size() > 1) {
    auto first = set.plans.begin(), second = std::next(first);
    print_message("error",
                  "the shards were baked from different states of the tree or its configuration "
                  "(their texture plans or settings differ: " +
                      first->second.string() + ", " + second->second.string() +
                      "); bake them again from one");
    ++problems;
  }
  const std::map<uint32_t, std::set<uint32_t>>& shards = set.given;
  if (shards.size() > 1) {
    print_message("error", "the shards come from bakes split " + std::to_string(shards.size()) +
                               " different ways (--shard K/N with different N); merge one set");
    ++problems;
    return;
  }
  for (const auto& [count, present] : shards) {
    std::string missing;
    size_t absent = 0;
    for (uint32_t k = 0; k < count; ++k) {
      if (present.count(k)) continue;
      if (absent++ < 8) missing += (missing.empty() ? "" : ", ") + std::to_string(k + 1);
    }
    if (absent == 0) continue;
    print_message("error", std::to_string(absent) + " of the " + std::to_string(count) +
                               " shards are not given or could not be read (" + missing +
                               (absent > 8 ? ", ..." : "") + " of " + std::to_string(count) +
                               "); nothing of theirs is removed");
    ++problems;
  }
}

// The first source the shards baked that `output` holds as a file, or "": a merged folder is an
// output folder, and one holding the sources (`-o` naming the source folder) would get assets and
// a manifest written among them.
std::string source_held(const OutputTree& output, const std::vector<OpenedShard>& shards) {
  for (const OpenedShard& shard : shards) {
    for (const auto& [source, entry] : shard.cache.entries) {
      if (output.file_stat(source)) return source;
    }
  }
  return {};
}

// A folder that exists, holds something, and is no baked folder (no cache of the baker's): a
// project folder around the sources (whose names, relative to another root, source_held cannot
// see), or anyone's. A merge writes there and sweeps its temporaries: it takes a folder of its own.
bool holds_other_files(const fs::path& target) {
  std::error_code ec;
  if (!fs::is_directory(target, ec) || fs::is_empty(target, ec)) return false;
  return !fs::exists(fs::symlink_status(target / kCacheFileName, ec));
}

}  // namespace

int run_merge(const std::vector<fs::path>& shards, const fs::path& out, bool quiet) {
  auto start = std::chrono::steady_clock::now();
  OutputTree output;
  OutputLock lock;
  fs::path target = resolved(out);
  // Nested folders would mix the merged outputs with a shard's: the next merge of that shard would
  // see them, or the merge would sweep the shard's files as its own.
  for (const fs::path& shard : shards) {
    const fs::path folder = resolved(shard);
    if (folder_within(target, folder) || folder_within(folder, target)) {
      std::fprintf(stderr,
                   "error: %s: the merged folder must not be one of the shards, inside one or "
                   "around one\n",
                   terminal_text(target.string()).c_str());
      return 2;
    }
  }
  if (holds_other_files(target)) {
    std::fprintf(stderr,
                 "error: %s: holds files, and no bake or merge wrote it: merge into a folder of "
                 "its own\n",
                 terminal_text(target.string()).c_str());
    return 2;
  }
  std::vector<OpenedShard> opened;
  for (const fs::path& shard : shards) opened.push_back(open_shard(shard));
  BakeStatus ready = OutputTree::open(target, output);
  if (ready) {
    // Before the lock, whose file would be the first thing written among the sources.
    if (std::string source = source_held(output, opened); !source.empty()) {
      std::fprintf(stderr,
                   "error: %s: holds %s, a source the shards baked: merge into an output folder of "
                   "its own, not the sources\n",
                   terminal_text(target.string()).c_str(), terminal_text(source).c_str());
      return 2;
    }
    ready = lock.acquire(output);
  }
  if (ready) ready = check_manifest_replaceable(output);
  if (!ready) {
    print_message("error", ready.message());
    return 2;
  }
  output.sweep_leftovers();
  BakeCache previous = load_cache(output);
  BakeCache next;
  next.indexed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  std::map<std::string, std::string> claimed;
  size_t problems = 0;
  ShardSet shard_set;
  // An earlier bake's outputs where the shards' go (a deleted a.png's a.tx, where a.tx/b.tx goes)
  // are removed first, as a whole bake does; no kept entry may list them after.
  size_t removed = 0;
  std::vector<std::string> kept_outputs;
  std::set<std::string> incoming;
  for (const OpenedShard& shard : opened) {
    for (const auto& [source, entry] : shard.cache.entries)
      for (const OutputRecord& o : entry.outputs) incoming.insert(o.path);
  }
  for (const std::string& path :
       clear_way_for_files(output, previous, incoming, removed, kept_outputs))
    claimed.emplace(path, "");
  for (const OpenedShard& shard : opened)
    merge_shard(shard, output, next, claimed, shard_set, problems);
  check_shard_set(shard_set, problems);
  const size_t kept = problems > 0 ? keep_unmerged(previous, next, claimed) : 0;
  if (BakeStatus s = write_index(output, previous, next, removed, kept_outputs); !s) {
    print_message("error", s.message());
    return 1;
  }
  for (const std::string& path : kept_outputs) print_message("warning", kept_output_warning(path));
  const std::vector<std::string> unheld_textures = unheld_texture_warnings(next);
  for (const std::string& w : unheld_textures) print_message("warning", w);
  if (!quiet) {
    size_t assets = 0;
    for (const auto& [source, entry] : next.entries) assets += entry.outputs.size();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "merged %zu sources (%zu assets) from %zu shards in %.2f s, kept %zu from before "
        "(problems), removed %zu -> %s\n",
        next.entries.size() - kept, assets, shards.size(), seconds, kept, removed,
        target.string().c_str());
  }
  return problems || !unheld_textures.empty() ? 1 : 0;
}

}  // namespace baker
