// A file a user names on the command line (a pack, a --json report, a stamp, a depfile, an
// exported PNG), written piece by piece and put in place atomically: a temporary sibling
// "<path>.assetlib-tmp-<pid>-<n>" (the name every tool sweeps, docs/format.md), renamed over `path`
// by commit(). Until then `path` is untouched: a failure, or a writer destroyed without commit(),
// removes the temporary. Not fsync'd, like every output.
//
// A `path` that exists and is neither a regular file nor a folder (/dev/null, a FIFO, a shell's
// `>(...)`), or anything under /dev or /proc (/dev/stdout), is written in place, as a shell
// redirection would: renamed over, it was replaced by a regular file (as root, /dev/null itself),
// and `>(...)` has no folder to make a temporary in. Such a write is not all or nothing, and a FIFO
// no process opens for reading within a few seconds fails.
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
  // Whether `path` is written in place (see above), after open().
  bool is_in_place() const;

 private:
  BakeStatus fail(const char* what, int err);
  void discard() noexcept;

  int fd_ = -1;
  bool in_place_ = false;  // writing `path` itself (not a regular file)
  std::string path_, temporary_;
  uint64_t size_ = 0;
};

// Writes `parts` to `path` through a StreamedFile: atomically, or in place as above.
BakeStatus write_named_file(const std::filesystem::path& path,
                            std::span<const std::span<const std::byte>> parts);

}  // namespace baker
