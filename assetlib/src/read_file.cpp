#include "read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace assetlib::detail {
namespace {

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "an unknown kind of file";
}

}  // namespace

FileHandle::~FileHandle() { reset(-1); }

void FileHandle::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

Status open_regular_file(const std::string& path, FileHandle& out, uint64_t& size) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever. It changes
  // nothing for the regular files read afterwards. O_NOCTTY: a terminal never becomes ours.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    return Status::error(ErrorCode::FileNotFound,
                         path + ": cannot open file: " + std::strerror(errno));
  }
  out.reset(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    out.reset(-1);
    return Status::error(ErrorCode::IoError, path + ": cannot stat: " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    out.reset(-1);
    return Status::error(ErrorCode::FileNotFound,
                         path + ": not a regular file (" + file_kind(st.st_mode) + ")");
  }
  size = uint64_t(st.st_size);
  return {};
}

namespace {

// Reads exactly `size` bytes, retrying short reads and EINTR; `at` < 0 reads at the current
// offset, otherwise at that offset.
Status read_fully(const FileHandle& file, int64_t at, void* dst, size_t size,
                  const std::string& path, const char* what) {
  auto out = static_cast<char*>(dst);
  while (size > 0) {
    ssize_t n = at < 0 ? ::read(file.get(), out, size) : ::pread(file.get(), out, size, off_t(at));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return Status::error(ErrorCode::IoError,
                           path + ": reading the " + what + " failed: " + std::strerror(errno));
    }
    if (n == 0) {
      return Status::error(
          ErrorCode::IoError,
          path + ": reading the " + what + " failed: the file ended early (it shrank while read)");
    }
    out += n;
    size -= size_t(n);
    if (at >= 0) at += n;
  }
  return {};
}

}  // namespace

Status read_exact(const FileHandle& file, void* dst, size_t size, const std::string& path,
                  const char* what) {
  return read_fully(file, -1, dst, size, path, what);
}

Status read_exact_at(const FileHandle& file, uint64_t offset, void* dst, size_t size,
                     const std::string& path, const char* what) {
  return read_fully(file, int64_t(offset), dst, size, path, what);
}

Status read_file(const std::string& path, uint64_t max_size, const char* limit_name,
                 std::string& out) {
  FileHandle file;
  uint64_t size = 0;
  if (Status s = open_regular_file(path, file, size); !s) return s;
  if (size > max_size) {
    return Status::error(ErrorCode::InvalidValue,
                         path + ": " + std::to_string(size) + " bytes is over the " + limit_name);
  }
  std::string text(size_t(size), '\0');
  if (Status s = read_exact(file, text.data(), text.size(), path, "file"); !s) return s;
  out = std::move(text);
  return {};
}

}  // namespace assetlib::detail
