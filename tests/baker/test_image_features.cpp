// Valid images that stb_image alone decodes wrongly, and valid images it cannot read at all. Each
// file is generated here from a known picture (written out below, not computed by the code under
// test), baked as an exact RGBA8 texture, and its texels compared with that picture; files the
// baker cannot read must say which feature is missing.
#include "../hostile/hostile_helpers.h"

#include "import/icc_profile.h"
#include "texture/bake_texture.h"
#include "texture/texture_role.h"

#include <assetlib/assetlib.h>
#include <stb/stb_image_write.h>

#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

using baker::TextureRole;
using hostile::Bytes;

namespace {

using Rgb = std::array<uint8_t, 3>;

// A picture as shown, row 0 at the top; each texel one of the six colours A..F.
struct Picture {
  uint32_t width = 0, height = 0;
  std::vector<Rgb> texels;
  const Rgb& at(uint32_t x, uint32_t y) const { return texels[size_t(y) * width + x]; }
};

constexpr Rgb kColours[7] = {{220, 30, 30},  {30, 200, 40},  {40, 50, 230}, {240, 220, 20},
                             {20, 210, 220}, {200, 40, 210}, {0, 0, 0}};

// `rows` of letters 'A'..'F', e.g. {"ABC", "DEF"}.
Picture picture(std::initializer_list<const char*> rows) {
  Picture p;
  for (const char* row : rows) {
    p.width = uint32_t(std::strlen(row));
    for (const char* c = row; *c; ++c) p.texels.push_back(kColours[*c - 'A']);
    ++p.height;
  }
  return p;
}

struct Baked {
  baker::BakeStatus status;
  assetlib::TextureInfo info;
  Picture picture;
  std::vector<uint8_t> alpha;  // per texel of `picture`
  std::vector<std::string> warnings;
  std::vector<std::byte> texels;  // every level as unpacked, any format
};

// Bakes `file` with `settings` (default: the UI role, stored as exact RGBA8 without mips) and
// reads level 0 back.
Baked bake(const Bytes& file, const std::string& name, baker::BakeSettings settings) {
  Baked b;
  assetlib::AssetFile asset;
  b.status = baker::bake_texture(hostile::as_bytes(file), name, settings, asset, b.warnings);
  if (!b.status) return b;
  REQUIRE(assetlib::read_texture_info(asset, b.info).ok());
  std::vector<std::byte> texels(b.info.total_size);
  REQUIRE(assetlib::unpack_texture(b.info, asset.blob.data(), asset.blob.size(), texels.data(),
                                   texels.size())
              .ok());
  b.texels = texels;
  if (b.info.format != assetlib::TextureFormat::RGBA8_SRGB) return b;
  b.picture.width = b.info.width;
  b.picture.height = b.info.height;
  for (size_t i = 0; i < size_t(b.info.width) * b.info.height; ++i) {
    b.picture.texels.push_back(
        {uint8_t(texels[i * 4]), uint8_t(texels[i * 4 + 1]), uint8_t(texels[i * 4 + 2])});
    b.alpha.push_back(uint8_t(texels[i * 4 + 3]));
  }
  return b;
}

Baked bake(const Bytes& file, const std::string& name) {
  baker::BakeSettings exact;
  exact.texture.role = TextureRole::Ui;
  return bake(file, name, exact);
}

// Every texel of `got` within `tolerance` of `want`, sampled at (x * step + step / 2, ...): a
// picture scaled up by `step` (JPEG blocks) is compared at the centre of each block.
void require_picture(const Picture& got, const Picture& want, uint32_t step = 1,
                     int tolerance = 0) {
  REQUIRE(got.width == want.width * step);
  REQUIRE(got.height == want.height * step);
  for (uint32_t y = 0; y < want.height; ++y) {
    for (uint32_t x = 0; x < want.width; ++x) {
      const Rgb& g = got.at(x * step + step / 2, y * step + step / 2);
      const Rgb& w = want.at(x, y);
      INFO("texel " << x << "," << y << ": got " << int(g[0]) << " " << int(g[1]) << " "
                    << int(g[2]) << ", want " << int(w[0]) << " " << int(w[1]) << " " << int(w[2]));
      for (int c = 0; c < 3; ++c)
        CHECK(std::abs(int(g[size_t(c)]) - int(w[size_t(c)])) <= tolerance);
    }
  }
}

// stb_image_write's output callback: appends to the Bytes at `context`.
void append(void* context, void* data, int size) {
  auto* bytes = static_cast<const uint8_t*>(data);
  static_cast<Bytes*>(context)->insert(static_cast<Bytes*>(context)->end(), bytes, bytes + size);
}

// A BMP's 40-byte BITMAPINFOHEADER: one plane, no resolution, no palette counts.
Bytes bmp_info_header(uint32_t width, uint32_t height, uint16_t bits, uint32_t compression) {
  Bytes b;
  hostile::put_le32(b, 40);
  hostile::put_le32(b, width);
  hostile::put_le32(b, height);
  hostile::put_le16(b, 1);
  hostile::put_le16(b, bits);
  hostile::put_le32(b, compression);
  for (int k = 0; k < 5; ++k) hostile::put_le32(b, 0);
  return b;
}

// An uncompressed 24-bit TGA of `shown`, its rows stored as the descriptor says: bit 5 top to
// bottom (else bottom to top), bit 4 right to left.
Bytes tga(const Picture& shown, bool top_down, bool right_to_left) {
  Bytes b = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  hostile::put_le16(b, uint16_t(shown.width));
  hostile::put_le16(b, uint16_t(shown.height));
  b.push_back(24);
  b.push_back(uint8_t((top_down ? 0x20 : 0) | (right_to_left ? 0x10 : 0)));
  for (uint32_t r = 0; r < shown.height; ++r) {
    uint32_t y = top_down ? r : shown.height - 1 - r;
    for (uint32_t c = 0; c < shown.width; ++c) {
      const Rgb& t = shown.at(right_to_left ? shown.width - 1 - c : c, y);
      b.insert(b.end(), {t[2], t[1], t[0]});
    }
  }
  return b;
}

// `shown` as an 8-bit JPEG (quality 100, no chroma subsampling), each texel an 8x8 block.
Bytes jpeg_blocks(const Picture& shown) {
  const uint32_t w = shown.width * 8, h = shown.height * 8;
  std::vector<uint8_t> rgb;
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      const Rgb& t = shown.at(x / 8, y / 8);
      rgb.insert(rgb.end(), t.begin(), t.end());
    }
  }
  Bytes out;
  REQUIRE(stbi_write_jpg_to_func(append, &out, int(w), int(h), 3, rgb.data(), 100));
  return out;
}

// A TIFF structure of one directory holding one Orientation (0x0112) entry, little-endian ("II",
// most cameras) or big-endian ("MM", iPhones).
Bytes exif_tiff(uint16_t orientation, bool big_endian = false) {
  Bytes t = {big_endian ? uint8_t('M') : uint8_t('I'), big_endian ? uint8_t('M') : uint8_t('I')};
  auto u16 = [&](uint16_t v) { big_endian ? hostile::put_be16(t, v) : hostile::put_le16(t, v); };
  auto u32 = [&](uint32_t v) { big_endian ? hostile::put_be32(t, v) : hostile::put_le32(t, v); };
  u16(42);
  u32(8);  // first directory
  u16(1);  // one entry
  u16(0x0112);
  u16(3);  // SHORT
  u32(1);  // one value
  u16(orientation);
  u16(0);
  u32(0);  // no next directory
  return t;
}

// `jpeg` with an APP1 Exif segment after its JFIF APP0 segment (or right after SOI without one).
Bytes with_exif(const Bytes& jpeg, uint16_t orientation, bool big_endian = false) {
  Bytes tiff = exif_tiff(orientation, big_endian);
  Bytes segment = {0xff, 0xe1};
  hostile::put_be16(segment, uint16_t(2 + 6 + tiff.size()));
  hostile::append(segment, std::string("Exif\0\0", 6));
  hostile::append(segment, tiff);
  size_t at = jpeg[3] == 0xe0 ? 4 + (size_t(jpeg[4]) << 8 | jpeg[5]) : 2;
  Bytes out;
  for (size_t i = 0; i < jpeg.size(); ++i) {
    if (i == at) hostile::append(out, segment);
    out.push_back(jpeg[i]);
  }
  return out;
}

Bytes png_of(const Picture& shown) {
  std::vector<uint8_t> rgb;
  for (const Rgb& t : shown.texels) rgb.insert(rgb.end(), t.begin(), t.end());
  Bytes out;
  REQUIRE(
      stbi_write_png_to_func(append, &out, int(shown.width), int(shown.height), 3, rgb.data(), 0));
  return out;
}

// `png` with a chunk inserted after IHDR (8-byte signature + 25-byte IHDR chunk).
Bytes with_chunk(const Bytes& png, const char* type, const Bytes& data) {
  Bytes chunk;
  hostile::put_be32(chunk, uint32_t(data.size()));
  hostile::append(chunk, std::string(type, 4));
  hostile::append(chunk, data);
  hostile::put_be32(chunk, hostile::crc32(chunk.data() + 4, chunk.size() - 4));
  Bytes out;
  for (size_t i = 0; i < png.size(); ++i) {
    if (i == 33) hostile::append(out, chunk);
    out.push_back(png[i]);
  }
  return out;
}

// `jpeg` after one fill byte (FF) before its start-of-image marker: still a JPEG to stb_image.
Bytes with_fill(const Bytes& jpeg) {
  Bytes out(jpeg.size() + 1, 0xff);
  std::copy(jpeg.begin(), jpeg.end(), out.begin() + 1);
  return out;
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  for (const std::string& w : warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("TGA rows are read in every order the descriptor states") {
  const Picture shown = picture({"ABC", "DEF"});
  for (bool top_down : {false, true}) {
    for (bool right_to_left : {false, true}) {
      INFO("top_down " << top_down << ", right_to_left " << right_to_left);
      Baked b = bake(tga(shown, top_down, right_to_left), "origin.tga");
      INFO(b.status.message());
      REQUIRE(b.status.ok());
      require_picture(b.picture, shown);
    }
  }
}

TEST_CASE("a TGA colour map that starts past entry 0 is complete, and indexes the whole map") {
  // Entries 5, 6 and 7 of the map are stored (A, B, C); pixel values index the whole map.
  Bytes b = {0, 1, 1};
  hostile::put_le16(b, 5);  // first entry index
  hostile::put_le16(b, 3);  // entries stored
  b.push_back(24);
  for (int i = 0; i < 4; ++i) b.push_back(0);  // origin
  hostile::put_le16(b, 3);
  hostile::put_le16(b, 2);
  b.push_back(8);
  b.push_back(0x20);  // top to bottom
  for (int e = 0; e < 3; ++e) b.insert(b.end(), {kColours[e][2], kColours[e][1], kColours[e][0]});
  b.insert(b.end(), {5, 6, 7, 7, 6, 0});  // 0: an entry before the stored ones, black
  Baked baked = bake(b, "mapped.tga");
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  require_picture(baked.picture, picture({"ABC", "CBG"}));
  // A map whose entries would run past 65535 cannot be described by the header: refused.
  b[3] = 0xff, b[4] = 0xff;
  Baked past = bake(b, "mapped.tga");
  CHECK(past.status.code == baker::BakeError::InvalidSource);
  CHECK(past.status.message().find("runs past entry 65535") != std::string::npos);
}

TEST_CASE("TGA pixels indexing past the colour map are counted in a warning, raw and RLE") {
  // A 2-entry map of 24-bit entries, 4 x 1 pixels of `index_bits`, `type` 1 (raw) or 9 (RLE).
  auto mapped = [](uint8_t type, uint8_t index_bits, const Bytes& pixels) {
    Bytes b = {0, 1, type};
    hostile::put_le16(b, 0);  // first entry index
    hostile::put_le16(b, 2);  // entries
    b.push_back(24);
    for (int i = 0; i < 4; ++i) b.push_back(0);  // origin
    hostile::put_le16(b, 4);
    hostile::put_le16(b, 1);
    b.push_back(index_bits);
    b.push_back(0x20);
    b.insert(b.end(), {0, 0, 255, 0, 255, 0});  // red, green (BGR)
    b.insert(b.end(), pixels.begin(), pixels.end());
    return b;
  };
  const std::pair<Bytes, std::string> cases[] = {
      {mapped(1, 8, {0, 1, 1, 0}), ""},
      {mapped(1, 8, {0, 7, 1, 2}), "2 pixel(s) index past the TGA's colour map of 2 entries"},
      {mapped(1, 16, {1, 0, 0, 1, 0, 0, 1, 0}), "1 pixel(s) index past"},  // 256 as a 16-bit index
      {mapped(9, 8, {0x82, 5, 0x00, 1}), "3 pixel(s) index past"},         // a run of 3 x 5
      {mapped(9, 8, {0x83, 1}), ""},
  };
  for (const auto& [file, warning] : cases) {
    INFO(warning);
    Baked b = bake(file, "mapped.tga");
    REQUIRE(b.status.ok());
    CHECK(mentions(b.warnings, "index past the TGA's colour map") == !warning.empty());
    if (!warning.empty()) CHECK(mentions(b.warnings, warning));
  }
}

TEST_CASE("a top-down BMP (negative height) bakes upright") {
  const Picture shown = picture({"ABC", "DEF"});
  Bytes pixels;
  for (uint32_t y = 0; y < shown.height; ++y) {
    for (uint32_t x = 0; x < shown.width; ++x)
      pixels.insert(pixels.end(), {shown.at(x, y)[2], shown.at(x, y)[1], shown.at(x, y)[0]});
    pixels.resize((pixels.size() + 3) & ~size_t(3), 0);
  }
  Baked baked = bake(hostile::bmp(3, -2, 24, pixels), "top_down.bmp");
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  require_picture(baked.picture, shown);
}

TEST_CASE("a JFIF or Adobe-transform JPEG numbering its components R, G, B is read as YCbCr") {
  // libjpeg ranks a JFIF marker, then Adobe's transform, above the component numbers; stb_image
  // read these YCbCr files as RGB (a red of c04020 baked as 635ac3).
  const Picture shown = picture({"AB", "CD"});
  const Bytes jfif = jpeg_blocks(shown);  // stb_image_write: JFIF, components 1, 2, 3
  auto renumbered = [](Bytes b) {
    for (size_t at = 2; at + 4 <= b.size() && b[at] == 0xff;) {
      const uint8_t marker = b[at + 1];
      const size_t data = at + 4, length = size_t(b[at + 2]) << 8 | b[at + 3];
      if (marker == 0xc0) {
        for (size_t k = 0; k < 3; ++k) b[data + 6 + 3 * k] = uint8_t("RGB"[k]);
      }
      if (marker == 0xda) {
        for (size_t k = 0; k < b[data]; ++k) b[data + 1 + 2 * k] = uint8_t("RGB"[k]);
        break;
      }
      at += 2 + length;
    }
    return b;
  };
  // The JFIF APP0 segment replaced by Adobe's APP14 of transform 1 (YCbCr).
  Bytes adobe = {0xff, 0xd8, 0xff, 0xee, 0, 14};
  hostile::append(adobe, std::string("Adobe"));
  adobe.insert(adobe.end(), {0, 100, 0, 0, 0, 0, 1});
  const size_t app0_end = 4 + (size_t(jfif[4]) << 8 | jfif[5]);
  REQUIRE(jfif[3] == 0xe0);
  adobe.insert(adobe.end(), jfif.begin() + ptrdiff_t(app0_end), jfif.end());
  for (const auto& [file, what] :
       {std::pair{renumbered(jfif), "JFIF"}, std::pair{renumbered(adobe), "Adobe transform 1"}}) {
    INFO(what);
    Baked b = bake(file, "photo.jpg");
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    require_picture(b.picture, shown, 8, 12);
  }
}

TEST_CASE("EXIF orientation turns a JPEG as viewers show it") {
  const Bytes stored = jpeg_blocks(picture({"ABC", "DEF"}));
  // What each orientation value shows (the TIFF 6.0 / EXIF 2.3 definitions of tag 0x0112).
  const std::pair<uint16_t, Picture> cases[] = {
      {1, picture({"ABC", "DEF"})},     {2, picture({"CBA", "FED"})},
      {3, picture({"FED", "CBA"})},     {4, picture({"DEF", "ABC"})},
      {5, picture({"AD", "BE", "CF"})}, {6, picture({"DA", "EB", "FC"})},
      {7, picture({"FC", "EB", "DA"})}, {8, picture({"CF", "BE", "AD"})},
  };
  for (const auto& [orientation, shown] : cases) {
    INFO("orientation " << orientation);
    for (bool big_endian : {false, true}) {
      Baked b = bake(with_exif(stored, orientation, big_endian), "photo.jpg");
      INFO(b.status.message());
      REQUIRE(b.status.ok());
      require_picture(b.picture, shown, 8, 12);
      CHECK(mentions(b.warnings, "photo.jpg: turned as its EXIF orientation") ==
            (orientation != 1));
    }
  }
}

TEST_CASE("EXIF orientation in a PNG eXIf chunk is applied too") {
  Bytes png = with_chunk(png_of(picture({"ABC", "DEF"})), "eXIf", exif_tiff(6, true));
  Baked b = bake(png, "phone.png");
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  require_picture(b.picture, picture({"DA", "EB", "FC"}));
  // After the image data, as some writers put it: still the image's.
  Bytes after = png_of(picture({"ABC", "DEF"}));
  Bytes exif_chunk;
  hostile::png_chunk(exif_chunk, "eXIf", exif_tiff(6, true));
  after.insert(after.end() - 12, exif_chunk.begin(), exif_chunk.end());  // before IEND
  Baked late = bake(after, "late.png");
  INFO(late.status.message());
  REQUIRE(late.status.ok());
  require_picture(late.picture, picture({"DA", "EB", "FC"}));
  CHECK(mentions(late.warnings, "late.png: turned as its EXIF orientation"));
}

TEST_CASE("an animated PNG or GIF bakes its first image with a warning naming the frames") {
  SECTION("APNG") {
    Bytes actl;
    hostile::put_be32(actl, 3);  // frames
    hostile::put_be32(actl, 0);  // loop for ever
    Bytes fctl;                  // frame 0: the whole 2 x 1 image, the default one
    for (uint32_t v : {0u, 2u, 1u, 0u, 0u}) hostile::put_be32(fctl, v);
    fctl.insert(fctl.end(), {0, 1, 0, 10, 0, 0});  // 1/10 s, no disposal, source blend
    Bytes png = with_chunk(with_chunk(png_of(picture({"AB"})), "acTL", actl), "fcTL", fctl);
    Baked b = bake(png, "spinner.png");
    REQUIRE(b.status.ok());
    require_picture(b.picture, picture({"AB"}));
    CHECK(mentions(b.warnings, "spinner.png: animated image of 3 frames"));
  }
  SECTION("APNG whose default image is not a frame (no fcTL before IDAT), even of 1 frame") {
    for (uint32_t frames : {1u, 3u}) {
      Bytes actl;
      hostile::put_be32(actl, frames);
      hostile::put_be32(actl, 0);
      Baked b = bake(with_chunk(png_of(picture({"AB"})), "acTL", actl), "hidden.png");
      REQUIRE(b.status.ok());
      require_picture(b.picture, picture({"AB"}));
      CHECK(mentions(b.warnings, "hidden.png: an APNG whose default image is none of its " +
                                     std::to_string(frames) + " animation frame(s)"));
    }
  }
  SECTION("GIF") {
    // Two 1x1 frames of colour 0 (LZW minimum code size 2: data 0x44 0x01), a red/blue palette.
    Bytes gif;
    hostile::append(gif, std::string("GIF89a"));
    gif.insert(gif.end(), {1, 0, 1, 0, 0x80, 0, 0, 220, 30, 30, 40, 50, 230});
    for (int frame = 0; frame < 2; ++frame) {
      gif.insert(gif.end(), {0x21, 0xf9, 4, 0, 10, 0, 0, 0});  // 0.1 s per frame
      gif.insert(gif.end(), {0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0});
    }
    gif.push_back(0x3b);
    Baked b = bake(gif, "blink.gif");
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    require_picture(b.picture, picture({"A"}));
    CHECK(mentions(b.warnings, "blink.gif: animated image of 2 frames"));
  }
  SECTION("a still PNG warns about nothing") {
    Baked b = bake(png_of(picture({"AB"})), "still.png");
    REQUIRE(b.status.ok());
    CHECK(b.warnings.empty());
  }
}

TEST_CASE("a GIF canvas outside its first frame bakes transparent, whatever its background index") {
  // 3x1 canvas, a 1x1 red frame at (0, 0) (index 0 of red, green, blue, white). stb_image filled
  // the rest with the background entry's red and blue swapped: background 2 (blue) baked red.
  for (uint8_t background : {uint8_t(0), uint8_t(2)}) {
    INFO("background index " << int(background));
    Bytes gif;
    hostile::append(gif, std::string("GIF89a"));
    gif.insert(gif.end(), {3, 0, 1, 0, 0xf1, background, 0});
    gif.insert(gif.end(), {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255});
    gif.insert(gif.end(), {0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b});
    Baked b = bake(gif, "banner.gif");
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    REQUIRE(b.picture.width == 3);
    CHECK(b.picture.at(0, 0) == Rgb{255, 0, 0});
    CHECK(b.alpha == std::vector<uint8_t>{255, 0, 0});
    CHECK(b.picture.at(1, 0) == Rgb{0, 0, 0});
    CHECK(mentions(b.warnings,
                   "banner.gif: the GIF's first frame covers 1x1 at (0, 0) of its 3x1 "
                   "canvas: the rest is baked transparent, as browsers show it"));
  }
}

TEST_CASE("images the decoder cannot read name the format or feature they use") {
  Bytes jpeg = jpeg_blocks(picture({"A"}));
  size_t sof = 2;
  while (!(jpeg[sof] == 0xff && jpeg[sof + 1] == 0xc0)) ++sof;
  auto patched_jpeg = [&](size_t at, uint8_t value) {
    Bytes b = jpeg;
    b[at] = value;
    return b;
  };
  auto bmp_header = [](uint16_t bits, uint32_t compression) {
    Bytes b = {'B', 'M'};
    hostile::put_le32(b, 70);
    hostile::put_le32(b, 0);
    hostile::put_le32(b, 62);
    const Bytes info = bmp_info_header(2, 2, bits, compression);
    b.insert(b.end(), info.begin(), info.end());
    hostile::put_le32(b, 0x000000);  // palette: black, white
    hostile::put_le32(b, 0xffffff);
    b.insert(b.end(), {2, 0, 2, 1, 0, 0, 0, 1});  // RLE runs; end of bitmap
    return b;
  };
  Bytes wide_fields = bmp_header(32, 3);  // bit fields 10-10-10 where the palette was
  wide_fields.resize(62 + 2 * 2 * 4, 0);  // 2 x 2 texels of 4 bytes
  for (auto [at, mask] : {std::pair{54, 0x3ff00000u}, {58, 0x000ffc00u}, {62, 0x000003ffu}}) {
    for (int k = 0; k < 4; ++k) wide_fields[size_t(at + k)] = uint8_t(mask >> (8 * k));
  }
  Bytes psd;
  hostile::append(psd, std::string("8BPS"));
  psd.insert(psd.end(), {0, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 8, 0, 4});
  Bytes webp;
  hostile::append(webp, std::string("RIFF\x1a\0\0\0WEBPVP8 ", 16));
  webp.resize(34, 0);
  Bytes tiff = exif_tiff(1);
  Bytes huffman_tga = {0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 24, 0, 0, 0, 0};
  // True colour (type 2) with an unused 2-entry, 24-bit colour map, then one texel.
  Bytes mapped_true_colour_tga = {0, 1, 2,  0, 0, 2, 0, 24, 0, 0, 0, 0, 1, 0,
                                  1, 0, 24, 0, 1, 2, 3, 4,  5, 6, 7, 8, 9};

  const std::pair<Bytes, std::string> cases[] = {
      {patched_jpeg(sof + 1, 0xc9), "arithmetic-coded JPEG is not supported"},
      {patched_jpeg(sof + 4, 12), "12-bit JPEG is not supported"},
      {patched_jpeg(sof + 1, 0xc3), "lossless JPEG is not supported"},
      // stb_image would decode it as YCbCr and drop the fourth component (libjpeg: CMYK).
      {patched_jpeg(sof + 9, 4),
       "a 4-component (CMYK) JPEG without an Adobe APP14 marker is not supported"},
      {with_fill(patched_jpeg(sof + 1, 0xc9)), "arithmetic-coded JPEG is not supported"},
      {bmp_header(8, 1), "RLE8-compressed BMP is not supported"},
      {bmp_header(4, 2), "RLE4-compressed BMP is not supported"},
      {bmp_header(2, 0), "2-bit BMP is not supported"},
      {wide_fields, "a BMP with bit fields wider than 8 bits (10-10-10 and the like)"},
      {psd, "a PSD in CMYK colour mode (only RGB is read) is not supported"},
      {webp, "WebP is not supported"},
      {tiff, "TIFF is not supported"},
      {huffman_tga, "a Huffman-compressed TGA (type 32/33) is not supported"},
      {mapped_true_colour_tga, "a true-colour or grey TGA carrying a colour map is not supported"},
  };
  Bytes mp4 = {0, 0, 0, 0x18};
  hostile::append(mp4, std::string("ftypisom"));
  mp4.resize(64, 0);
  Bytes inkscape_svg, svg_with_doctype;
  hostile::append(inkscape_svg, std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                            "<!-- Created with Inkscape -->\n<svg></svg>"));
  hostile::append(svg_with_doctype,
                  std::string("\xef\xbb\xbf<!DOCTYPE svg PUBLIC \"x\" \"y\" [\n"
                              "  <!ENTITY ns_svg \"http://www.w3.org/2000/svg\">\n]>\r\n<svg/>"));
  const std::pair<Bytes, std::string> more[] = {
      {mp4, "an ISO media file (HEIF, AVIF or MP4) is not supported"},
      {inkscape_svg, "SVG (a vector image) is not supported"},
      {svg_with_doctype, "SVG (a vector image) is not supported"}};
  for (const auto& [file, reason] : cases) {
    INFO(reason);
    Baked b = bake(file, "textures/odd.png");
    REQUIRE_FALSE(b.status.ok());
    CHECK(b.status.code == baker::BakeError::UnsupportedFeature);
    CHECK(b.status.message().find("textures/odd.png") != std::string::npos);
    CHECK(b.status.message().find(reason) != std::string::npos);
    CHECK(b.status.message().find("unknown image type") == std::string::npos);
  }
  for (const auto& [file, reason] : more) {
    Baked b = bake(file, "clip.png");
    CHECK(b.status.message().find(reason) != std::string::npos);
  }
  // Not images at all: no feature is blamed.
  Baked empty = bake(Bytes{}, "empty.png");
  CHECK(empty.status.code == baker::BakeError::UnreadableSource);
  CHECK(empty.status.message().find("the file is empty") != std::string::npos);
  Baked zeros = bake(Bytes(64, 0), "zeros.png");
  CHECK(zeros.status.code == baker::BakeError::UnreadableSource);
  CHECK(zeros.status.message().find("TGA") == std::string::npos);
  Bytes xml;
  hostile::append(xml, std::string("<?xml version=\"1.0\"?><html></html>"));
  CHECK(bake(xml, "page.png").status.message().find("SVG") == std::string::npos);
}

TEST_CASE("a PNG or TGA header declaring a side of 0 or past 2^24 names the size limit") {
  // stb_image refuses such headers as "unknown image type", before the baker's own limit.
  auto png_of_width = [](uint32_t width) {
    Bytes ihdr = {0, 0, 0, 0, 0, 0, 0, 4, 8, 2, 0, 0, 0};
    for (int k = 0; k < 4; ++k) ihdr[size_t(k)] = uint8_t(width >> (24 - 8 * k));
    Bytes png;
    hostile::append(png, std::string("\x89PNG\r\n\x1a\n"));
    hostile::png_chunk(png, "IHDR", ihdr);
    hostile::png_chunk(png, "IDAT", hostile::zlib_stored(Bytes(13, 0)));
    hostile::png_chunk(png, "IEND", {});
    return png;
  };
  Bytes zero_wide_tga = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 24, 0};
  zero_wide_tga.resize(18 + 48, 0);
  const std::pair<Bytes, std::string> cases[] = {
      {png_of_width(1u << 25), "33554432x4 is outside the 1..16384 limit"},
      {png_of_width(0x7fffffff), "2147483647x4 is outside the 1..16384 limit"},  // PNG's largest
      {zero_wide_tga, "0x4 is outside the 1..16384 limit"},
  };
  for (const auto& [file, reason] : cases) {
    INFO(reason);
    Baked b = bake(file, "textures/huge.png");
    CHECK(b.status.code == baker::BakeError::LimitExceeded);
    CHECK(b.status.message().find(reason) != std::string::npos);
  }
  // Past what PNG allows, the header is damaged rather than large.
  Baked zero = bake(png_of_width(0), "textures/zero.png");
  CHECK(zero.status.code == baker::BakeError::InvalidSource);
  CHECK(zero.status.message().find("0x4 (PNG sides are 1 to 2^31 - 1)") != std::string::npos);
}

TEST_CASE("grey data saved as RGB bakes as one channel (BC4), from PNG and from JPEG") {
  // A grey ramp; the JPEG (quality 75, chroma subsampled) returns R, G and B a level or two apart.
  std::vector<uint8_t> rgb;
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 32; ++x) {
      auto v = uint8_t(x * 6 + y * 2);
      rgb.insert(rgb.end(), {v, v, v});
    }
  }
  Bytes png, jpeg;
  REQUIRE(stbi_write_png_to_func(append, &png, 32, 32, 3, rgb.data(), 0));
  REQUIRE(stbi_write_jpg_to_func(append, &jpeg, 32, 32, 3, rgb.data(), 75));
  for (const auto& [file, name] :
       {std::pair{png, std::string("rock_ao.png")}, std::pair{jpeg, std::string("rock_ao.jpg")},
        std::pair{jpeg, std::string("Rock_AO_2K.jpg")},
        std::pair{jpeg, std::string("rock_arm_4k.jpg")}}) {
    INFO(name);
    Baked b = bake(file, name, {});
    REQUIRE(b.status.ok());
    CHECK(b.info.format == assetlib::TextureFormat::BC4_UNORM);
  }
  // A colour image stays colour, however it is named.
  std::vector<uint8_t> tinted = rgb;
  for (size_t i = 0; i < tinted.size(); i += 3) tinted[i] = uint8_t(std::min(255, tinted[i] + 40));
  Bytes colour;
  REQUIRE(stbi_write_png_to_func(append, &colour, 32, 32, 3, tinted.data(), 0));
  CHECK(bake(colour, "rock_ao.png", {}).info.format == assetlib::TextureFormat::BC1_RGB_UNORM);
}

TEST_CASE("texture roles skip size and variant tags after the role") {
  CHECK(baker::role_from_name("rock_ao_2k.jpg") == TextureRole::Data);
  CHECK(baker::role_from_name("Bricks_nor_gl_4K.png") == TextureRole::Normal);
  CHECK(baker::role_from_name("metal_plate_rough_1024.png") == TextureRole::Data);
  CHECK(baker::role_from_name("floor_diff_2048x2048.png") == TextureRole::Color);
  CHECK(baker::role_from_name("tile_normal_lod0.png") == TextureRole::Normal);
  CHECK(baker::role_from_name("2k.png") == TextureRole::Color);
}

TEST_CASE("a 16-bit RLE PSD and HDR layouts other than -Y +X are refused, naming the feature") {
  Bytes psd;
  hostile::append(psd, std::string("8BPS"));
  // Version 1, 3 channels, 1 x 1, 16 bits, RGB; empty mode, resource and layer sections; RLE.
  psd.insert(psd.end(), {0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 16, 0, 3});
  for (int section = 0; section < 3; ++section) hostile::put_be32(psd, 0);
  hostile::put_be16(psd, 1);
  for (int row = 0; row < 3; ++row) hostile::put_be16(psd, 3);
  for (int row = 0; row < 3; ++row) psd.insert(psd.end(), {1, 0x7f, 0x7f});
  Baked b = bake(psd, "paint.psd");
  REQUIRE_FALSE(b.status.ok());
  CHECK(b.status.code == baker::BakeError::UnsupportedFeature);
  CHECK(b.status.message().find("a 16-bit PSD with RLE compression is not supported") !=
        std::string::npos);
  for (const char* layout : {"+Y 1 +X 1", "-Y 1 -X 1", "+X 1 -Y 1"}) {
    INFO(layout);
    Bytes hdr;
    hostile::append(hdr, std::string("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n") + layout + "\n");
    hdr.insert(hdr.end(), {128, 64, 32, 128});
    Baked h = bake(hdr, "sky.hdr");
    REQUIRE_FALSE(h.status.ok());
    CHECK(h.status.message().find(std::string("a Radiance HDR laid out '") +
                                  std::string(layout).substr(0, 5)) != std::string::npos);
  }
  Bytes formatless;
  hostile::append(formatless, std::string("#?RADIANCE\nEXPOSURE=1\n\n-Y 1 +X 1\n"));
  formatless.insert(formatless.end(), {128, 64, 32, 128});
  Baked f = bake(formatless, "plain.hdr");
  REQUIRE_FALSE(f.status.ok());
  CHECK(f.status.message().find("plain.hdr: a Radiance HDR without a FORMAT line") !=
        std::string::npos);
}

TEST_CASE("HDR scanlines that mix RLE and flat encoding, or repeat pixels, are refused") {
  // stb_image reads every scanline flat from the first flat one on, starting again at the top row:
  // Radiance reads each by itself.
  auto header = [](int width, int height) {
    Bytes hdr;
    hostile::append(hdr, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(height) +
                             " +X " + std::to_string(width) + "\n");
    return hdr;
  };
  auto rle_row = [](Bytes& hdr) {  // 8 pixels, each component one literal run
    hdr.insert(hdr.end(), {2, 2, 0, 8});
    for (int component = 0; component < 4; ++component) {
      hdr.push_back(8);
      for (int x = 0; x < 8; ++x) hdr.push_back(uint8_t(component == 3 ? 128 : 64 + x));
    }
  };
  auto flat_row = [](Bytes& hdr) {
    for (int x = 0; x < 8; ++x) hdr.insert(hdr.end(), {64, 32, 16, 128});
  };
  Bytes rle_then_flat = header(8, 2);
  rle_row(rle_then_flat);
  flat_row(rle_then_flat);
  Bytes flat_then_rle = header(8, 2);
  flat_row(flat_then_rle);
  rle_row(flat_then_rle);
  Bytes repeats = header(2, 1);
  repeats.insert(repeats.end(), {64, 32, 16, 128, 1, 1, 1, 4});
  for (const auto& [bytes, says] :
       {std::pair{rle_then_flat, "row 1 is flat after RLE rows"},
        std::pair{flat_then_rle, "row 1 is RLE after flat rows"},
        std::pair{repeats, "old-style run-length encoding (repeat markers 1, 1, 1)"}}) {
    INFO(says);
    Baked b = bake(bytes, "sky.hdr");
    REQUIRE_FALSE(b.status.ok());
    CHECK(b.status.code == baker::BakeError::UnsupportedFeature);
    CHECK(b.status.message().find(says) != std::string::npos);
  }
  Bytes all_rle = header(8, 2), all_flat = header(8, 2);
  rle_row(all_rle);
  rle_row(all_rle);
  flat_row(all_flat);
  flat_row(all_flat);
  CHECK(bake(all_rle, "sky.hdr").status.ok());
  CHECK(bake(all_flat, "sky.hdr").status.ok());
}

TEST_CASE("a forged size padded with comments is judged by the compressed pixel data alone") {
  SECTION("JPEG: a COM segment beside a 16384 x 16384 frame header") {
    Bytes jpeg = jpeg_blocks(picture({"A"}));
    size_t sof = 2;
    while (!(jpeg[sof] == 0xff && jpeg[sof + 1] == 0xc0)) ++sof;
    for (size_t at : {sof + 5, sof + 7}) {  // height, width
      jpeg[at] = 0x40;
      jpeg[at + 1] = 0;
    }
    Bytes comment = {0xff, 0xfe, 0xff, 0xff};
    comment.resize(comment.size() + 0xfffd, 'x');
    jpeg.insert(jpeg.begin() + 2, comment.begin(), comment.end());
    for (const Bytes& file : {jpeg, with_fill(jpeg)}) {
      Baked b = bake(file, "forged.jpg");
      REQUIRE_FALSE(b.status.ok());
      CHECK(b.status.code == baker::BakeError::LimitExceeded);
      CHECK(b.status.message().find("pixels per byte") != std::string::npos);
    }
  }
  SECTION("GIF: a comment extension beside a 16384 x 16384 canvas around one pixel") {
    Bytes gif;
    hostile::append(gif, std::string("GIF89a"));
    gif.insert(gif.end(), {0, 0x40, 0, 0x40, 0x80, 0, 0, 220, 30, 30, 40, 50, 230});
    gif.insert(gif.end(), {0x21, 0xfe});
    for (int block = 0; block < 300; ++block) {
      gif.push_back(255);
      gif.insert(gif.end(), 255, 'x');
    }
    gif.push_back(0);
    gif.insert(gif.end(), {0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b});
    Baked b = bake(gif, "forged.gif");
    REQUIRE_FALSE(b.status.ok());
    CHECK(b.status.code == baker::BakeError::LimitExceeded);
  }
}

TEST_CASE("a JPEG after fill bytes is read and checked as a JPEG, not as a TGA") {
  const Picture shown = picture({"AB", "CD"});
  Baked good = bake(with_fill(with_fill(jpeg_blocks(shown))), "filled.jpg");
  INFO(good.status.message());
  REQUIRE(good.status.ok());
  require_picture(good.picture, shown, 8, 12);
  // A scan using Huffman tables no segment defined (stb_image then decodes from uninitialised
  // tables): refused whether or not a fill byte comes first.
  Bytes undefined = jpeg_blocks(shown);
  size_t sos = 2;
  while (!(undefined[sos] == 0xff && undefined[sos + 1] == 0xda)) ++sos;
  undefined[sos + 6] = 0x33;  // the first component's DC and AC tables: 3, never defined
  for (const Bytes& file : {undefined, with_fill(undefined)}) {
    Baked b = bake(file, "undefined.jpg");
    REQUIRE_FALSE(b.status.ok());
    CHECK(b.status.message().find("Huffman table that was never defined") != std::string::npos);
  }
}

TEST_CASE("an Apple CgBI PNG bakes as RGBA with straight alpha, as the PNG it was made from") {
  // pngsuite's z06n2c08 and stb_image's test copy of it converted by Apple's tools (BGR order,
  // raw deflate).
  const std::string suite = "stb/tests/pngsuite/";
  Baked apple =
      bake(hostile::file_bytes(hostile::corpus(suite + "iphone/iphone_z06n2c08.png")), "apple.png");
  Baked plain =
      bake(hostile::file_bytes(hostile::corpus(suite + "primary/z06n2c08.png")), "plain.png");
  REQUIRE(apple.status.ok());
  REQUIRE(plain.status.ok());
  require_picture(apple.picture, plain.picture);
  // Premultiplied BGRA, as Apple stores it: opaque red, half-transparent green.
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  hostile::png_chunk(png, "CgBI", {0x50, 0x00, 0x20, 0x06});
  Bytes ihdr;
  hostile::put_be32(ihdr, 2);
  hostile::put_be32(ihdr, 1);
  ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});
  hostile::png_chunk(png, "IHDR", ihdr);
  const Bytes row = {0, 0, 0, 255, 255, 0, 128, 0, 128};  // filter byte, then B G R A twice
  Bytes deflate = {1, uint8_t(row.size()), 0, uint8_t(~row.size()), 0xff};  // one stored block
  hostile::append(deflate, row);
  hostile::png_chunk(png, "IDAT", deflate);
  hostile::png_chunk(png, "IEND", {});
  Baked b = bake(png, "premultiplied.png");
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  CHECK(b.picture.texels == std::vector<Rgb>{{255, 0, 0}, {0, 255, 0}});
  CHECK(b.alpha == std::vector<uint8_t>{255, 128});
}

TEST_CASE("PNM samples below a maximum value under 255 are stretched to 0..255") {
  // Grey of maximum 15: 0, 5, 10, 15 are black, a third, two thirds and white.
  Baked grey = bake(hostile::pnm("P5", 4, 1, 15, {0, 5, 10, 15}), "grey.pgm");
  INFO(grey.status.message());
  REQUIRE(grey.status.ok());
  CHECK(grey.picture.texels ==
        std::vector<Rgb>{{0, 0, 0}, {85, 85, 85}, {170, 170, 170}, {255, 255, 255}});
  // RGB of maximum 100; a sample above the maximum (a damaged file) is full.
  Baked rgb = bake(hostile::pnm("P6", 2, 1, 100, {100, 50, 0, 1, 99, 200}), "rgb.ppm");
  REQUIRE(rgb.status.ok());
  CHECK(rgb.picture.texels == std::vector<Rgb>{{255, 128, 0}, {3, 252, 255}});
  // 255 is as stored; 0 is no maximum at all.
  Baked full = bake(hostile::pnm("P5", 2, 1, 255, {7, 200}), "full.pgm");
  REQUIRE(full.status.ok());
  CHECK(full.picture.texels == std::vector<Rgb>{{7, 7, 7}, {200, 200, 200}});
  Baked zero = bake(hostile::pnm("P5", 2, 1, 0, {0, 0}), "zero.pgm");
  REQUIRE_FALSE(zero.status.ok());
  CHECK(zero.status.message().find("maximum value of 0") != std::string::npos);
}

TEST_CASE("a grey image used as a normal map is baked with a warning: a height map?") {
  baker::BakeSettings normal;
  normal.texture.role = TextureRole::Normal;
  std::vector<uint8_t> grey(4 * 4 * 3, 90), blue;
  for (int i = 0; i < 16; ++i) blue.insert(blue.end(), {128, 128, 255});
  for (const auto& [rgb, warned] : {std::pair{grey, true}, std::pair{blue, false}}) {
    Bytes png;
    REQUIRE(stbi_write_png_to_func(append, &png, 4, 4, 3, rgb.data(), 0));
    Baked b = bake(png, "bump.png", normal);
    REQUIRE(b.status.ok());
    CHECK(mentions(b.warnings, "bump.png: a grey image used as a normal map") == warned);
  }
  // A 16-bit grey PNG, the usual height map.
  hostile::PngSpec height;
  height.color_type = 0;
  height.depth = 16;
  Baked sixteen = bake(hostile::png(height), "height.png", normal);
  REQUIRE(sixteen.status.ok());
  CHECK(mentions(sixteen.warnings, "height.png: a grey image used as a normal map"));
}

namespace {

// A 32-bit TGA of two texels, red and green, top-left origin, fourth bytes `a0` and `a1`;
// `descriptor` bits 0-3 are the alpha bits.
Bytes two_texel_tga(uint8_t descriptor, uint8_t a0, uint8_t a1) {
  Bytes b = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 32, descriptor};
  b.insert(b.end(), {0, 0, 255, a0, 0, 255, 0, a1});  // BGRA
  return b;
}

}  // namespace

TEST_CASE("TGA alpha follows the alpha bits its descriptor declares") {
  auto tga32 = [](uint8_t descriptor, uint8_t alpha) {
    return two_texel_tga(descriptor, alpha, alpha);
  };
  // No alpha declared and fourth bytes of 0 (padding): opaque, said so.
  Baked padded = bake(tga32(0x20, 0), "padded.tga");
  REQUIRE(padded.status.ok());
  CHECK(padded.picture.texels == std::vector<Rgb>{{255, 0, 0}, {0, 255, 0}});
  CHECK(padded.alpha == std::vector<uint8_t>{255, 255});
  CHECK(mentions(padded.warnings, "padded.tga: a 32-bit TGA that declares no alpha"));
  // 8 alpha bits declared: transparent as written, no warning.
  Baked clear = bake(tga32(0x28, 0), "clear.tga");
  REQUIRE(clear.status.ok());
  CHECK(clear.alpha == std::vector<uint8_t>{0, 0});
  CHECK(clear.warnings.empty());
  // No alpha declared, but alpha that varies: kept, as stb_image and most tools read it.
  Baked kept = bake(tga32(0x20, 128), "kept.tga");
  CHECK(kept.alpha == std::vector<uint8_t>{128, 128});
  // A 16-bit texel's alpha bit is not baked: said so.
  Bytes tga16 = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 16, 0x21, 0x00, 0x7c};
  Baked sixteen = bake(tga16, "argb1555.tga");
  REQUIRE(sixteen.status.ok());
  CHECK(mentions(sixteen.warnings, "argb1555.tga: the alpha bit of a 16-bit TGA is not baked"));
  // TGA 2.0: an extension area (495 bytes, attributes type at 494) and the footer. Type 4 is
  // premultiplied alpha: baked straight. (255, 0, 0) at alpha 128 premultiplies to (128, 0, 0).
  auto tga2 = [&](uint8_t attributes) {
    Bytes b = tga32(0x28, 128);
    b[4 * 0 + 18 + 2] = 128;  // texel 0's red (BGRA)
    b[4 * 1 + 18 + 1] = 128;  // texel 1's green
    const uint32_t extension = uint32_t(b.size());
    Bytes area(495, 0);
    area[0] = 495 & 255;
    area[1] = 495 >> 8;
    area[494] = attributes;
    b.insert(b.end(), area.begin(), area.end());
    hostile::put_le32(b, extension);
    hostile::put_le32(b, 0);
    hostile::append(b, std::string("TRUEVISION-XFILE.\0", 18));
    return b;
  };
  Baked premultiplied = bake(tga2(4), "premultiplied.tga");
  REQUIRE(premultiplied.status.ok());
  CHECK(premultiplied.picture.texels == std::vector<Rgb>{{255, 0, 0}, {0, 255, 0}});
  CHECK(premultiplied.alpha == std::vector<uint8_t>{128, 128});
  CHECK(mentions(premultiplied.warnings, "premultiplied.tga: a TGA of premultiplied alpha"));
  Baked straight = bake(tga2(3), "straight.tga");  // 3: plain alpha, as stored
  REQUIRE(straight.status.ok());
  CHECK(straight.picture.texels == std::vector<Rgb>{{128, 0, 0}, {0, 128, 0}});
  CHECK(straight.warnings.empty());
  // 0 no alpha, 1 undefined data to ignore, 2 undefined data to keep: none of it is alpha.
  for (uint8_t type : {uint8_t(0), uint8_t(1), uint8_t(2)}) {
    INFO("attributes type " << int(type));
    Baked not_alpha = bake(tga2(type), "not_alpha.tga");
    REQUIRE(not_alpha.status.ok());
    CHECK(not_alpha.alpha == std::vector<uint8_t>{255, 255});
    CHECK(mentions(not_alpha.warnings, "not_alpha.tga: a 32-bit TGA whose extension area says"));
  }
}

TEST_CASE("TGA alpha rules hold for 32-bit colour map entries and 16-bit grey texels too") {
  // Colour-mapped (type 1 and its RLE, 9), three 32-bit BGRA entries of alpha 0, no alpha bits
  // declared: stb_image baked them fully transparent.
  Bytes mapped = {0, 1, 1, 0, 0, 3, 0, 32, 0, 0, 0, 0, 3, 0, 1, 0, 8, 0x20};
  mapped.insert(mapped.end(), {0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0});
  Bytes mapped_rle = mapped;
  mapped_rle[2] = 9;
  mapped.insert(mapped.end(), {0, 1, 2});
  mapped_rle.insert(mapped_rle.end(), {2, 0, 1, 2});  // a raw packet of 3
  for (const Bytes& file : {mapped, mapped_rle}) {
    Baked b = bake(file, "mapped.tga");
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    CHECK(b.picture.texels == std::vector<Rgb>{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}});
    CHECK(b.alpha == std::vector<uint8_t>{255, 255, 255});
    CHECK(mentions(b.warnings,
                   "mapped.tga: a TGA of 32-bit colour map entries that declares no "
                   "alpha and whose entries' fourth bytes are all 0: baked opaque"));
  }
  // Grey and alpha (type 3, 16 bits), no alpha bits declared, alpha bytes 0: opaque grey.
  Bytes grey = {0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 16, 0x20, 100, 0, 200, 0};
  Baked g = bake(grey, "grey.tga");
  REQUIRE(g.status.ok());
  CHECK(g.picture.texels == std::vector<Rgb>{{100, 100, 100}, {200, 200, 200}});
  CHECK(g.alpha == std::vector<uint8_t>{255, 255});
  CHECK(mentions(g.warnings, "grey.tga: a 16-bit grey TGA that declares no alpha"));
  // With 8 alpha bits declared, the alpha is kept as written.
  grey[17] = 0x28;
  grey[19] = 128;
  Baked declared = bake(grey, "grey.tga");
  REQUIRE(declared.status.ok());
  CHECK(declared.alpha == std::vector<uint8_t>{128, 0});
  CHECK(declared.warnings.empty());
}

TEST_CASE(
    "undeclared fourth bytes of a TGA or a 32-bit BI_RGB BMP read as alpha only with a warning") {
  // No alpha bits declared, fourth bytes 128 and 64.
  Baked from_tga = bake(two_texel_tga(0x20, 128, 64), "undeclared.tga");
  REQUIRE(from_tga.status.ok());
  CHECK(from_tga.alpha == std::vector<uint8_t>{128, 64});
  CHECK(mentions(from_tga.warnings, "undeclared.tga: a 32-bit TGA that declares no alpha bits"));
  // The same two texels as a bottom-up BMP of one row, BITMAPINFOHEADER, BI_RGB.
  auto bmp = [](uint8_t a0, uint8_t a1) {
    return hostile::bmp(2, 1, 32, {0, 0, 255, a0, 0, 255, 0, a1});  // BGRX
  };
  Baked varying = bake(bmp(128, 64), "varying.bmp");
  REQUIRE(varying.status.ok());
  CHECK(varying.picture.texels == std::vector<Rgb>{{255, 0, 0}, {0, 255, 0}});
  CHECK(varying.alpha == std::vector<uint8_t>{128, 64});
  CHECK(mentions(varying.warnings, "varying.bmp: a 32-bit BMP without an alpha mask (BI_RGB"));
  for (uint8_t padding : {uint8_t(0), uint8_t(255)}) {
    Baked padded = bake(bmp(padding, padding), "padded.bmp");
    REQUIRE(padded.status.ok());
    CHECK(padded.alpha == std::vector<uint8_t>{255, 255});
    CHECK(padded.warnings.empty());
  }
}

namespace {

// An 8-bit RGB PSD of 2 x 1 texels with `channels` channels (R, G, B, then extra ones), raw or
// RLE; with `layer_count`, a layer section of that count (negative: the fourth channel is
// transparency).
Bytes psd_extra_channels(bool rle, std::optional<int16_t> layer_count, uint8_t channels = 4) {
  const uint8_t all[5][2] = {{100, 200}, {100, 50}, {100, 10}, {0, 128}, {7, 7}};
  const std::span<const uint8_t[2]> planes(all, channels);
  Bytes psd;
  hostile::append(psd, std::string("8BPS"));
  psd.insert(psd.end(), {0, 1, 0, 0, 0, 0, 0, 0, 0, channels, 0, 0, 0, 1, 0, 0, 0, 2, 0, 8, 0, 3});
  hostile::put_be32(psd, 0);  // colour mode data
  hostile::put_be32(psd, 0);  // image resources
  if (layer_count) {          // layer and mask section: layer info holding only its count
    hostile::put_be32(psd, 6);
    hostile::put_be32(psd, 2);
    hostile::put_be16(psd, uint16_t(*layer_count));
  } else {
    hostile::put_be32(psd, 0);
  }
  hostile::put_be16(psd, rle ? 1 : 0);
  if (rle) {
    for (size_t c = 0; c < planes.size(); ++c) hostile::put_be16(psd, 3);  // a row: 3 bytes
    for (const auto& plane : planes) psd.insert(psd.end(), {1, plane[0], plane[1]});  // 2 literals
  } else {
    for (const auto& plane : planes) psd.insert(psd.end(), {plane[0], plane[1]});
  }
  return psd;
}

}  // namespace

TEST_CASE("a 16-bit PSD keeps 16 bits as data and is rounded to 8 as colour") {
  // 2 x 1 texels, raw, R G B planes then (with 4 channels, no layer section) a saved selection.
  auto psd16 = [](uint8_t channels) {
    Bytes psd;
    hostile::append(psd, std::string("8BPS"));
    psd.insert(psd.end(),
               {0, 1, 0, 0, 0, 0, 0, 0, 0, channels, 0, 0, 0, 1, 0, 0, 0, 2, 0, 16, 0, 3});
    for (int section = 0; section < 3; ++section) hostile::put_be32(psd, 0);
    hostile::put_be16(psd, 0);  // raw
    const uint16_t planes[4][2] = {{0x00ff, 0xfffe}, {0x8081, 0x0000}, {0x1234, 0x7f80}, {0, 9}};
    for (uint8_t c = 0; c < channels; ++c)
      for (uint16_t v : planes[c]) hostile::put_be16(psd, v);
    return psd;
  };
  const std::vector<uint16_t> want = {0x00ff, 0x8081, 0x1234, 0xffff, 0xfffe, 0, 0x7f80, 0xffff};
  baker::BakeSettings data;
  data.texture.role = TextureRole::Data;
  data.texture.mips = false;
  data.texture.block_compression = false;
  for (uint8_t channels : {uint8_t(3), uint8_t(4)}) {
    INFO(int(channels) << " channels");
    Baked b = bake(psd16(channels), "height.psd", data);
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    REQUIRE(b.info.format == assetlib::TextureFormat::RGBA16_UNORM);
    std::vector<uint16_t> got(b.texels.size() / 2);
    std::memcpy(got.data(), b.texels.data(), got.size() * 2);
    CHECK(got == want);  // the selection is not alpha: opaque
  }
  // The colour role: 8-bit sRGB, rounded (0x00ff -> 1 where cutting gives 0, 0xfffe -> 255), with
  // the warning PNGs get.
  Baked colour = bake(psd16(3), "paint.psd");
  REQUIRE(colour.status.ok());
  CHECK(colour.picture.texels == std::vector<Rgb>{{1, 128, 18}, {255, 0, 127}});
  CHECK(mentions(colour.warnings, "paint.psd: 16-bit colour image stored as 8-bit"));
}

TEST_CASE("a PSD's fourth channel is transparency only when its layer count says so") {
  for (bool rle : {false, true}) {
    INFO((rle ? "RLE" : "raw"));
    // No layers, or a positive count: a saved selection, not baked; the colour as stored.
    for (std::optional<int16_t> count : {std::optional<int16_t>(), std::optional<int16_t>(1)}) {
      Baked b = bake(psd_extra_channels(rle, count), "paint.psd");
      INFO(b.status.message());
      REQUIRE(b.status.ok());
      CHECK(b.picture.texels == std::vector<Rgb>{{100, 100, 100}, {200, 50, 10}});
      CHECK(b.alpha == std::vector<uint8_t>{255, 255});
      CHECK(mentions(b.warnings, "paint.psd: the PSD's channels past the third are not"));
    }
    // Five channels: the extra ones' RLE rows dropped alike.
    Baked five = bake(psd_extra_channels(rle, std::nullopt, 5), "five.psd");
    REQUIRE(five.status.ok());
    CHECK(five.picture.texels == std::vector<Rgb>{{100, 100, 100}, {200, 50, 10}});
    CHECK(five.alpha == std::vector<uint8_t>{255, 255});
    // A negative count: the merged transparency, as stb_image reads it (colour un-matted).
    Baked t = bake(psd_extra_channels(rle, int16_t(-1)), "layered.psd");
    REQUIRE(t.status.ok());
    CHECK(t.alpha == std::vector<uint8_t>{0, 128});
    CHECK(t.warnings.empty());
  }
}

TEST_CASE("an RGB PSD of fewer than 3 channels is refused, not baked with zeros for the others") {
  for (uint8_t channels : {uint8_t(1), uint8_t(2)}) {
    Baked b = bake(psd_extra_channels(false, std::nullopt, channels), "thin.psd");
    REQUIRE_FALSE(b.status.ok());
    CHECK(b.status.code == baker::BakeError::InvalidSource);
    CHECK(b.status.message().find("thin.psd: the RGB PSD has " + std::to_string(channels) +
                                  " channel(s), fewer than 3") != std::string::npos);
  }
}

namespace {

// An ICC profile of colour space `space` ("RGB " or "GRAY") holding `tags` (signature, data).
Bytes icc_of(const char* space, const std::vector<std::pair<std::string, Bytes>>& tags) {
  Bytes profile(128, 0);
  std::memcpy(profile.data() + 12, "mntr", 4);
  std::memcpy(profile.data() + 16, space, 4);
  std::memcpy(profile.data() + 20, "XYZ ", 4);
  std::memcpy(profile.data() + 36, "acsp", 4);
  hostile::put_be32(profile, uint32_t(tags.size()));
  uint32_t offset = uint32_t(132 + 12 * tags.size());
  for (const auto& [signature, data] : tags) {
    hostile::append(profile, signature);
    hostile::put_be32(profile, offset);
    hostile::put_be32(profile, uint32_t(data.size()));
    offset += uint32_t((data.size() + 3) / 4 * 4);
  }
  for (const auto& [signature, data] : tags) {
    hostile::append(profile, data);
    profile.resize((profile.size() + 3) / 4 * 4, 0);
  }
  return profile;
}

void put_s15(Bytes& b, double v) {
  hostile::put_be32(b, uint32_t(int32_t(std::lround(v * 65536))));
}

Bytes tag_header(const char* type) {
  Bytes b;
  hostile::append(b, std::string(type, 4));
  b.resize(8, 0);
  return b;
}

// A `para` curve of `type`, or a `curv` of one gamma (`type` -1; the identity when `gamma` is 0).
Bytes curve_tag(int type, const std::vector<double>& parameters, double gamma) {
  if (type >= 0) {
    Bytes curve = tag_header("para");
    hostile::put_be16(curve, uint16_t(type));
    hostile::put_be16(curve, 0);
    for (double p : parameters) put_s15(curve, p);
    return curve;
  }
  Bytes curve = tag_header("curv");
  hostile::put_be32(curve, gamma == 0 ? 0 : 1);
  if (gamma != 0) hostile::put_be16(curve, uint16_t(std::lround(gamma * 256)));
  return curve;
}

Bytes desc_tag(const std::string& description) {
  Bytes desc = tag_header("desc");
  hostile::put_be32(desc, uint32_t(description.size() + 1));
  hostile::append(desc, description);
  desc.push_back(0);
  return desc;
}

// A matrix/curve RGB profile: colorants (D50 XYZ of red, green, blue), one tone curve for the three
// channels (curve_tag) and a `desc` description.
Bytes icc_profile(const double colorants[3][3], int type, std::vector<double> parameters,
                  double gamma, const std::string& description) {
  std::vector<std::pair<std::string, Bytes>> tags;
  for (int c = 0; c < 3; ++c) {
    Bytes xyz = tag_header("XYZ ");
    for (int k = 0; k < 3; ++k) put_s15(xyz, colorants[c][k]);
    tags.push_back({std::string(1, "rgb"[c]) + "XYZ", xyz});
  }
  const Bytes curve = curve_tag(type, parameters, gamma);
  for (const char* trc : {"rTRC", "gTRC", "bTRC"}) tags.push_back({trc, curve});
  tags.push_back({"desc", desc_tag(description)});
  return icc_of("RGB ", tags);
}

constexpr double kSrgbXyz[3][3] = {
    {0.4361, 0.2225, 0.0139}, {0.3851, 0.7169, 0.0971}, {0.1431, 0.0606, 0.7141}};
constexpr double kDisplayP3Xyz[3][3] = {
    {0.5151, 0.2412, -0.0011}, {0.2919, 0.6922, 0.0419}, {0.1572, 0.0666, 0.7841}};
const std::vector<double> kSrgbCurve = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};

// `jpeg` with `profile` in APP2 ICC_PROFILE segments of at most `piece` bytes each.
Bytes with_icc(const Bytes& jpeg, const Bytes& profile, size_t piece) {
  const size_t count = (profile.size() + piece - 1) / piece;
  Bytes out(jpeg.begin(), jpeg.begin() + 2);
  for (size_t i = 0; i < count; ++i) {
    const size_t n = std::min(piece, profile.size() - i * piece);
    out.insert(out.end(), {0xff, 0xe2});
    hostile::put_be16(out, uint16_t(2 + 14 + n));
    hostile::append(out, std::string("ICC_PROFILE\0", 12));
    out.insert(out.end(), {uint8_t(i + 1), uint8_t(count)});
    out.insert(out.end(), profile.begin() + long(i * piece), profile.begin() + long(i * piece + n));
  }
  out.insert(out.end(), jpeg.begin() + 2, jpeg.end());
  return out;
}

}  // namespace

TEST_CASE("an ICC profile is judged sRGB by its colorants and curves, not its name") {
  const Bytes generic = icc_profile(kSrgbXyz, 3, kSrgbCurve, 0, "Generic monitor");
  const Bytes linear = icc_profile(kSrgbXyz, -1, {}, 0, "sRGB linear");
  const Bytes gamma_22 = icc_profile(kSrgbXyz, -1, {}, 2.2, "sRGB-ish");
  const Bytes p3 = icc_profile(kDisplayP3Xyz, 3, kSrgbCurve, 0, "Display P3 (sRGB compatible)");
  const std::pair<const Bytes*, const char*> cases[] = {
      {&generic, nullptr}, {&gamma_22, nullptr}, {&linear, "sRGB linear"}, {&p3, "Display P3"}};
  const Bytes jpeg = jpeg_blocks(picture({"AB"}));
  for (const auto& [profile, named] : cases) {
    INFO((named ? named : "sRGB"));
    Bytes iccp;
    hostile::append(iccp, std::string("Embedded"));
    iccp.insert(iccp.end(), {0, 0});
    hostile::append(iccp, hostile::zlib_stored(*profile));
    Baked png = bake(with_chunk(png_of(picture({"AB"})), "iCCP", iccp), "shot.png");
    REQUIRE(png.status.ok());
    CHECK(mentions(png.warnings, "shot.png: declares an ICC profile 'Embedded'") ==
          (named != nullptr));
    // An sRGB chunk beside it changes nothing: the profile outranks it (PNG, third edition).
    Baked ranked =
        bake(with_chunk(with_chunk(png_of(picture({"AB"})), "iCCP", iccp), "sRGB", Bytes{0}),
             "shot.png");
    REQUIRE(ranked.status.ok());
    CHECK(mentions(ranked.warnings, "shot.png: declares an ICC profile 'Embedded'") ==
          (named != nullptr));
    // In a JPEG, in pieces of 100 bytes, named by its description.
    Baked photo = bake(with_icc(jpeg, *profile, 100), "photo.jpg");
    REQUIRE(photo.status.ok());
    CHECK(mentions(photo.warnings, "photo.jpg: declares an ICC profile '" +
                                       std::string(named ? named : "")) == (named != nullptr));
  }
}

TEST_CASE("read_icc_profile: curve tables, grey profiles, mluc names and hostile tag tables") {
  auto read = [](const Bytes& b) {
    return baker::read_icc_profile(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(b.data()), b.size()));
  };
  // sRGB's curve as a 1024-entry table (v2 profiles), described in an mluc (UTF-16) tag.
  Bytes table = tag_header("curv");
  hostile::put_be32(table, 1024);
  for (int i = 0; i < 1024; ++i) {
    double x = i / 1023.0;
    double y = x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    hostile::put_be16(table, uint16_t(std::lround(y * 65535)));
  }
  Bytes mluc = tag_header("mluc");
  hostile::put_be32(mluc, 1);   // records
  hostile::put_be32(mluc, 12);  // record size
  hostile::append(mluc, std::string("enUS"));
  hostile::put_be32(mluc, 8);   // bytes of text
  hostile::put_be32(mluc, 28);  // where, from the tag's start
  for (char c : std::string("sRGB")) mluc.insert(mluc.end(), {0, uint8_t(c)});
  std::vector<std::pair<std::string, Bytes>> tags;
  for (int c = 0; c < 3; ++c) {
    Bytes xyz = tag_header("XYZ ");
    for (int k = 0; k < 3; ++k) put_s15(xyz, kSrgbXyz[c][k]);
    tags.push_back({std::string(1, "rgb"[c]) + "XYZ", xyz});
  }
  for (const char* trc : {"rTRC", "gTRC", "bTRC"}) tags.push_back({trc, table});
  tags.push_back({"desc", mluc});
  std::optional<baker::IccProfile> v2 = read(icc_of("RGB ", tags));
  REQUIRE(v2);
  CHECK(v2->srgb);
  CHECK(v2->description == "sRGB");
  // Grey: its kTRC alone; gamma 2.2 passes for sRGB's curve, 1.0 does not.
  for (double gamma : {2.2, 1.0}) {
    std::optional<baker::IccProfile> grey =
        read(icc_of("GRAY", {{"kTRC", curve_tag(-1, {}, gamma)}, {"desc", desc_tag("Grey")}}));
    REQUIRE(grey);
    CHECK(grey->srgb == (gamma == 2.2));
  }
  // Not profiles: no signature, a tag table past the end; tags pointing outside, counts of 2^32-1.
  CHECK_FALSE(read(Bytes(200, 0)));
  Bytes huge_table = icc_of("RGB ", {});
  huge_table[128] = huge_table[129] = huge_table[130] = huge_table[131] = 0xff;
  CHECK_FALSE(read(huge_table));
  Bytes outside = icc_profile(kSrgbXyz, 3, kSrgbCurve, 0, "sRGB");
  for (size_t entry = 132; entry < 132 + 12 * 7; entry += 12) outside[entry + 4] = 0x7f;  // offsets
  std::optional<baker::IccProfile> lost = read(outside);
  REQUIRE(lost);
  CHECK_FALSE(lost->srgb);  // no colorants to judge, no description: not taken for sRGB
  Bytes endless = icc_of("RGB ", {{"rTRC", tag_header("curv")}, {"desc", desc_tag("x")}});
  const size_t count_at = 132 + 12 * 2 + 8;  // the curv tag's count
  for (size_t k = 0; k < 4; ++k) endless[count_at + k] = 0xff;
  CHECK(read(endless));  // read without reading past it
}

TEST_CASE("a JPEG ICC profile that cannot be put together is warned about") {
  const Bytes jpeg = jpeg_blocks(picture({"AB"}));
  const Bytes profile = icc_profile(kSrgbXyz, 3, kSrgbCurve, 0, "sRGB");
  Bytes pieces = with_icc(jpeg, profile, 100);  // 3 pieces, the second dropped below
  size_t second = 0;
  for (size_t i = 2, seen = 0; i + 1 < pieces.size(); ++i) {
    if (pieces[i] == 0xff && pieces[i + 1] == 0xe2 && ++seen == 2) {
      second = i;
      break;
    }
  }
  REQUIRE(second > 0);
  const size_t length = size_t(pieces[second + 2]) << 8 | pieces[second + 3];
  pieces.erase(pieces.begin() + long(second), pieces.begin() + long(second + 2 + length));
  Baked b = bake(pieces, "cut.jpg");
  REQUIRE(b.status.ok());
  CHECK(mentions(b.warnings, "cut.jpg: declares an ICC profile that cannot be read"));
  Baked whole = bake(with_icc(jpeg, profile, 100), "whole.jpg");
  CHECK(whole.warnings.empty());
}

TEST_CASE("PNG chromaticities other than sRGB's are warned about") {
  auto chrm = [](std::initializer_list<double> values) {
    Bytes b;
    for (double v : values) hostile::put_be32(b, uint32_t(std::lround(v * 100000)));
    return b;
  };
  const Bytes plain = png_of(picture({"AB"}));
  Baked rec2020 = bake(
      with_chunk(plain, "cHRM", chrm({0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046})),
      "wide.png");
  REQUIRE(rec2020.status.ok());
  CHECK(mentions(rec2020.warnings,
                 "wide.png: declares chromaticities other than sRGB's (red 0.708 0.292"));
  Baked srgb =
      bake(with_chunk(plain, "cHRM", chrm({0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06})),
           "plain.png");
  REQUIRE(srgb.status.ok());
  CHECK(srgb.warnings.empty());
}

TEST_CASE("a PNG declaring a colour space other than sRGB is baked with a warning naming it") {
  Bytes linear_gamma, srgb_gamma, srgb = {0};
  hostile::put_be32(linear_gamma, 100000);
  hostile::put_be32(srgb_gamma, 45455);
  Bytes profile;
  hostile::append(profile, std::string("ProPhoto RGB"));
  profile.insert(profile.end(), {0, 0, 0x78, 0x9c, 3, 0, 0, 0, 0, 1});  // name, method, data
  const Bytes plain = png_of(picture({"AB"}));
  auto warned = [](const Bytes& png) {
    Baked b = bake(png, "shot.png");
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    require_picture(b.picture, picture({"AB"}));
    return b.warnings;
  };
  CHECK(mentions(warned(with_chunk(plain, "gAMA", linear_gamma)),
                 "shot.png: declares a gamma of 1/1.00; baked as sRGB without colour conversion"));
  CHECK(mentions(warned(with_chunk(plain, "iCCP", profile)),
                 "shot.png: declares an ICC profile 'ProPhoto RGB'"));
  CHECK(warned(with_chunk(plain, "gAMA", srgb_gamma)).empty());
  // Data (a normal or roughness map) is not colour: its declarations mean nothing to it.
  baker::BakeSettings data;
  data.texture.role = TextureRole::Data;
  Baked as_data = bake(with_chunk(plain, "gAMA", linear_gamma), "shot.png", data);
  REQUIRE(as_data.status.ok());
  CHECK(as_data.warnings.empty());
  CHECK(warned(with_chunk(with_chunk(plain, "gAMA", linear_gamma), "sRGB", srgb)).empty());
  // The third edition's ranking: cICP, then iCCP, then sRGB, then cHRM and gAMA.
  const Bytes pq = {9, 16, 0, 1}, srgb_points = {1, 13, 0, 1};
  CHECK(mentions(warned(with_chunk(plain, "cICP", pq)),
                 "shot.png: declares colour coding points (cICP) of primaries BT.2020 and "
                 "transfer PQ; baked as sRGB without colour conversion"));
  CHECK(warned(with_chunk(with_chunk(plain, "gAMA", linear_gamma), "cICP", srgb_points)).empty());
  // A profile that cannot be judged (this one holds no profile) beside an sRGB chunk: the
  // chunk's word is taken. A judged one outranks it ("an ICC profile is judged sRGB ...").
  CHECK(warned(with_chunk(with_chunk(plain, "iCCP", profile), "sRGB", srgb)).empty());
  const Bytes narrow = {1, 13, 0, 0};  // sRGB's code points, video range
  CHECK(mentions(warned(with_chunk(plain, "cICP", narrow)), "transfer sRGB, narrow (video) range"));
}

TEST_CASE("a BMP declaring a colour space other than sRGB is baked with a warning naming it") {
  // 2 x 1, 24-bit, BITMAPV5HEADER: bV5CSType at 56, endpoints and gamma at 60..107.
  auto bmp_v5 = [](uint32_t cs_type, uint32_t gamma) {
    Bytes b = {'B', 'M'};
    hostile::put_le32(b, 14 + 124 + 8);
    hostile::put_le32(b, 0);
    hostile::put_le32(b, 14 + 124);
    hostile::put_le32(b, 124);
    hostile::put_le32(b, 2);  // width
    hostile::put_le32(b, 1);  // height
    hostile::put_le16(b, 1);
    hostile::put_le16(b, 24);
    for (int k = 0; k < 10; ++k) hostile::put_le32(b, 0);  // compression .. masks
    hostile::put_le32(b, cs_type);
    for (int k = 0; k < 9; ++k) hostile::put_le32(b, 0);  // endpoints
    for (int k = 0; k < 3; ++k) hostile::put_le32(b, gamma);
    for (int k = 0; k < 4; ++k) hostile::put_le32(b, 0);  // intent, profile, reserved
    b.insert(b.end(), {0, 0, 255, 255, 0, 0, 0, 0});      // red, blue (BGR), row padding
    return b;
  };
  auto bake_bmp = [](const Bytes& file) {
    Baked b = bake(file, "shot.bmp");
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    CHECK(b.picture.texels == std::vector<Rgb>{{255, 0, 0}, {0, 0, 255}});
    return b.warnings;
  };
  CHECK(mentions(bake_bmp(bmp_v5(0, 1u << 16)),
                 "shot.bmp: declares calibrated RGB endpoints and gamma (a BMP colour space)"));
  CHECK(bake_bmp(bmp_v5(0, 0)).empty());           // nothing filled in: no declaration
  CHECK(bake_bmp(bmp_v5(0x73524742, 0)).empty());  // 'sRGB'
  CHECK(mentions(bake_bmp(bmp_v5(0x4c494e4b, 0)),
                 "shot.bmp: declares an ICC profile in another file"));
  // An embedded profile ('MBED'), after the pixels: its offset from the header's start at 112,
  // its size at 116. Judged as PNG and JPEG profiles are; the tag also in reading order.
  auto embedded = [&](const Bytes& profile, uint32_t tag) {
    Bytes b = bmp_v5(tag, 0);
    const uint32_t at = 124 + 8;
    for (int k = 0; k < 4; ++k) {
      b[size_t(14 + 112 + k)] = uint8_t(at >> (8 * k));
      b[size_t(14 + 116 + k)] = uint8_t(profile.size() >> (8 * k));
    }
    b.insert(b.end(), profile.begin(), profile.end());
    return b;
  };
  const Bytes p3 = icc_profile(kDisplayP3Xyz, 3, kSrgbCurve, 0, "Display P3 (sRGB compatible)");
  const Bytes srgb = icc_profile(kSrgbXyz, 3, kSrgbCurve, 0, "Generic monitor");
  for (uint32_t tag : {0x4d424544u, 0x4445424du}) {  // 'MBED' as Windows writes it, and reversed
    CHECK(mentions(bake_bmp(embedded(p3, tag)),
                   "shot.bmp: declares an ICC profile 'Display P3 (sRGB compatible)'"));
    CHECK(bake_bmp(embedded(srgb, tag)).empty());
  }
}

TEST_CASE("a JPEG of more than 256 scans is refused before decoding") {
  // Each scan is a pass over every block: thousands of tiny progressive scans decoded for minutes.
  const Bytes jpeg = jpeg_blocks(picture({"A"}));
  size_t sos = 2;
  while (!(jpeg[sos] == 0xff && jpeg[sos + 1] == 0xda)) ++sos;
  const Bytes scan(jpeg.begin() + ptrdiff_t(sos), jpeg.end() - 2);  // up to the EOI
  Bytes many(jpeg.begin(), jpeg.begin() + ptrdiff_t(sos));
  for (int k = 0; k < 257; ++k) many.insert(many.end(), scan.begin(), scan.end());
  many.insert(many.end(), {0xff, 0xd9});
  Baked b = bake(many, "scans.jpg");
  REQUIRE_FALSE(b.status.ok());
  CHECK(b.status.code == baker::BakeError::LimitExceeded);
  CHECK(b.status.message().find("scans.jpg: a JPEG of more than 256 scans") != std::string::npos);
}

TEST_CASE("a BMP without a palette whose pixels start after a gap bakes its pixels") {
  // 2 x 1: red, green. stb_image refused the gap between the headers (and masks) and the pixels
  // ("bad offset"), which the format allows: the file header says where the pixels are.
  auto bmp = [](uint16_t bits, uint32_t compression, const Bytes& masks, const Bytes& row,
                uint32_t gap) {
    const Bytes info = bmp_info_header(2, 1, bits, compression);
    const uint32_t offset = uint32_t(14 + info.size() + masks.size() + gap);
    Bytes b = {'B', 'M'};
    hostile::put_le32(b, uint32_t(offset + row.size()));
    hostile::put_le32(b, 0);
    hostile::put_le32(b, offset);
    b.insert(b.end(), info.begin(), info.end());
    b.insert(b.end(), masks.begin(), masks.end());
    b.insert(b.end(), gap, 0xee);
    b.insert(b.end(), row.begin(), row.end());
    return b;
  };
  Bytes masks565;
  for (uint32_t mask : {0xf800u, 0x07e0u, 0x001fu}) hostile::put_le32(masks565, mask);
  const Bytes rgb24 = {0, 0, 255, 0, 255, 0, 0, 0};
  const Bytes rgb565 = {0x00, 0xf8, 0xe0, 0x07};
  for (uint32_t gap : {0u, 6u, 100u}) {
    INFO("gap " << gap);
    for (const Bytes& file : {bmp(24, 0, {}, rgb24, gap), bmp(16, 3, masks565, rgb565, gap)}) {
      Baked b = bake(file, "gap.bmp");
      INFO(b.status.message());
      REQUIRE(b.status.ok());
      CHECK(b.picture.texels == std::vector<Rgb>{{255, 0, 0}, {0, 255, 0}});
    }
  }
}

namespace {

// A 1 x 1 8-bit raw RGB PSD of (200, 100, 50) holding one image resource `id` (named "p").
Bytes psd_with_resource(uint16_t id, const Bytes& data) {
  Bytes b;
  hostile::append(b, std::string("8BPS"));
  b.insert(b.end(), {0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 8, 0, 3});
  hostile::put_be32(b, 0);  // colour mode data
  Bytes resource;
  hostile::append(resource, std::string("8BIM"));
  hostile::put_be16(resource, id);
  resource.insert(resource.end(), {1, 'p'});  // name "p": 2 bytes, even
  hostile::put_be32(resource, uint32_t(data.size()));
  resource.insert(resource.end(), data.begin(), data.end());
  if (data.size() % 2) resource.push_back(0);
  hostile::put_be32(b, uint32_t(resource.size()));
  b.insert(b.end(), resource.begin(), resource.end());
  hostile::put_be32(b, 0);  // layers and masks
  hostile::put_be16(b, 0);  // raw
  b.insert(b.end(), {200, 100, 50});
  return b;
}

}  // namespace

TEST_CASE("a PSD saved without its merged image is refused, naming the setting") {
  // Version info (1057): version 1, then hasRealMergedData. Photoshop without "Maximize
  // Compatibility" writes a blank stand-in for the merged image: it baked a blank texture.
  Baked blank = bake(psd_with_resource(1057, {0, 0, 0, 1, 0}), "paint.psd");
  REQUIRE_FALSE(blank.status.ok());
  CHECK(blank.status.code == baker::BakeError::UnsupportedFeature);
  CHECK(blank.status.message().find("Maximize Compatibility off") != std::string::npos);
  Baked real = bake(psd_with_resource(1057, {0, 0, 0, 1, 1}), "paint.psd");
  REQUIRE(real.status.ok());
  CHECK(real.picture.texels == std::vector<Rgb>{{200, 100, 50}});
}

TEST_CASE("a PSD's ICC profile resource is judged as other formats' profiles are") {
  auto psd = [](const Bytes& profile) { return psd_with_resource(1039, profile); };
  const Bytes p3 = icc_profile(kDisplayP3Xyz, 3, kSrgbCurve, 0, "Display P3 (sRGB compatible)");
  const Bytes srgb = icc_profile(kSrgbXyz, 3, kSrgbCurve, 0, "Generic monitor");
  baker::BakeSettings colour;  // the colour role: the one whose files declare a colour space
  Baked wide = bake(psd(p3), "paint.psd", colour);
  REQUIRE(wide.status.ok());
  CHECK(
      mentions(wide.warnings, "paint.psd: declares an ICC profile 'Display P3 (sRGB compatible)'"));
  Baked plain = bake(psd(srgb), "paint.psd", colour);
  REQUIRE(plain.status.ok());
  CHECK(plain.warnings.empty());
}

TEST_CASE("a GIF cut short says how many bytes it needs: more than it holds") {
  // 2 x 1 pixels: one data block of 4 LZW bytes (clear, 0, 1, end), then the block terminator.
  const Bytes whole = hostile::gif(2, 1, {4, 0x44, 0x01, 0x00, 0x00, 0x00, ';'});
  REQUIRE(bake(whole, "whole.gif").status.ok());
  for (size_t cut = 14; cut < whole.size() - 2; ++cut) {
    const Bytes part(whole.begin(), whole.begin() + long(cut));
    Baked b = bake(part, "cut.gif");
    INFO("cut at " << cut << ": " << b.status.message());
    REQUIRE_FALSE(b.status.ok());
    const std::string message = b.status.message();
    const size_t at = message.find("truncated: ");
    if (at == std::string::npos) continue;  // refused another way first (no pixel data)
    const uint64_t needed = std::stoull(message.substr(at + 11));
    CHECK(needed > cut);
    CHECK(message.find("the file holds " + std::to_string(cut)) != std::string::npos);
  }
}

TEST_CASE("a PNG cut inside a chunk's header before its image data says it is truncated") {
  Bytes png;
  hostile::append(png, std::string("\x89PNG\r\n\x1a\n"));
  hostile::png_chunk(png, "IHDR", {0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0});
  const size_t header_end = png.size();  // 33: the signature and IHDR
  hostile::png_chunk(png, "IDAT", hostile::zlib_stored(Bytes(4, 0)));
  for (size_t cut = header_end + 1; cut < header_end + 8; ++cut) {
    Baked b = bake(Bytes(png.begin(), png.begin() + long(cut)), "cut.png");
    INFO(b.status.message());
    CHECK(b.status.message().find("truncated: the PNG ends " + std::to_string(cut - header_end) +
                                  " byte(s) into a chunk's 8-byte header") != std::string::npos);
  }
  Bytes no_data(png.begin(), png.begin() + long(header_end));
  hostile::png_chunk(no_data, "IEND", {});
  no_data.push_back(0);  // a stray byte after IEND: not a cut header
  CHECK(bake(no_data, "empty.png").status.message().find("no IDAT chunk") != std::string::npos);
}
