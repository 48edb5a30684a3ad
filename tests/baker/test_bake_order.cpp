// The order a bake dispatches its sources in (pipeline/bake_order.h): estimated from what each
// source's header says, not from its file size, and never from a file outside the input folder.
#include "../hostile/hostile_helpers.h"
#include "temp_dir.h"

#include "pipeline/bake_order.h"

#include <stb/stb_image_write.h>

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
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

Source source(const std::string& relative, AssetKind kind, uint64_t bytes, size_t roles = 1) {
  Source s;
  s.relative = relative;
  s.kind = kind;
  s.bytes = bytes;
  s.outputs.assign(roles, relative + ".tx");
  return s;
}

Source image_at(const test::TempDir& dir, const std::string& relative) {
  return source(relative, AssetKind::Texture, fs::file_size(dir.path() / relative));
}

// A PNG of a header announcing `w` x `h` RGB pixels and no image data.
std::string png_header(uint32_t w, uint32_t h) {
  hostile::PngSpec spec;
  spec.width = w;
  spec.height = h;
  spec.color_type = 2;
  spec.with_idat = false;
  hostile::Bytes bytes = hostile::png(spec);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

TEST_CASE("bake order: an image is as long as its pixels, whatever its file size", "[order]") {
  test::TempDir dir;
  dir.write("flat.png", png(512, 512, true));    // a few KB
  dir.write("noise.png", png(512, 512, false));  // 768 KB
  dir.write("small.png", png(128, 128, false));  // 48 KB
  std::vector<Source> sources = {image_at(dir, "small.png"), image_at(dir, "flat.png"),
                                 image_at(dir, "noise.png")};
  REQUIRE(sources[1].bytes < sources[0].bytes);
  auto cost = [&](const Source& s) { return baker::estimated_bake_cost(dir.path(), s); };
  CHECK(cost(sources[1]) == cost(sources[2]));
  CHECK(cost(sources[1]) == 16 * cost(sources[0]));
  Source two_roles = sources[0];
  two_roles.outputs.push_back("small.png.normal.tx");
  CHECK(cost(two_roles) == 2 * cost(sources[0]));

  // Longest first; equal estimates keep their order, whichever file is larger.
  std::vector<size_t> order = {0, 2, 1};
  baker::longest_first(dir.path(), sources, 2, order);
  CHECK(order == std::vector<size_t>{2, 1, 0});
}

TEST_CASE("bake order: models by their size, a GLB's byte dearer than an OBJ's", "[order]") {
  test::TempDir dir;
  std::vector<Source> sources = {
      source("a.obj", AssetKind::Mesh, 1000), source("b.glb", AssetKind::Scene, 1000),
      source("c.obj", AssetKind::Mesh, 1000), source("d.obj", AssetKind::Mesh, 3000)};
  std::vector<size_t> order = {0, 1, 2, 3};
  baker::longest_first(dir.path(), sources, 2, order);
  CHECK(order == std::vector<size_t>{1, 3, 0, 2});
}

TEST_CASE("bake order: a JPEG's frame header is found after large metadata", "[order]") {
  test::TempDir dir;
  dir.write("plain.jpg", jpeg_after_metadata(48, 16, 0));
  dir.write("tagged.jpg", jpeg_after_metadata(48, 16, 100000));
  Source tagged = image_at(dir, "tagged.jpg");
  REQUIRE(tagged.bytes > 100000);
  auto cost = [&](const Source& s) { return baker::estimated_bake_cost(dir.path(), s); };
  CHECK(cost(tagged) == cost(image_at(dir, "plain.jpg")));
  CHECK(cost(tagged) < cost(source("unread.jpg", AssetKind::Texture, tagged.bytes)));
}

TEST_CASE("bake order: without a readable header inside the input, the file size counts",
          "[order]") {
  test::TempDir dir, outside;
  outside.write("big.png", png(1024, 1024, true));
  fs::create_directories(dir.path() / "in");
  dir.write("in/big.png", png(1024, 1024, true));
  fs::create_symlink(outside.path() / "big.png", dir.path() / "in/link.png");
  dir.write("in/garbage.png", std::string(5000, 'x'));
  dir.write("in/huge.png", png_header(20000, 16000));  // over the baker's 16384 limit
  REQUIRE(::mkfifo((dir.path() / "in/pipe.png").c_str(), 0600) == 0);

  fs::path root = dir.path() / "in";
  auto cost = [&](const char* name) {
    return baker::estimated_bake_cost(root, source(name, AssetKind::Texture, 77));
  };
  const uint64_t by_size = cost("gone.png");
  CHECK(cost("big.png") > by_size);  // a million pixels
  // The link's target is not read: its million pixels do not count.
  CHECK(cost("link.png") == by_size);
  CHECK(cost("garbage.png") == by_size);
  CHECK(cost("huge.png") == by_size);
  // A FIFO is not opened for a blocking read (this would hang otherwise).
  CHECK(cost("pipe.png") == by_size);
}
