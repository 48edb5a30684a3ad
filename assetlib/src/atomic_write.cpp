// Atomic file replacement: write a temporary sibling, then rename it over the target. rename() is
// atomic on POSIX file systems, so readers (and a rerun after a crash) see the old file or the new
// one, never a mix. We do not fsync: this protects against a killed process, not a power cut.
#include <assetlib/asset_file.h>

#include "no_throw.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>

namespace assetlib {
namespace {

// Unique among live writers: a process id and a thread id never repeat at the same time;
// `attempt` (0..15) steps past a name left by a crashed writer or planted by someone else. The
// name keeps the "<pid>-<n>" form that sweeps of stale temporaries recognise.
// A file name near the 255-byte limit leaves no room for the suffix: its start stands in.
std::string temporary_name(const std::string& path, int attempt) {
  size_t tid = std::hash<std::thread::id>{}(std::this_thread::get_id());
  const std::string suffix = ".assetlib-tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string((tid % 1000000007u) * 16 + size_t(attempt));
  constexpr size_t kMaxFileName = 255;
  const size_t slash = path.rfind('/');
  const size_t leaf = slash == std::string::npos ? 0 : slash + 1;
  return path.substr(0, leaf + std::min(path.size() - leaf, kMaxFileName - suffix.size())) + suffix;
}

// Creates the temporary exclusively: O_EXCL never opens an existing file and never follows a
// symlink planted at the name (which would make the write land outside the target's folder).
int create_temporary(const std::string& path, std::string& tmp) {
  constexpr int kAttempts = 16;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    tmp = temporary_name(path, attempt);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;  // errno is EEXIST
}

bool write_all(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes = bytes.subspan(size_t(n));
  }
  return true;
}

Status io_error(const std::string& path, const char* what, int err) {
  return Status::error(ErrorCode::IoError, path + ": " + what + ": " + std::strerror(err));
}

Status write_file_atomically_throwing(const std::string& path,
                                      std::span<const std::span<const std::byte>> parts) {
  std::string tmp;
  int fd = create_temporary(path, tmp);
  if (fd < 0) return io_error(path, "cannot create temporary file", errno);
  bool written = true;
  for (auto part : parts) written = written && write_all(fd, part);
  int write_errno = errno;
  bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    ::unlink(tmp.c_str());
    return io_error(path, "write failed", written ? errno : write_errno);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return io_error(path, "rename failed", err);
  }
  return {};
}

}  // namespace

Status write_file_atomically(const std::string& path,
                             std::span<const std::span<const std::byte>> parts) {
  return detail::no_throw(path, [&] { return write_file_atomically_throwing(path, parts); });
}

}  // namespace assetlib
