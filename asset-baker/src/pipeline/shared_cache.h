// The shared bake cache (`--cache-dir`): the outputs of a source's bake, stored under the key of
// everything that determines them, so that a bake another output folder, machine or CI runner
// already did is copied (or hard-linked) instead of encoded. The layout and the key are in
// docs/format.md ("Shared bake cache").
//
// The folder may be a network share that many bakers use at once, and it is trusted no more than
// an output folder:
//   - every name the baker opens in it is one it computed (hex keys, output indices), opened from
//     the cache's descriptor one folder at a time with O_NOFOLLOW: nothing in an entry can make
//     the baker read or write outside the cache folder and the output folder;
//   - an entry is a folder written under a temporary name and renamed into place whole, so readers
//     see all of it or none; two writers of one key both write a complete entry, and the loser's
//     rename fails harmlessly;
//   - what an entry says is checked before use (its key, source and baker version, every output
//     path one the source owns) and every file it restores is checked against its recorded size
//     and content hash as it arrives; a damaged or partial entry is removed and baked again;
//   - trim() keeps the folder under its size limit by removing the least recently used entries.
#pragma once

#include "common/asset_kinds.h"
#include "common/bake_status.h"
#include "pipeline/bake_cache.h"
#include "pipeline/output_tree.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace baker {

// The environment variable naming the cache a bake uses when no --cache-dir is given (as CCACHE_DIR
// does for ccache). Without either, a bake uses no cache: the baker reads and writes nothing
// outside the input and output folders unless told to, and an output folder holds what one bake of
// its input makes, byte for byte, whatever bakes came before.
inline constexpr const char* kCacheDirVariable = "ASSETLIB_CACHE_DIR";
// The size limit by default (--cache-size).
inline constexpr uint64_t kDefaultCacheLimit = 10ull << 30;
// The layout version: the name of the folder the entries live in ("v1").
inline constexpr uint32_t kSharedCacheLayout = 1;
// An entry.json larger than this is not one the baker wrote (it is treated as damaged).
inline constexpr uint64_t kMaxCacheEntryBytes = 16ull << 20;

enum class CacheEvent { Hit, Miss, Stored, Damaged, StoreFailed };

struct SharedCacheCounts {
  uint64_t hits = 0, misses = 0, stored = 0, damaged = 0, store_failures = 0;
};

class SharedCache {
 public:
  SharedCache() = default;
  SharedCache(const SharedCache&) = delete;
  SharedCache& operator=(const SharedCache&) = delete;
  ~SharedCache();

  // Opens the cache folder `dir` (a folder the user named: it may be a symlink), creating it.
  // `limit` is the size trim() keeps it under (0: no limit).
  static BakeStatus open(const std::filesystem::path& dir, uint64_t limit,
                         std::unique_ptr<SharedCache>& out);

  const std::filesystem::path& root() const { return root_; }

  // The key of a source's outputs: its root-relative path (names inside the outputs follow from
  // it), kind, effective settings (for an image also its roles), content hash, the baker's
  // version and the format version: 32 hex digits of XXH3-128. The files its bake reads besides
  // the source (an .mtl, a .bin) are not known before it runs; the entry records them and the
  // caller checks them (one entry per key: a source baked against another .mtl replaces it).
  static std::string key(const std::string& relative, AssetKind kind,
                         const std::string& settings_key, const std::string& source_hash);

  // The entry stored under `key`, when there is one that a bake of `source` could have written
  // (its key, source and baker version match; trustworthy_entry). nullopt otherwise, also for a
  // damaged entry.json (the entry is then removed).
  std::optional<CacheEntry> find(const std::string& key, const std::string& source) const;

  // Stages every output of `entry` (found under `key`) into `output`, each verified against its
  // recorded size and hash (OutputTree::stage_from); marks the entry as just used. A file missing
  // or different in the cache removes the entry (CacheEvent::Damaged) and fails; so does any
  // failure to write the output folder. Nothing is published: the caller does, all or none.
  BakeStatus restore(const std::string& key, const CacheEntry& entry, const OutputTree& output,
                     std::vector<StagedFile>& staged) const;

  // Stores the outputs of `entry`, just written into `output` by a bake of `source`, under
  // `key`: hard links (copies across file systems) in a new folder, renamed into place. An entry
  // already there (another writer was first) is kept, unless `replace`: the caller found it stale
  // (made from another .mtl or .bin, or claiming other outputs), and the new entry takes its place.
  BakeStatus store(const std::string& key, const std::string& source, const CacheEntry& entry,
                   const OutputTree& output, bool replace) const;

  // Removes least recently used entries until the cache holds at most 90% of its limit (when it
  // holds more than the limit), and the leftovers of writers killed over an hour ago. Every byte
  // of an entry's files counts, also when they are hard links of outputs. Returns the bytes left.
  uint64_t trim() const;

  void count(CacheEvent event) const;
  // Counts a failed store and keeps the first reason, for the bake's summary.
  void store_failed(const BakeStatus& why) const;
  SharedCacheCounts counts() const;
  std::string first_store_failure() const;

 private:
  int bucket(const std::string& key, bool create) const;  // the folder of `key`, -1 if none
  void forget(int bucket_fd, const std::string& key) const;

  std::filesystem::path root_;
  int layout_fd_ = -1;  // <root>/v1
  uint64_t limit_ = 0;
  mutable std::atomic<uint64_t> hits_{0}, misses_{0}, stored_{0}, damaged_{0}, store_failures_{0};
  mutable std::mutex mutex_;  // guards first_failure_
  mutable std::string first_failure_;
};

}  // namespace baker
