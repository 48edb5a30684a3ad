// Reading files the baker did not write (common/regular_file.h): whole files within a limit, the
// first bytes of a file, and never anything but a regular file.
#include "temp_dir.h"

#include "common/regular_file.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <string>
#include <vector>

namespace fs = std::filesystem;
using baker::ReadResult;

namespace {

std::string text(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace

TEST_CASE("regular file: whole files within their limit and prefixes of any length",
          "[regular_file]") {
  test::TempDir dir;
  fs::path file = dir.write("ten.bin", "0123456789");
  std::vector<std::byte> out;
  REQUIRE(baker::read_regular_file(file, 10, out) == ReadResult::Ok);
  CHECK(text(out) == "0123456789");
  CHECK(baker::read_regular_file(file, 9, out) == ReadResult::TooLarge);
  REQUIRE(baker::read_regular_prefix(file, 4, out) == ReadResult::Ok);
  CHECK(text(out) == "0123");
  REQUIRE(baker::read_regular_prefix(file, 100, out) == ReadResult::Ok);
  CHECK(text(out) == "0123456789");
}

TEST_CASE("regular file: folders, FIFOs and missing files are refused without blocking",
          "[regular_file]") {
  test::TempDir dir;
  REQUIRE(::mkfifo((dir.path() / "pipe").c_str(), 0600) == 0);
  std::vector<std::byte> out;
  for (bool prefix : {false, true}) {
    auto read = [&](const fs::path& path) {
      return prefix ? baker::read_regular_prefix(path, 4, out)
                    : baker::read_regular_file(path, 4, out);
    };
    CHECK(read(dir.path()) == ReadResult::NotRegular);
    CHECK(read(dir.path() / "pipe") == ReadResult::NotRegular);
    CHECK(read(dir.path() / "none") == ReadResult::NotFound);
  }
}
