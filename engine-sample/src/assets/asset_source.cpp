#include "assets/asset_source.h"

#include "error.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace sample {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& path, const std::string& reason) {
  throw SampleError(path.string(), reason);
}

// Opens `path` for reading if it is a regular file, and gives its size. Non-blocking: opening a
// FIFO planted in a baked folder returns at once (and is refused) instead of waiting for a writer.
int open_regular(const fs::path& path, size_t& size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(path, "not a regular file");
  }
  size = static_cast<size_t>(st.st_size);
  return fd;
}

// The whole of `path`, mapped read-only. A pack the baker writes is replaced by rename, never
// rewritten in place, so the mapping keeps the version that was opened.
std::span<const std::byte> map_file(const fs::path& path) {
  size_t size = 0;
  int fd = open_regular(path, size);
  if (size == 0) {
    ::close(fd);
    return {};  // open_pack says what is wrong with it
  }
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int map_errno = errno;
  ::close(fd);  // the mapping outlives the descriptor
  if (data == MAP_FAILED) fail(path, std::string("cannot map: ") + std::strerror(map_errno));
  return {static_cast<const std::byte*>(data), size};
}

std::string hash_text(uint64_t hash) {
  char text[32];
  std::snprintf(text, sizeof text, "xxh3-64:%016llx", static_cast<unsigned long long>(hash));
  return text;
}

// Clamps the skip to the texture's last level and finds the blob bytes of the levels kept.
void find_levels(const std::string& where, uint32_t skip_mips, TextureLevels& out,
                 assetlib::BlobRange& range) {
  out.first_mip = std::min(skip_mips, static_cast<uint32_t>(out.info.mips.size()) - 1);
  if (assetlib::Status s = assetlib::texture_mips_blob_range(out.info, out.first_mip, range); !s) {
    throw SampleError::from_memory_call(where, s);  // the message does not name the file
  }
  out.blob_offset = range.offset;
}

void check_file_size(const fs::path& path, const assetlib::ManifestEntry& entry, uint64_t size) {
  if (entry.file_size != 0 && entry.file_size != size) {
    fail(path, "manifest says " + std::to_string(entry.file_size) + " bytes, the file has " +
                   std::to_string(size) + " (stale manifest?)");
  }
}

// The levels kept of a texture whose bytes are all at hand: `blob` is a part of view.blob.
TextureLevels levels_in_view(const assetlib::AssetView& view, const std::string& where,
                             uint32_t skip_mips) {
  TextureLevels out;
  if (assetlib::Status s = assetlib::read_texture_info(view, out.info); !s) fail(where, s.message);
  assetlib::BlobRange range;
  find_levels(where, skip_mips, out, range);
  out.blob = view.blob.subspan(static_cast<size_t>(range.offset), static_cast<size_t>(range.size));
  out.bytes_read = assetlib::kHeaderSize + view.json.size() + range.size;
  return out;
}

}  // namespace

TextureLevels FolderSource::read_texture_levels(const assetlib::ManifestEntry& entry,
                                                uint32_t skip_mips) {
  // Every level wanted: one read of the whole file, as for any other asset.
  if (skip_mips == 0) return levels_in_view(read(entry), where(entry), 0);
  const fs::path path = folder_ / entry.path;
  TextureLevels out;
  assetlib::AssetHead head;
  if (assetlib::Status s = assetlib::load_asset_head(path.string(), head); !s) {
    throw SampleError::from_file_call(path.string(), s);
  }
  check_file_size(path, entry, assetlib::kHeaderSize + head.json.size() + head.blob_length);
  if (assetlib::Status s = assetlib::read_texture_info(head, out.info); !s) fail(path, s.message);
  assetlib::BlobRange range;
  find_levels(path.string(), skip_mips, out, range);
  if (assetlib::Status s =
          assetlib::load_blob_range(path.string(), head, range.offset, range.size, buffer_);
      !s) {
    throw SampleError::from_file_call(path.string(), s);
  }
  out.blob = buffer_;
  out.bytes_read = assetlib::kHeaderSize + head.json.size() + range.size;
  return out;
}

TextureLevels PackSource::read_texture_levels(const assetlib::ManifestEntry& entry,
                                              uint32_t skip_mips) {
  // Only the pages of the levels kept are touched in the mapping.
  return levels_in_view(read(entry), where(entry), skip_mips);
}

assetlib::AssetView FolderSource::read(const assetlib::ManifestEntry& entry) {
  const fs::path path = folder_ / entry.path;
  size_t size = 0;
  struct Descriptor {
    int fd;
    ~Descriptor() { ::close(fd); }
  } file{open_regular(path, size)};
  check_file_size(path, entry, size);
  if (buffer_.size() < size) buffer_.resize(size);
  for (size_t done = 0; done < size;) {
    ssize_t n = ::read(file.fd, buffer_.data() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path, "short read of " + std::to_string(size) + " bytes");
    done += static_cast<size_t>(n);
  }
  assetlib::AssetView view;
  // Given the path as its source name, parse_binaryfile names the file in its messages itself.
  std::span<const std::byte> bytes(buffer_.data(), static_cast<size_t>(size));
  if (assetlib::Status s = assetlib::parse_binaryfile(bytes, view, path.string()); !s) {
    throw SampleError::from_file_call(path.string(), s);
  }
  return view;
}

std::string FolderSource::where(const assetlib::ManifestEntry& entry) const {
  return (folder_ / entry.path).string();
}

PackSource::PackSource(fs::path pack) : path_(std::move(pack)), mapping_(map_file(path_)) {
  if (assetlib::Status s = assetlib::open_pack(mapping_, pack_, path_.string()); !s) {
    if (!mapping_.empty()) ::munmap(const_cast<std::byte*>(mapping_.data()), mapping_.size());
    throw SampleError::from_file_call(path_.string(), s);
  }
  entries_.reserve(pack_.entry_count);
  for (size_t i = 0; i < pack_.entry_count; ++i) {
    assetlib::PackEntry e = assetlib::pack_entry(pack_, i);
    assetlib::ManifestEntry entry;
    entry.name = e.name;
    entry.type.assign(e.type, 4);
    entry.hash = hash_text(e.hash);
    entry.file_size = e.size;
    entry.raw_size = e.raw_size;
    entries_.push_back(std::move(entry));
  }
}

PackSource::~PackSource() {
  if (!mapping_.empty()) ::munmap(const_cast<std::byte*>(mapping_.data()), mapping_.size());
}

assetlib::AssetView PackSource::read(const assetlib::ManifestEntry& entry) {
  // By logical name, as a game asks for an asset: a binary search of the pack's table.
  std::optional<assetlib::PackEntry> found = assetlib::find_pack_entry(pack_, entry.name);
  if (!found) fail(where(entry), "not in the pack");
  assetlib::AssetView view;
  // Given the pack as its source name, read_pack_asset names the pack and the entry itself.
  if (assetlib::Status s = assetlib::read_pack_asset(pack_, *found, view, path_.string()); !s) {
    throw SampleError::from_file_call(where(entry), s);
  }
  return view;
}

std::string PackSource::where(const assetlib::ManifestEntry& entry) const {
  return path_.string() + ": " + entry.name;
}

}  // namespace sample
