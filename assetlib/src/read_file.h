// Internal: opening and reading files that may be planted by someone else (a FIFO, a device, a
// folder in place of an asset): only regular files are read, and nothing blocks on open.
#pragma once

#include <assetlib/status.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace assetlib::detail {

// An open file descriptor, closed on destruction.
class FileHandle {
 public:
  FileHandle() = default;
  explicit FileHandle(int fd) : fd_(fd) {}
  ~FileHandle();
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
  int get() const { return fd_; }
  // Closes the current descriptor, if any, and holds `fd`.
  void reset(int fd);

 private:
  int fd_ = -1;
};

// Opens `path` for reading if it is a regular file (symlinks followed) and gives its size.
// O_NONBLOCK on open, so a FIFO cannot block (it is then refused like a folder, a device or a
// socket: FileNotFound "<path>: not a regular file (a FIFO)"). FileNotFound when it cannot be
// opened, IoError when fstat fails.
Status open_regular_file(const std::string& path, FileHandle& out, uint64_t& size);

// Reads exactly `size` bytes at the current offset (retrying short reads and EINTR).
// IoError "<path>: <what> failed: ..." or "... ended early" otherwise.
Status read_exact(const FileHandle& file, void* dst, size_t size, const std::string& path,
                  const char* what);

// read_exact at `offset` from the start of the file (pread: the current offset is unchanged).
Status read_exact_at(const FileHandle& file, uint64_t offset, void* dst, size_t size,
                     const std::string& path, const char* what);

// Reads all of `path` (a regular file) into `out`; refuses files larger than `max_size` before
// allocating, naming `limit_name` (e.g. "256 MiB limit (assetlib::kMaxManifestSize)").
Status read_file(const std::string& path, uint64_t max_size, const char* limit_name,
                 std::string& out);

}  // namespace assetlib::detail
