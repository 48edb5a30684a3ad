#include "pipeline/file_copy.h"

#include "common/file_descriptor.h"
#include "pipeline/output_tree.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace baker {
namespace {

// Copies `size` bytes from `in` to `out`: in the kernel when it can, else through a buffer.
bool copy_bytes(int in, int out, uint64_t size) {
  uint64_t done = 0;
  while (done < size) {
    ssize_t n = ::copy_file_range(in, nullptr, out, nullptr, size - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // not supported here (EXDEV, EINVAL, ENOSYS) or the file shrank
    done += uint64_t(n);
  }
  if (done == size) return true;
  std::vector<std::byte> buffer(1 << 20);
  for (;;) {
    ssize_t n = ::read(in, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    if (!write_all(out, std::span(buffer.data(), size_t(n)))) return false;
  }
}

}  // namespace

int link_or_copy(int from_dir, const std::string& from_name, int to_dir, const std::string& to_name,
                 bool allow_link) {
  FileDescriptor in(
      ::openat(from_dir, from_name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (in.get() < 0) return errno;
  if (::fstat(in.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EINVAL;
  // linkat without AT_SYMLINK_FOLLOW links the name itself, so a symlink swapped in after the
  // check above would be linked as a symlink: callers verify what they staged (by its hash, opened
  // with O_NOFOLLOW) before using it.
  if (allow_link && st.st_uid == ::geteuid() &&
      ::linkat(from_dir, from_name.c_str(), to_dir, to_name.c_str(), 0) == 0)
    return 0;
  // 0644 at most, as outputs are: the copy may be hard-linked on (output_tree.cpp).
  FileDescriptor out(::openat(to_dir, to_name.c_str(),
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (out.get() < 0) return errno;
  bool copied = copy_bytes(in.get(), out.get(), uint64_t(st.st_size));
  int err = copied ? 0 : (errno ? errno : EIO);
  if (err) ::unlinkat(to_dir, to_name.c_str(), 0);
  return err;
}

}  // namespace baker
