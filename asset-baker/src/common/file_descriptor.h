// An open file descriptor owned by one object: closed on destruction, so no early return leaks
// one. The baker opens files and folders relative to folder descriptors (openat, O_NOFOLLOW) to
// stay inside its input, output and cache folders; this is what holds them.
#pragma once

#include <unistd.h>

#include <utility>

namespace baker {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() { reset(); }

  int get() const { return fd_; }
  // Gives up ownership: the caller closes the descriptor.
  int release() { return std::exchange(fd_, -1); }
  // Closes the current descriptor, if any, and holds `fd`.
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

}  // namespace baker
