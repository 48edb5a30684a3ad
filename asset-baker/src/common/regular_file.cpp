#include "common/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace baker {

namespace {

int open_nonblocking(const std::filesystem::path& path) {
  return ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
}

ReadResult open_failure() {
  return errno == ENOENT || errno == ENOTDIR ? ReadResult::NotFound : ReadResult::ReadError;
}

// Reads `fd` from its start into `out` when it is a regular file: all of it when `whole` (none
// when it holds more than `max_bytes`), else its first `max_bytes` at most. Closes `fd`.
ReadResult read_from_start(int fd, uint64_t max_bytes, bool whole, std::vector<std::byte>& out) {
  struct stat st {};
  ReadResult result = ReadResult::Ok;
  if (::fstat(fd, &st) != 0) {
    result = ReadResult::ReadError;
  } else if (!S_ISREG(st.st_mode)) {
    result = ReadResult::NotRegular;
  } else if (whole && uint64_t(st.st_size) > max_bytes) {
    result = ReadResult::TooLarge;
  } else {
    out.resize(size_t(std::min(uint64_t(st.st_size), max_bytes)));
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::read(fd, out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += size_t(n);
    }
    if (done != out.size()) result = ReadResult::ReadError;  // it shrank while being read
  }
  ::close(fd);
  return result;
}

}  // namespace

ReadResult read_regular_file(const std::filesystem::path& path, uint64_t max_bytes,
                             std::vector<std::byte>& out) {
  int fd = open_nonblocking(path);
  return fd < 0 ? open_failure() : read_opened_file(fd, max_bytes, out);
}

ReadResult read_opened_file(int fd, uint64_t max_bytes, std::vector<std::byte>& out) {
  return read_from_start(fd, max_bytes, true, out);
}

ReadResult read_regular_prefix(const std::filesystem::path& path, uint64_t max_bytes,
                               std::vector<std::byte>& out) {
  int fd = open_nonblocking(path);
  return fd < 0 ? open_failure() : read_from_start(fd, max_bytes, false, out);
}

std::string read_result_reason(ReadResult result, uint64_t max_bytes) {
  switch (result) {
    case ReadResult::Ok: return "read";
    case ReadResult::NotFound: return "not found";
    case ReadResult::NotRegular: return "cannot read (not a regular file)";
    case ReadResult::TooLarge: return "over the " + std::to_string(max_bytes >> 20) + " MiB limit";
    case ReadResult::ReadError: return "read failed";
  }
  return "?";
}

}  // namespace baker
