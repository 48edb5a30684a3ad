#include "common/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace baker {
namespace {

BakeStatus cannot(const std::filesystem::path& path, const std::string& what, int err) {
  return BakeStatus::failure(BakeError::IoError, path.string(), what + ": " + std::strerror(err));
}

}  // namespace

MappedFile::~MappedFile() { unmap(); }

void MappedFile::unmap() noexcept {
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

BakeStatus MappedFile::open(const std::filesystem::path& path, MappedFile& out) {
  // Non-blocking, so a FIFO in place of the file is refused below instead of waited on.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return cannot(path, "cannot open", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return cannot(path, "cannot stat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return BakeStatus::failure(BakeError::IoError, path.string(), "not a regular file");
  }
  void* data = nullptr;
  auto size = size_t(st.st_size);
  if (size > 0) {
    data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return cannot(path, "cannot map", err);
    }
  }
  ::close(fd);  // the mapping stays valid without the descriptor
  out.unmap();
  out.data_ = static_cast<const std::byte*>(data);
  out.size_ = size;
  return {};
}

}  // namespace baker
