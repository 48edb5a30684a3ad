// Palette images whose pixels index past their palette (docs/robustness.md, finding F16): BMP files
// (1, 4, 8 bits; Windows and OS/2 headers) and colour-type-3 PNG files. stb_image 2.27 leaves the
// palette entries the file does not hold uninitialised on its stack (and counts 4 entries too few
// in OS/2 BMPs), so such a file baked to different bytes on every run. Each case is decoded after
// filling the stack with one pattern, then with another: the pixels must not change, and must be
// the file's colours, or opaque black past the palette.
#include "hostile_helpers.h"

#include "import/image_import.h"
#include "texture/bake_texture.h"

#include <assetlib/assetlib.h>
#include <stb/stb_image.h>

#include <catch2/catch.hpp>

#include <array>
#include <memory>

using hostile::Bytes;

namespace {

struct PaletteSpec {
  uint32_t bits = 8;     // 1, 4 or 8
  uint32_t header = 40;  // 12 (OS/2), 40, 108, 124 (Windows)
  uint32_t colours = 2;  // palette entries written to the file
  int32_t width = 9, height = 5;
  bool top_down = false;         // Windows only: a negative height
  uint32_t compression = 0;      // 1 = RLE8, 2 = RLE4 (stb_image refuses them)
  std::vector<uint8_t> indices;  // pixel indices, repeated over the image
};

std::array<uint8_t, 3> colour(uint32_t entry) {  // the file's colour of `entry`, as R, G, B
  return {uint8_t(40 + entry * 7), uint8_t(200 - entry * 3), uint8_t(entry * 11 + 1)};
}

uint8_t index_at(const PaletteSpec& s, int x, int y) {
  return uint8_t(s.indices[size_t(y * s.width + x) % s.indices.size()] & ((1u << s.bits) - 1));
}

// A BMP with the palette right after its header and rows of `bits`-bit indices, bottom-up (or
// top-down), 4-byte aligned. Row y of the image (top = 0) holds index_at(x, y).
Bytes paletted_bmp(const PaletteSpec& s) {
  bool os2 = s.header == 12;
  Bytes palette;
  for (uint32_t e = 0; e < s.colours; ++e) {
    auto c = colour(e);
    palette.insert(palette.end(), {c[2], c[1], c[0]});
    if (!os2) palette.push_back(0);
  }
  size_t row = (size_t(s.width) * s.bits + 31) / 32 * 4;
  Bytes pixels;
  for (int r = 0; r < s.height; ++r) {
    int y = s.top_down ? r : s.height - 1 - r;
    Bytes line(row, 0);
    for (int x = 0; x < s.width; ++x) {
      size_t bit = size_t(x) * s.bits;
      line[bit / 8] |= uint8_t(index_at(s, x, y) << (8 - s.bits - bit % 8));
    }
    pixels.insert(pixels.end(), line.begin(), line.end());
  }
  uint32_t offset = 14 + s.header + uint32_t(palette.size());
  Bytes b = {'B', 'M'};
  hostile::put_le32(b, uint32_t(offset + pixels.size()));
  hostile::put_le32(b, 0);
  hostile::put_le32(b, offset);
  hostile::put_le32(b, s.header);
  if (os2) {
    hostile::put_le16(b, uint16_t(s.width));
    hostile::put_le16(b, uint16_t(s.height));
  } else {
    hostile::put_le32(b, uint32_t(s.width));
    hostile::put_le32(b, uint32_t(s.top_down ? -s.height : s.height));
  }
  hostile::put_le16(b, 1);
  hostile::put_le16(b, uint16_t(s.bits));
  if (!os2) {
    hostile::put_le32(b, s.compression);
    hostile::put_le32(b, uint32_t(pixels.size()));
    hostile::put_le32(b, 2835);
    hostile::put_le32(b, 2835);
    hostile::put_le32(b, s.colours);
    hostile::put_le32(b, 0);
    b.resize(14 + s.header, 0);  // V4/V5 fields (masks, colour space): zeros
  }
  hostile::append(b, palette);
  hostile::append(b, pixels);
  return b;
}

// Leaves `value` in the stack below the caller, where stb_image's palette table will be.
[[gnu::noinline]] void fill_stack(uint8_t value) {
  volatile uint8_t area[256 * 1024];
  for (size_t i = 0; i < sizeof area; ++i) area[i] = value;
}

Bytes decode_after(uint8_t stack_value, const Bytes& file, const std::string& name,
                   baker::BakeStatus& status) {
  fill_stack(stack_value);
  baker::DecodedImage image;
  status = baker::decode_image(hostile::as_bytes(file), name, image);
  if (!status) return {};
  auto* p = static_cast<const uint8_t*>(image.pixels.get());
  return Bytes(p, p + size_t(image.width) * image.height * 4);
}

std::string describe(const PaletteSpec& s) {
  return std::to_string(s.bits) + "-bit, " + std::to_string(s.header) + "-byte header, " +
         std::to_string(s.colours) + " colours" + (s.top_down ? ", top-down" : "");
}

// Every paletted layout stb_image decodes, with pixels inside and past the palette.
std::vector<PaletteSpec> past_palette_cases() {
  std::vector<PaletteSpec> cases;
  for (uint32_t header : {12u, 40u, 108u, 124u}) {
    for (uint32_t bits : {1u, 4u, 8u}) {
      PaletteSpec s;
      s.header = header;
      s.bits = bits;
      s.colours = bits == 1 ? 1 : bits == 4 ? 3 : 2;
      s.indices = bits == 1   ? std::vector<uint8_t>{0, 1, 1, 0}
                  : bits == 4 ? std::vector<uint8_t>{0, 2, 9, 15, 1}
                              : std::vector<uint8_t>{0, 1, 7, 200, 255};
      cases.push_back(s);
      if (header != 12) {
        s.top_down = true;
        cases.push_back(s);
      }
    }
  }
  return cases;
}

// `pixels` (RGBA8) are what stb_image itself decodes from `file`.
void check_decodes_as_stb_image(const Bytes& file, const Bytes& pixels) {
  int w = 0, h = 0, comp = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> expected(
      stbi_load_from_memory(file.data(), int(file.size()), &w, &h, &comp, 4), stbi_image_free);
  REQUIRE(expected);
  REQUIRE(pixels.size() == size_t(w) * size_t(h) * 4);
  CHECK(std::memcmp(pixels.data(), expected.get(), pixels.size()) == 0);
}

}  // namespace

// FINDING F16: the same BMP decoded to different pixels on every run (stack garbage where the
// palette has no entry); valgrind reported the uninitialised reads reaching the texture.
TEST_CASE("BMP pixels past the palette decode the same on every run, as opaque black") {
  for (const PaletteSpec& s : past_palette_cases()) {
    Bytes file = paletted_bmp(s);
    INFO(describe(s));
    baker::BakeStatus first_status, second_status;
    Bytes first = decode_after(0xA5, file, "pal.bmp", first_status);
    Bytes second = decode_after(0x5A, file, "pal.bmp", second_status);
    INFO(first_status.message());
    REQUIRE(first_status.ok());
    REQUIRE(second_status.ok());
    CHECK(first == second);
    REQUIRE(first.size() == size_t(s.width) * size_t(s.height) * 4);
    for (int y = 0; y < s.height; ++y) {
      for (int x = 0; x < s.width; ++x) {
        uint8_t index = index_at(s, x, y);
        auto c = index < s.colours ? colour(index) : std::array<uint8_t, 3>{0, 0, 0};
        const uint8_t* p = &first[size_t(y * s.width + x) * 4];
        INFO("pixel " << x << "," << y << " index " << int(index));
        CHECK((p[0] == c[0] && p[1] == c[1] && p[2] == c[2] && p[3] == 255));
      }
    }
  }
}

// stb_image 2.27 reads (offset - 38) / 3 entries of an OS/2 palette instead of (offset - 26) / 3:
// even a complete 256-colour OS/2 file lost its last 4 colours to stack garbage.
TEST_CASE("complete OS/2 palettes keep every colour, the last four included") {
  for (uint32_t bits : {4u, 8u}) {
    PaletteSpec s;
    s.header = 12;
    s.bits = bits;
    s.colours = 1u << bits;
    s.width = 16;
    s.height = 16;
    for (uint32_t i = 0; i < 256; ++i) s.indices.push_back(uint8_t(i));
    Bytes file = paletted_bmp(s);
    baker::BakeStatus status;
    Bytes pixels = decode_after(0xA5, file, "os2.bmp", status);
    INFO(describe(s) << ": " << status.message());
    REQUIRE(status.ok());
    for (int i = 0; i < 256; ++i) {
      uint8_t index = index_at(s, i % 16, i / 16);
      auto c = colour(index);
      INFO("index " << int(index));
      CHECK((pixels[size_t(i) * 4] == c[0] && pixels[size_t(i) * 4 + 1] == c[1] &&
             pixels[size_t(i) * 4 + 2] == c[2]));
    }
  }
}

// The other side: a Windows file whose pixels stay inside its palette (stb_image reads those
// exactly) decodes as before, byte for byte.
TEST_CASE("BMPs whose pixels stay inside the palette decode exactly what stb_image decodes") {
  for (uint32_t header : {40u, 108u, 124u}) {
    for (uint32_t bits : {1u, 4u, 8u}) {
      for (bool top_down : {false, true}) {
        PaletteSpec s;
        s.header = header;
        s.bits = bits;
        s.top_down = top_down;
        s.colours = bits == 1 ? 2 : bits == 4 ? 16 : 256;
        s.width = 13;
        s.height = 6;
        for (uint32_t i = 0; i < 97; ++i) s.indices.push_back(uint8_t(i * 31 + 5));
        Bytes file = paletted_bmp(s);
        baker::BakeStatus status;
        Bytes pixels = decode_after(0xA5, file, "in.bmp", status);
        INFO(describe(s) << ": " << status.message());
        REQUIRE(status.ok());
        check_decodes_as_stb_image(file, pixels);
      }
    }
  }
}

TEST_CASE(
    "textures baked from BMPs and PNGs with pixels past the palette are the same bytes on every "
    "run") {
  baker::BakeSettings settings;  // mips and block compression: the whole texture path
  std::vector<std::pair<std::string, Bytes>> files;
  for (const PaletteSpec& s : past_palette_cases())
    files.emplace_back(describe(s), paletted_bmp(s));
  for (const char* png : {"small-palette-2.png", "test-palette-4.png", "test-palette-8.png"}) {
    files.emplace_back(
        png,
        hostile::file_bytes(hostile::corpus(std::string("libpng/contrib/testpngs/badpal/") + png)));
  }
  for (const auto& [what, file] : files) {
    std::vector<std::vector<std::byte>> blobs;
    for (uint8_t value : {uint8_t(0xA5), uint8_t(0x5A), uint8_t(0xFF)}) {
      fill_stack(value);
      assetlib::AssetFile out;
      std::vector<std::string> warnings;
      baker::BakeStatus status =
          baker::bake_texture(hostile::as_bytes(file), "textures/pal", settings, out, warnings);
      INFO(what << ": " << status.message());
      REQUIRE(status.ok());
      blobs.push_back(out.blob);
      blobs.back().insert(blobs.back().end(), reinterpret_cast<const std::byte*>(out.json.data()),
                          reinterpret_cast<const std::byte*>(out.json.data() + out.json.size()));
    }
    INFO(what);
    CHECK(blobs[0] == blobs[1]);
    CHECK(blobs[0] == blobs[2]);
  }
}

// What stays refused, naming the file: no room for a palette entry before the pixel data (stb_image
// read its palette from nowhere when the offset pointed into the header), RLE compression and
// 2-bit pixels (stb_image does not decode them).
TEST_CASE("paletted BMPs without a palette, RLE and 2-bit BMPs are refused, naming the file") {
  std::vector<std::pair<std::string, Bytes>> files;
  for (uint32_t header : {12u, 40u}) {
    PaletteSpec s;
    s.header = header;
    s.colours = 0;
    s.indices = {0, 1, 2};
    files.emplace_back("no-palette-" + std::to_string(header) + ".bmp", paletted_bmp(s));
    Bytes into_header = paletted_bmp(s);
    into_header[10] = uint8_t(14 + header - 8);  // the pixel data "starts" inside the info header
    files.emplace_back("offset-in-header-" + std::to_string(header) + ".bmp", into_header);
  }
  for (uint32_t compression : {1u, 2u}) {
    PaletteSpec s;
    s.bits = compression == 1 ? 8 : 4;
    s.compression = compression;
    s.indices = {0, 1, 5};
    files.emplace_back("rle" + std::to_string(s.bits) + ".bmp", paletted_bmp(s));
  }
  PaletteSpec two;
  two.bits = 2;
  two.colours = 4;
  two.indices = {0, 1, 2, 3};
  files.emplace_back("two-bit.bmp", paletted_bmp(two));
  for (const auto& [name, file] : files) {
    baker::BakeStatus first, second;
    decode_after(0xA5, file, "textures/" + name, first);
    decode_after(0x5A, file, "textures/" + name, second);
    INFO(first.message());
    CHECK(first.blames_source());
    CHECK(first.file == "textures/" + name);
    CHECK(first.message() == second.message());
  }
}

namespace {

struct PngPalette {
  uint8_t depth = 8;     // 1, 2, 4 or 8
  uint32_t colours = 3;  // PLTE entries
  uint32_t alphas = 0;   // tRNS entries
  uint32_t width = 11, height = 4;
  std::vector<uint8_t> indices;
};

uint8_t png_index(const PngPalette& p, uint32_t x, uint32_t y) {
  return uint8_t(p.indices[(y * p.width + x) % p.indices.size()] & ((1u << p.depth) - 1));
}

uint8_t png_alpha(uint32_t entry) { return uint8_t(255 - entry * 13); }

Bytes palette_png(const PngPalette& p) {
  hostile::PngSpec spec;
  spec.width = p.width;
  spec.height = p.height;
  spec.depth = p.depth;
  spec.color_type = 3;
  for (uint32_t e = 0; e < p.colours; ++e) {
    auto c = colour(e);
    spec.palette.insert(spec.palette.end(), c.begin(), c.end());
  }
  for (uint32_t e = 0; e < p.alphas; ++e) spec.trns.push_back(png_alpha(e));
  size_t row = (size_t(p.width) * p.depth + 7) / 8;
  for (uint32_t y = 0; y < p.height; ++y) {
    spec.raw.push_back(0);  // filter: none
    Bytes line(row, 0);
    for (uint32_t x = 0; x < p.width; ++x) {
      size_t bit = size_t(x) * p.depth;
      line[bit / 8] |= uint8_t(png_index(p, x, y) << (8 - p.depth - bit % 8));
    }
    spec.raw.insert(spec.raw.end(), line.begin(), line.end());
  }
  return hostile::png(spec);
}

}  // namespace

// FINDING F16, PNG side: stb_image expands a colour-type-3 PNG through a 256-entry stack table of
// which only the PLTE entries are set (libpng's badpal test files baked differently on every run).
TEST_CASE("PNG pixels past the PLTE palette decode the same on every run, as opaque black") {
  for (uint8_t depth : {uint8_t(1), uint8_t(2), uint8_t(4), uint8_t(8)}) {
    for (uint32_t alphas : {0u, 1u}) {
      PngPalette p;
      p.depth = depth;
      p.colours = depth == 1 ? 1 : 3;
      p.alphas = alphas;
      p.indices = {0, 1, 2, 3, 7, 15, 200, 255, 2, 0};
      Bytes file = palette_png(p);
      INFO(int(depth) << "-bit, " << p.colours << " colours, " << alphas << " alphas");
      baker::BakeStatus first_status, second_status;
      Bytes first = decode_after(0xA5, file, "pal.png", first_status);
      Bytes second = decode_after(0x5A, file, "pal.png", second_status);
      INFO(first_status.message());
      REQUIRE(first_status.ok());
      REQUIRE(second_status.ok());
      CHECK(first == second);
      for (uint32_t y = 0; y < p.height; ++y) {
        for (uint32_t x = 0; x < p.width; ++x) {
          uint8_t index = png_index(p, x, y);
          auto c = index < p.colours ? colour(index) : std::array<uint8_t, 3>{0, 0, 0};
          uint8_t a = index < p.alphas ? png_alpha(index) : 255;
          const uint8_t* q = &first[size_t(y * p.width + x) * 4];
          INFO("pixel " << x << "," << y << " index " << int(index));
          CHECK((q[0] == c[0] && q[1] == c[1] && q[2] == c[2] && q[3] == a));
        }
      }
    }
  }
}

TEST_CASE("PNG palettes that cover their pixels decode exactly what stb_image decodes") {
  for (uint8_t depth : {uint8_t(1), uint8_t(2), uint8_t(4), uint8_t(8)}) {
    PngPalette p;
    p.depth = depth;
    p.colours = 1u << depth;
    p.alphas = p.colours / 2;
    for (uint32_t i = 0; i < 61; ++i) p.indices.push_back(uint8_t(i * 37 + 3));
    Bytes file = palette_png(p);
    baker::BakeStatus status;
    Bytes pixels = decode_after(0xA5, file, "in.png", status);
    INFO(int(depth) << "-bit: " << status.message());
    REQUIRE(status.ok());
    check_decodes_as_stb_image(file, pixels);
  }
  // What stb_image refuses stays refused: an empty PLTE, a tRNS longer than the PLTE.
  PngPalette empty;
  empty.colours = 0;
  empty.indices = {0};
  PngPalette long_trns;
  long_trns.colours = 2;
  long_trns.alphas = 3;
  long_trns.indices = {0, 1};
  for (const Bytes& file : {palette_png(empty), palette_png(long_trns)}) {
    baker::BakeStatus status;
    decode_after(0xA5, file, "textures/bad.png", status);
    INFO(status.message());
    CHECK(status.blames_source());
    CHECK(status.file == "textures/bad.png");
  }
}

TEST_CASE("libpng's bad-palette test files decode the same on every run") {
  for (const char* name :
       {"small-palette-1.png", "small-palette-2.png", "small-palette-4.png", "small-palette-8.png",
        "test-palette-1.png", "test-palette-2.png", "test-palette-4.png", "test-palette-8.png",
        "regression-palette-8.png"}) {
    Bytes file =
        hostile::file_bytes(hostile::corpus(std::string("libpng/contrib/testpngs/badpal/") + name));
    REQUIRE(!file.empty());
    baker::BakeStatus first_status, second_status;
    Bytes first = decode_after(0xA5, file, name, first_status);
    Bytes second = decode_after(0x5A, file, name, second_status);
    INFO(name << ": " << first_status.message());
    CHECK(first_status.message() == second_status.message());
    CHECK(first == second);
  }
}
