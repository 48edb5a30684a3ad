#include "pipeline/shared_cache.h"

#include "common/file_descriptor.h"
#include "common/file_time.h"
#include "pipeline/file_copy.h"

#include <assetlib/asset_file.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <utility>

namespace baker {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kEntryFile = "entry.json";
// Marks the folders of writers in progress and of entries being removed ("<key>.tmp-...").
constexpr const char* kPendingMarker = ".tmp-";
// A pending folder older than this belongs to a writer that was killed.
constexpr int64_t kStalePendingNs = 3600'000'000'000;
// More outputs than this in one entry is not an entry the baker wrote.
constexpr size_t kMaxEntryOutputs = 1 << 20;

int open_folder(int dir, const std::string& name) {
  return ::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// Opens (creating) the folder `name` inside `dir`, never through a symlink.
int make_folder(int dir, const std::string& name) {
  if (::mkdirat(dir, name.c_str(), 0777) != 0 && errno != EEXIST) return -1;
  return open_folder(dir, name);
}

std::vector<std::string> folder_names(int dir) {
  std::vector<std::string> names;
  int listing_fd = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing_fd < 0) return names;
  if (DIR* listing = ::fdopendir(listing_fd)) {
    while (dirent* entry = ::readdir(listing)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    ::closedir(listing);
  } else {
    ::close(listing_fd);
  }
  return names;
}

// A name no other writer of this cache uses at once, also on another machine (pids repeat there).
std::string pending_name(const std::string& key) {
  static std::atomic<uint64_t> counter{0};
  static const uint32_t salt = std::random_device{}();
  char tail[64];
  std::snprintf(tail, sizeof tail, "%s%d-%u-%llu", kPendingMarker, int(::getpid()), salt,
                static_cast<unsigned long long>(counter.fetch_add(1)));
  return key + tail;
}

// Deletes the folder `name` in `dir` and the files in it. Entries hold no subfolders; anything
// else found there is left (and the folder with it) rather than followed.
void remove_folder(int dir, const std::string& name) {
  FileDescriptor folder(open_folder(dir, name));
  if (folder.get() < 0) return;
  for (const std::string& file : folder_names(folder.get())) {
    struct stat st {};
    if (::fstatat(folder.get(), file.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        !S_ISDIR(st.st_mode))
      ::unlinkat(folder.get(), file.c_str(), 0);
  }
  ::unlinkat(dir, name.c_str(), AT_REMOVEDIR);
}

// Removes the entry `key` of the bucket `bucket_fd`: renamed away first, so that no reader finds
// half of it while it is deleted. False when it could not be renamed (a read-only cache).
bool remove_entry(int bucket_fd, const std::string& key) {
  std::string away = pending_name(key);
  if (::renameat(bucket_fd, key.c_str(), bucket_fd, away.c_str()) != 0) return false;
  remove_folder(bucket_fd, away);
  return true;
}

bool write_new_file(int dir, const char* name, const std::string& text) {
  FileDescriptor file(
      ::openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (file.get() < 0) return false;
  bool written = write_all(file.get(), std::as_bytes(std::span(text)));
  return ::close(file.release()) == 0 && written;
}

bool is_key(std::string_view name) {
  return name.size() == 32 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// One entry folder as trim() sees it.
struct EntryUse {
  int64_t used_ns = 0;  // entry.json's modification time: when it was last written or restored
  uint64_t bytes = 0;
  std::string bucket, key;
};

// Sizes and last use of the entry folder `key`; removes pending folders of killed writers.
std::optional<EntryUse> measure_entry(int bucket_fd, const std::string& bucket,
                                      const std::string& name, int64_t now_ns) {
  struct stat st {};
  if (::fstatat(bucket_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
    return std::nullopt;
  if (name.find(kPendingMarker) != std::string::npos) {
    if (now_ns - modification_ns(st) > kStalePendingNs) remove_folder(bucket_fd, name);
    return std::nullopt;
  }
  if (!is_key(name)) return std::nullopt;
  FileDescriptor folder(open_folder(bucket_fd, name));
  if (folder.get() < 0) return std::nullopt;
  EntryUse use{0, 0, bucket, name};
  for (const std::string& file : folder_names(folder.get())) {
    struct stat f {};
    if (::fstatat(folder.get(), file.c_str(), &f, AT_SYMLINK_NOFOLLOW) != 0) continue;
    use.bytes += uint64_t(f.st_size);
    if (file == kEntryFile) use.used_ns = modification_ns(f);
  }
  return use;
}

}  // namespace

SharedCache::~SharedCache() {
  if (layout_fd_ >= 0) ::close(layout_fd_);
}

BakeStatus SharedCache::open(const fs::path& dir, uint64_t limit,
                             std::unique_ptr<SharedCache>& out) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  FileDescriptor root(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) {
    return BakeStatus::failure(BakeError::IoError, dir.string(),
                               io_reason("opening the cache folder", errno));
  }
  auto cache = std::make_unique<SharedCache>();
  std::string layout = "v";
  layout += std::to_string(kSharedCacheLayout);
  cache->layout_fd_ = make_folder(root.get(), layout);
  if (cache->layout_fd_ < 0) {
    // Named itself: a symlink planted there (never followed) is that folder's fault, not dir's.
    return BakeStatus::failure(BakeError::IoError, (dir / layout).string(),
                               io_reason("opening the cache's layout folder", errno));
  }
  cache->root_ = dir;
  cache->limit_ = limit;
  out = std::move(cache);
  return {};
}

std::string SharedCache::key(const std::string& relative, AssetKind kind,
                             const std::string& settings_key, const std::string& source_hash) {
  // Each field with its length: no file name can make two different sets of fields read alike.
  std::string text = "assetlib shared cache\n";
  auto field = [&text](const char* name, std::string_view value) {
    text += name;
    text += ' ';
    text += std::to_string(value.size());
    text += ':';
    text += value;
    text += '\n';
  };
  field("layout", std::to_string(kSharedCacheLayout));
  field("baker", std::to_string(kBakerVersion));
  field("format", std::to_string(assetlib::kFormatVersion));
  field("source", relative);
  field("kind", kind_name(kind));
  field("settings", settings_key);
  field("source_hash", source_hash);
  XXH128_hash_t hash = XXH3_128bits(text.data(), text.size());
  char hex[40];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                static_cast<unsigned long long>(hash.low64));
  return hex;
}

int SharedCache::bucket(const std::string& key, bool create) const {
  std::string name = key.substr(0, 2);
  return create ? make_folder(layout_fd_, name) : open_folder(layout_fd_, name);
}

void SharedCache::forget(int bucket_fd, const std::string& key) const {
  if (remove_entry(bucket_fd, key)) count(CacheEvent::Damaged);
}

std::optional<CacheEntry> SharedCache::find(const std::string& key,
                                            const std::string& source) const {
  FileDescriptor bucket_fd(bucket(key, false));
  FileDescriptor entry_fd(bucket_fd.get() < 0 ? -1 : open_folder(bucket_fd.get(), key));
  if (entry_fd.get() < 0) return std::nullopt;
  std::optional<std::string> text =
      read_small_file(entry_fd.get(), kEntryFile, kMaxCacheEntryBytes);
  json doc = text ? json::parse(*text, nullptr, false) : json();
  std::optional<CacheEntry> entry;
  try {
    if (doc.is_object() && doc.at("layout").get<uint32_t>() == kSharedCacheLayout &&
        doc.at("baker_version").get<uint32_t>() == kBakerVersion &&
        doc.at("key").get<std::string>() == key && doc.at("source").get<std::string>() == source) {
      entry = cache_entry_from_json(doc.at("entry"));
    }
  } catch (const json::exception&) {
    entry.reset();
  }
  if (entry && (entry->outputs.size() > kMaxEntryOutputs || !trustworthy_entry(source, *entry)))
    entry.reset();
  // A folder without a readable entry.json is a writer's that has not finished only under its
  // pending name: under the key it is damaged.
  if (!entry) forget(bucket_fd.get(), key);
  return entry;
}

BakeStatus SharedCache::restore(const std::string& key, const CacheEntry& entry,
                                const OutputTree& output, std::vector<StagedFile>& staged) const {
  FileDescriptor bucket_fd(bucket(key, false));
  FileDescriptor entry_fd(bucket_fd.get() < 0 ? -1 : open_folder(bucket_fd.get(), key));
  if (entry_fd.get() < 0)
    return BakeStatus::failure(BakeError::IoError, (root_ / key).string(), "gone");
  staged.clear();
  staged.resize(entry.outputs.size());
  for (size_t i = 0; i < entry.outputs.size(); ++i) {
    const OutputRecord& o = entry.outputs[i];
    std::string object = std::to_string(i);
    struct stat st {};
    if (::fstatat(entry_fd.get(), object.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode) || uint64_t(st.st_size) != o.size) {
      forget(bucket_fd.get(), key);
      return BakeStatus::failure(BakeError::InvalidAsset, (root_ / key / object).string(),
                                 "missing, or not the size the entry records");
    }
    BakeStatus s =
        output.stage_from(o.path, entry_fd.get(), object, true, o.size, o.hash, staged[i]);
    if (!s) {
      if (s.code == BakeError::InvalidAsset) forget(bucket_fd.get(), key);
      return s;
    }
  }
  // The entry's last use, for trim(): entry.json is never linked into an output folder, so this
  // changes no output's time.
  ::utimensat(entry_fd.get(), kEntryFile, nullptr, AT_SYMLINK_NOFOLLOW);
  return {};
}

BakeStatus SharedCache::store(const std::string& key, const std::string& source,
                              const CacheEntry& entry, const OutputTree& output,
                              bool replace) const {
  std::string where = (root_ / key).string();
  FileDescriptor bucket_fd(bucket(key, true));
  if (bucket_fd.get() < 0)
    return BakeStatus::failure(BakeError::IoError, where, io_reason("creating its folder", errno));
  struct stat st {};
  if (::fstatat(bucket_fd.get(), key.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(st.st_mode)) {
      // A symlink planted at the key is no entry (find never follows it): it goes.
      if (::unlinkat(bucket_fd.get(), key.c_str(), 0) == 0) count(CacheEvent::Damaged);
    } else if (!replace) {
      return {};
    } else {
      remove_entry(bucket_fd.get(), key);
    }
  }
  std::string pending = pending_name(key);
  FileDescriptor folder(make_folder(bucket_fd.get(), pending));
  if (folder.get() < 0)
    return BakeStatus::failure(BakeError::IoError, where, io_reason("creating it", errno));
  auto fail = [&](const char* what, int err) {
    remove_folder(bucket_fd.get(), pending);
    return BakeStatus::failure(BakeError::IoError, where, io_reason(what, err));
  };
  CacheEntry stored = entry;
  for (size_t i = 0; i < stored.outputs.size(); ++i) {
    stored.outputs[i].mtime_ns = 0;  // a time of this output folder, not of the entry
    std::string leaf;
    FileDescriptor from(output.open_folder_of(stored.outputs[i].path, leaf));
    if (from.get() < 0) return fail("opening an output", errno);
    if (int err = link_or_copy(from.get(), leaf, folder.get(), std::to_string(i), true))
      return fail("copying an output", err);
  }
  json doc = {{"layout", kSharedCacheLayout},
              {"baker_version", kBakerVersion},
              {"key", key},
              {"source", source},
              {"entry", cache_entry_to_json(stored)}};
  std::string text = doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
  if (!write_new_file(folder.get(), kEntryFile, text)) return fail("writing entry.json", errno);
  if (::renameat(bucket_fd.get(), pending.c_str(), bucket_fd.get(), key.c_str()) != 0) {
    int err = errno;
    if (err == EEXIST || err == ENOTEMPTY) {  // another writer was first: its entry is as good
      remove_folder(bucket_fd.get(), pending);
      return {};
    }
    return fail("renaming it into place", err);
  }
  count(CacheEvent::Stored);
  return {};
}

uint64_t SharedCache::trim() const {
  int64_t now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  std::vector<EntryUse> entries;
  uint64_t total = 0;
  for (const std::string& bucket_name : folder_names(layout_fd_)) {
    if (bucket_name.size() != 2) continue;
    FileDescriptor bucket_fd(open_folder(layout_fd_, bucket_name));
    if (bucket_fd.get() < 0) continue;
    for (const std::string& name : folder_names(bucket_fd.get())) {
      if (std::optional<EntryUse> use = measure_entry(bucket_fd.get(), bucket_name, name, now_ns)) {
        total += use->bytes;
        entries.push_back(std::move(*use));
      }
    }
  }
  if (limit_ == 0 || total <= limit_) return total;
  std::sort(entries.begin(), entries.end(), [](const EntryUse& a, const EntryUse& b) {
    return std::tie(a.used_ns, a.bucket, a.key) < std::tie(b.used_ns, b.bucket, b.key);
  });
  const uint64_t target = limit_ / 10 * 9;
  for (const EntryUse& e : entries) {
    if (total <= target) break;
    FileDescriptor bucket_fd(open_folder(layout_fd_, e.bucket));
    if (bucket_fd.get() < 0) continue;
    if (remove_entry(bucket_fd.get(), e.key)) total -= std::min(total, e.bytes);
  }
  return total;
}

void SharedCache::count(CacheEvent event) const {
  switch (event) {
    case CacheEvent::Hit: ++hits_; break;
    case CacheEvent::Miss: ++misses_; break;
    case CacheEvent::Stored: ++stored_; break;
    case CacheEvent::Damaged: ++damaged_; break;
    case CacheEvent::StoreFailed: ++store_failures_; break;
  }
}

void SharedCache::store_failed(const BakeStatus& why) const {
  count(CacheEvent::StoreFailed);
  std::lock_guard lock(mutex_);
  if (first_failure_.empty()) first_failure_ = why.message();
}

std::string SharedCache::first_store_failure() const {
  std::lock_guard lock(mutex_);
  return first_failure_;
}

SharedCacheCounts SharedCache::counts() const {
  return {hits_.load(), misses_.load(), stored_.load(), damaged_.load(), store_failures_.load()};
}

}  // namespace baker
