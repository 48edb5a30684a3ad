#include "common/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace baker {

ReadResult read_regular_file(const std::filesystem::path& path, uint64_t max_bytes,
                             std::vector<std::byte>& out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return errno == ENOENT || errno == ENOTDIR ? ReadResult::NotFound : ReadResult::ReadError;
  return read_opened_file(fd, max_bytes, out);
}

ReadResult read_opened_file(int fd, uint64_t max_bytes, std::vector<std::byte>& out) {
  struct stat st {};
  ReadResult result = ReadResult::Ok;
  if (::fstat(fd, &st) != 0) {
    result = ReadResult::ReadError;
  } else if (!S_ISREG(st.st_mode)) {
    result = ReadResult::NotRegular;
  } else if (uint64_t(st.st_size) > max_bytes) {
    result = ReadResult::TooLarge;
  } else {
    out.resize(size_t(st.st_size));
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
