// A file too large to assemble in memory (a pack), written piece by piece and put in place
// atomically: a temporary sibling "<path>.assetlib-tmp-<pid>-<n>" (the name every tool sweeps,
// docs/format.md), renamed over `path` by commit(). Until then `path` is untouched: a failure, or
// a writer destroyed without commit(), removes the temporary. Not fsync'd, like every output.
#pragma once

#include "common/bake_status.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace baker {

class StreamedFile {
 public:
  StreamedFile() = default;
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;
  ~StreamedFile();  // removes the temporary unless committed

  // Creates the temporary beside `path` (the folder must exist). IoError naming `path`.
  BakeStatus open(const std::filesystem::path& path);
  // Appends `bytes`; IoError naming `path` ("disk full ..." when it is), the temporary removed.
  BakeStatus write(std::span<const std::byte> bytes);
  // Appends `count` zero bytes.
  BakeStatus write_zeros(uint64_t count);
  // Closes the temporary and renames it over `path`.
  BakeStatus commit();

  // Bytes written so far.
  uint64_t size() const { return size_; }

 private:
  BakeStatus fail(const char* what, int err);
  void discard() noexcept;

  int fd_ = -1;
  std::string path_, temporary_;
  uint64_t size_ = 0;
};

}  // namespace baker
