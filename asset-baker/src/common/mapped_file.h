// A regular file mapped read-only, for reading a large file (a pack) in place instead of copying
// it into memory. Opened like every file the baker did not write (common/regular_file.h): without
// blocking, and only when it is a regular file.
//
// A mapping reflects the file: one truncated by another process while it is mapped makes reads
// past the new end fault (SIGBUS). The tools map files they were pointed at, as any mmap reader
// does; packs the baker writes are replaced by rename, never truncated in place.
#pragma once

#include "common/bake_status.h"

#include <cstddef>
#include <filesystem>
#include <span>

namespace baker {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Maps `path` (a regular file; an empty one gives no bytes). IoError naming the file when it
  // cannot be opened, is not a regular file or cannot be mapped. `out` is replaced on success.
  static BakeStatus open(const std::filesystem::path& path, MappedFile& out);

  std::span<const std::byte> bytes() const { return {data_, size_}; }

 private:
  void unmap() noexcept;

  const std::byte* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace baker
