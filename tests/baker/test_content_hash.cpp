// Content hashes (common/content_hash.h): a file streamed through hash_file / hash_fd hashes as its
// bytes do in memory, whatever its size against the read buffer (sized to the file, at most 1 MiB).
#include "temp_dir.h"

#include "common/content_hash.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <fstream>
#include <span>
#include <vector>

namespace {

std::vector<std::byte> pattern(size_t size) {
  std::vector<std::byte> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = std::byte((i * 131 + i / 4096) & 0xFF);
  return bytes;
}

uint64_t in_memory(std::span<const std::byte> bytes) {
  std::span<const std::byte> parts[] = {bytes};
  return baker::hash_parts(parts);
}

}  // namespace

TEST_CASE("a file hashes as its bytes do, at every size around the read buffer") {
  test::TempDir dir;
  const std::string path = (dir.path() / "f.bin").string();
  for (size_t size : {size_t(0), size_t(1), size_t(4095), size_t(4096), size_t(4097),
                      size_t(1) << 20, (size_t(1) << 20) + 1, 3 * (size_t(1) << 20) + 7}) {
    INFO(size << " bytes");
    std::vector<std::byte> bytes = pattern(size);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(size));
    uint64_t hash = 0;
    REQUIRE(baker::hash_file(path, hash));
    CHECK(hash == in_memory(bytes));
    CHECK(hash == baker::hash_bytes(bytes.data(), bytes.size(), 0));
    // From a descriptor: from its current position to the end.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    const size_t skip = size / 3;
    REQUIRE(::lseek(fd, off_t(skip), SEEK_SET) == off_t(skip));
    uint64_t rest = 0;
    CHECK(baker::hash_fd(fd, rest));
    ::close(fd);
    CHECK(rest == in_memory(std::span<const std::byte>(bytes).subspan(skip)));
  }
  uint64_t unused = 0;
  CHECK_FALSE(baker::hash_file((dir.path() / "missing").string(), unused));
  CHECK_FALSE(baker::hash_file(dir.path().string(), unused));  // a folder is no file
}
