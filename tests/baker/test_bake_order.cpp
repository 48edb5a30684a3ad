// The order a bake dispatches its sources in (pipeline/bake_order.h): estimated from what each
// source's header says, not from its file size, and never from a file outside the input folder.
#include "temp_dir.h"

#include "common/regular_file.h"
#include "pipeline/bake_order.h"

#include <stb/stb_image_write.h>

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <vector>

using baker::AssetKind;
using baker::Source;
namespace fs = std::filesystem;

namespace {

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::string*>(context);
  out->append(static_cast<const char*>(data), size_t(size));
}

// A PNG of `w` x `h` RGB pixels: one colour when `flat`, else noise (which deflate cannot shrink).
std::string png(int w, int h, bool flat) {
  std::vector<uint8_t> rgb(size_t(w) * h * 3, 90);
  uint32_t state = 12345;
  if (!flat) {
    for (uint8_t& c : rgb) c = uint8_t((state = state * 1664525u + 1013904223u) >> 24);
  }
  std::string out;
  REQUIRE(stbi_write_png_to_func(append_bytes, &out, w, h, 3, rgb.data(), 0));
  return out;
}

// A JPEG of `w` x `h` whose frame header comes after `padding` bytes of APP15 segments, as after
// a large EXIF block or ICC profile.
std::string jpeg_after_metadata(int w, int h, size_t padding) {
  std::vector<uint8_t> rgb(size_t(w) * h * 3, 128);
  std::string plain;
  REQUIRE(stbi_write_jpg_to_func(append_bytes, &plain, w, h, 3, rgb.data(), 90));
  std::string segments;
  for (size_t left = padding; left > 0;) {
    size_t payload = std::min<size_t>(left, 65000);
    size_t length = payload + 2;
    segments += "\xFF\xEF";
    segments += char(length >> 8);
    segments += char(length & 0xFF);
    segments += std::string(payload, 'm');
    left -= payload;
  }
  return plain.substr(0, 2) + segments + plain.substr(2);  // after SOI
}

Source source(const std::string& relative, AssetKind kind, uint64_t bytes) {
  Source s;
  s.relative = relative;
  s.kind = kind;
  s.bytes = bytes;
  return s;
}

Source image_at(const test::TempDir& dir, const std::string& relative) {
  return source(relative, AssetKind::Texture, fs::file_size(dir.path() / relative));
}

}  // namespace

TEST_CASE("bake order: an image is as long as its pixels, whatever its file size", "[order]") {
  test::TempDir dir;
  dir.write("flat.png", png(1024, 1024, true));  // a few KB, a million pixels
  dir.write("noise.png", png(128, 128, false));  // about 50 KB, 16384 pixels
  dir.write("model.obj", std::string(20000, '#'));
  std::vector<Source> sources = {image_at(dir, "flat.png"), image_at(dir, "noise.png"),
                                 source("model.obj", AssetKind::Mesh, 20000)};
  REQUIRE(sources[0].bytes < sources[1].bytes);

  CHECK(baker::estimated_bake_cost(dir.path(), sources[0]) == 40ull * 1024 * 1024);
  CHECK(baker::estimated_bake_cost(dir.path(), sources[1]) == 40ull * 128 * 128);
  CHECK(baker::estimated_bake_cost(dir.path(), sources[2]) == 20ull * 20000);

  std::vector<size_t> order = {1, 2, 0};
  baker::longest_first(dir.path(), sources, order);
  CHECK(order == std::vector<size_t>{0, 1, 2});
}

TEST_CASE("bake order: a JPEG's frame header is found after large metadata", "[order]") {
  test::TempDir dir;
  dir.write("tagged.jpg", jpeg_after_metadata(48, 16, 100000));
  Source s = image_at(dir, "tagged.jpg");
  REQUIRE(s.bytes > 100000);
  CHECK(baker::estimated_bake_cost(dir.path(), s) == 40ull * 48 * 16);
}

TEST_CASE("bake order: without a readable header inside the input, the file size counts",
          "[order]") {
  test::TempDir dir, outside;
  outside.write("big.png", png(1024, 1024, true));
  fs::create_directories(dir.path() / "in");
  fs::create_symlink(outside.path() / "big.png", dir.path() / "in/link.png");
  dir.write("in/garbage.png", std::string(5000, 'x'));
  REQUIRE(::mkfifo((dir.path() / "in/pipe.png").c_str(), 0600) == 0);

  fs::path root = dir.path() / "in";
  // The link's target is not read: its million pixels do not count.
  CHECK(baker::estimated_bake_cost(root, source("link.png", AssetKind::Texture, 77)) == 40 * 77);
  CHECK(baker::estimated_bake_cost(root, source("garbage.png", AssetKind::Texture, 5000)) ==
        40 * 5000);
  // A FIFO is not opened for a blocking read (this would hang otherwise).
  CHECK(baker::estimated_bake_cost(root, source("pipe.png", AssetKind::Texture, 0)) == 0);
  CHECK(baker::estimated_bake_cost(root, source("gone.png", AssetKind::Texture, 9)) == 40 * 9);
}

TEST_CASE("regular file prefix: the first bytes, all of a shorter file, only regular files",
          "[order]") {
  test::TempDir dir;
  fs::path file = dir.write("ten.bin", "0123456789");
  std::vector<std::byte> out;
  REQUIRE(baker::read_regular_prefix(file, 4, out) == baker::ReadResult::Ok);
  CHECK(std::string(reinterpret_cast<const char*>(out.data()), out.size()) == "0123");
  REQUIRE(baker::read_regular_prefix(file, 100, out) == baker::ReadResult::Ok);
  CHECK(out.size() == 10);
  CHECK(baker::read_regular_prefix(dir.path(), 4, out) == baker::ReadResult::NotRegular);
  CHECK(baker::read_regular_prefix(dir.path() / "none", 4, out) == baker::ReadResult::NotFound);
}
