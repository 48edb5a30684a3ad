#include "pipeline/streamed_file.h"

#include "pipeline/output_tree.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

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

BakeStatus StreamedFile::open(const std::filesystem::path& path) {
  discard();
  path_ = path.string();
  size_ = 0;
  struct stat st {};
  in_place_ = ::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  if (in_place_) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) return BakeStatus::failure(BakeError::IoError, path_, io_reason("opening", errno));
    return {};
  }
  temporary_ = temporary_name(path_);
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    return BakeStatus::failure(BakeError::IoError, path_, io_reason("creating a temporary", errno));
  }
  return {};
}

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
