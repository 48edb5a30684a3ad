#include "pipeline/listed_assets.h"

#include "common/content_hash.h"
#include "common/file_descriptor.h"
#include "common/regular_file.h"
#include "pipeline/unpack_check.h"

#include <assetlib/limits.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>

namespace baker {
namespace {

// The largest file an asset can be: the header, JSON up to assetlib's limit and a blob whose length
// fits the header's u32.
constexpr uint64_t kMaxAssetFileSize = 16 + assetlib::kMaxJsonSize + UINT32_MAX;

// Why the file at `relative` is not a regular file inside the folder (read_bytes says only that it
// is not): a symlink, at the file or on the way, or what else stands there.
std::string not_regular_reason(const OutputTree& baked, const std::string& relative) {
  std::string leaf;
  FileDescriptor dir(baked.open_folder_of(relative, leaf));
  if (dir.get() < 0) return "a symlink or a file on the way to it (not followed)";
  struct stat st {};
  if (::fstatat(dir.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
    return "not a regular file";
  if (S_ISLNK(st.st_mode)) return "a symlink (not followed)";
  static constexpr std::pair<mode_t, const char*> kKinds[] = {{S_IFDIR, "a folder"},
                                                              {S_IFIFO, "a FIFO"},
                                                              {S_IFCHR, "a character device"},
                                                              {S_IFBLK, "a block device"},
                                                              {S_IFSOCK, "a socket"}};
  for (const auto& [type, name] : kKinds) {
    if ((st.st_mode & S_IFMT) == type) return std::string("not a regular file (") + name + ")";
  }
  return "not a regular file";
}

BakeStatus invalid(const OutputTree& baked, const std::string& relative, std::string reason) {
  return BakeStatus::failure(BakeError::InvalidAsset, (baked.root() / relative).string(),
                             std::move(reason));
}

}  // namespace

BakeStatus read_baked_manifest(const OutputTree& baked, assetlib::Manifest& out) {
  const std::string path = (baked.root() / "manifest.json").string();
  std::vector<std::byte> bytes;
  ReadResult r = baked.read_bytes("manifest.json", assetlib::kMaxManifestSize, bytes);
  if (r == ReadResult::NotRegular)
    return invalid(baked, "manifest.json", not_regular_reason(baked, "manifest.json"));
  if (r != ReadResult::Ok)
    return invalid(baked, "manifest.json", read_result_reason(r, assetlib::kMaxManifestSize));
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (assetlib::Status s = assetlib::read_manifest(text, out, path); !s)
    return BakeStatus::from_file_call(s, BakeError::InvalidAsset, path);
  return {};
}

BakeStatus read_listed_asset(const OutputTree& baked, const assetlib::ManifestEntry& entry,
                             std::vector<std::byte>& bytes, assetlib::AssetView& view) {
  const std::string path = (baked.root() / entry.path).string();
  // Never more than an asset file can hold, whatever the manifest says: the whole file is read.
  ReadResult r = baked.read_bytes(entry.path, std::min(entry.file_size, kMaxAssetFileSize), bytes);
  if (r == ReadResult::NotRegular)
    return invalid(baked, entry.path, not_regular_reason(baked, entry.path));
  if (r == ReadResult::NotFound) return invalid(baked, entry.path, "missing");
  if (entry.file_size > kMaxAssetFileSize) {
    return invalid(baked, entry.path,
                   "the manifest lists it at " + std::to_string(entry.file_size) +
                       " bytes, more than an asset file holds (16 + 4 MiB + 4 GiB)");
  }
  if (r == ReadResult::TooLarge || (r == ReadResult::Ok && bytes.size() != entry.file_size)) {
    return invalid(
        baked, entry.path,
        "size differs from the manifest (" + std::to_string(entry.file_size) + " bytes)");
  }
  if (r != ReadResult::Ok)
    return BakeStatus::failure(BakeError::IoError, path, read_result_reason(r, entry.file_size));
  if (hash_string(hash_bytes(bytes.data(), bytes.size())) != entry.hash)
    return invalid(baked, entry.path, "content hash differs from the manifest");
  if (assetlib::Status s = assetlib::parse_binaryfile(bytes, view, path); !s)
    return BakeStatus::from_file_call(s, BakeError::InvalidAsset, path);
  if (std::string_view(view.type, 4) != entry.type) {
    return invalid(baked, entry.path,
                   "type " + std::string(view.type, 4) + ", manifest says " + entry.type);
  }
  uint64_t raw_size = 0;
  if (BakeStatus s = read_unpacked_size(view, path, raw_size); !s) return s;
  if (raw_size != entry.raw_size) {
    return invalid(baked, entry.path,
                   "unpacked size " + std::to_string(raw_size) + " differs from the manifest's " +
                       std::to_string(entry.raw_size));
  }
  return {};
}

}  // namespace baker
