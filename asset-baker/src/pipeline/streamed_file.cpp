#include "pipeline/streamed_file.h"

#include "pipeline/interrupt.h"
#include "pipeline/output_tree.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace baker {

StreamedFile::~StreamedFile() { discard(); }

void StreamedFile::discard() noexcept {
  if (fd_ < 0) return;
  ::close(fd_);
  if (!in_place_) ::unlink(temporary_.c_str());
  fd_ = -1;
}

BakeStatus StreamedFile::fail(const char* what, int err) {
  discard();
  return BakeStatus::failure(BakeError::IoError, path_, io_reason(what, err));
}

namespace {

// Whether `path` names a destination to write in place: an existing file that is not a regular
// one, or anything under /dev or /proc (/dev/stdout is a symlink to whatever descriptor 1 is, a
// regular file when the shell redirected it: renamed over, /dev/stdout itself was replaced).
bool written_in_place(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  if (!S_ISREG(st.st_mode)) return !S_ISDIR(st.st_mode);
  return path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
}

// How long a FIFO waits for its reader. `cat fifo & asset-baker ... -o fifo` starts the reader
// first, but nothing orders its open() before ours; a reader that never comes must not hang us.
constexpr auto kFifoReaderWait = std::chrono::seconds(5);

// Opens the existing `path` for writing in place. A FIFO that no process opens for reading within
// kFifoReaderWait, or before Ctrl-C, fails (`unread_fifo`) instead of waiting forever; anything
// else (a socket, which gives ENXIO too) is tried once.
int open_in_place(const std::string& path, bool& unread_fifo) {
  struct stat st {};
  const bool fifo = ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
  const auto deadline = std::chrono::steady_clock::now() + kFifoReaderWait;
  int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  while (fd < 0 && errno == ENXIO && fifo && !interrupt_signal() &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  }
  unread_fifo = fd < 0 && errno == ENXIO && fifo;
  if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace

BakeStatus StreamedFile::open(const std::filesystem::path& path) {
  discard();
  path_ = path.string();
  size_ = 0;
  in_place_ = written_in_place(path_);
  if (in_place_) {
    bool unread_fifo = false;
    fd_ = open_in_place(path_, unread_fifo);
    if (fd_ < 0) {
      return BakeStatus::failure(BakeError::IoError, path_,
                                 unread_fifo
                                     ? std::string("a FIFO that no process opened for reading")
                                     : io_reason("opening", errno));
    }
    return {};
  }
  // A temporary name already taken (left by a killed run of the same pid, in a container whose
  // pids repeat) is stepped past: each name carries a new count.
  for (int attempt = 0; attempt < 16; ++attempt) {
    temporary_ = temporary_name(path_);
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0 || errno != EEXIST) break;
  }
  if (fd_ < 0) {
    return BakeStatus::failure(BakeError::IoError, path_, io_reason("creating a temporary", errno));
  }
  return {};
}

bool StreamedFile::is_in_place() const { return in_place_; }

BakeStatus StreamedFile::write(std::span<const std::byte> bytes) {
  if (fd_ < 0) return BakeStatus::failure(BakeError::IoError, path_, "not open for writing");
  if (!write_all(fd_, bytes)) return fail("writing", errno);
  size_ += bytes.size();
  return {};
}

BakeStatus StreamedFile::write_zeros(uint64_t count) {
  static constexpr std::byte kZeros[4096] = {};
  while (count > 0) {
    size_t n = size_t(std::min<uint64_t>(count, sizeof kZeros));
    if (BakeStatus s = write({kZeros, n}); !s) return s;
    count -= n;
  }
  return {};
}

BakeStatus StreamedFile::commit() {
  if (fd_ < 0) return BakeStatus::failure(BakeError::IoError, path_, "not open for writing");
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    int err = errno;
    if (!in_place_) ::unlink(temporary_.c_str());
    return BakeStatus::failure(BakeError::IoError, path_, io_reason("writing", err));
  }
  if (in_place_) return {};
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    ::unlink(temporary_.c_str());
    return BakeStatus::failure(BakeError::IoError, path_, io_reason("renaming into place", err));
  }
  return {};
}

BakeStatus write_named_file(const std::filesystem::path& path,
                            std::span<const std::span<const std::byte>> parts) {
  StreamedFile file;
  if (BakeStatus s = file.open(path); !s) return s;
  for (std::span<const std::byte> part : parts) {
    if (BakeStatus s = file.write(part); !s) return s;
  }
  return file.commit();
}

}  // namespace baker
