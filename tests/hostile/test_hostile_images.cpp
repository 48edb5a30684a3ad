// Hostile images through the baker's importer (baker::bake_texture, in memory): headers with zero
// or huge dimensions in every stb_image format, files that stop after the header, lying chunk
// lengths, 16-bit and palette images, truncated copies of real files. Each must end in a specific
// error naming the file (or a valid texture), never a crash, and never an allocation the file
// cannot justify.
#include "hostile_helpers.h"

#include "texture/bake_texture.h"

#include <assetlib/assetlib.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace assetlib;
using hostile::Bytes;

namespace {

struct Baked {
  baker::BakeStatus status;
  TextureInfo info;
  std::vector<std::byte> unpacked;
  std::vector<std::string> warnings;
};

Baked bake(const Bytes& source, const std::string& name, baker::BakeSettings settings = {}) {
  Baked b;
  AssetFile file;
  b.status = baker::bake_texture(hostile::as_bytes(source), name, settings, file, b.warnings);
  if (!b.status) return b;
  Status r = read_texture_info(file, b.info);
  INFO(r.message);
  REQUIRE(r.ok());
  b.unpacked.resize(b.info.total_size);
  REQUIRE(unpack_texture(b.info, file.blob.data(), file.blob.size(), b.unpacked.data(),
                         b.unpacked.size())
              .ok());
  return b;
}

// Fast settings for tests that only care whether a file is accepted.
baker::BakeSettings quick() {
  baker::BakeSettings s;
  s.texture.mips = false;
  s.texture.block_compression = false;
  return s;
}

void require_refused(const Baked& b, const std::string& name) {
  INFO(name << ": " << b.status.message());
  CHECK(b.status.blames_source());
  CHECK(b.status.file == name);
}

// Every stb_image format, `width` x `height`, with `pixels` bytes of data after the header.
std::vector<std::pair<std::string, Bytes>> all_formats(uint32_t width, uint32_t height,
                                                       const Bytes& pixels) {
  hostile::PngSpec png;
  png.width = width;
  png.height = height;
  png.with_idat = !pixels.empty();
  png.raw = pixels;
  return {{"x.png", hostile::png(png)},
          {"x.bmp", hostile::bmp24(width, height, pixels)},
          {"x.tga", hostile::tga24(width, height, pixels)},
          {"rle.tga", hostile::tga24(width, height, pixels, true)},
          {"x.ppm", hostile::pnm("P6", width, height, 255, pixels)},
          {"x.pgm", hostile::pnm("P5", width, height, 255, pixels)},
          {"x.hdr", hostile::hdr(width, height, pixels)},
          {"x.psd", hostile::psd_rgb(width, height, pixels)},
          {"x.gif", hostile::gif(uint16_t(std::min<uint32_t>(width, 65535)),
                                 uint16_t(std::min<uint32_t>(height, 65535)), pixels)}};
}

}  // namespace

TEST_CASE("image headers with a zero dimension are refused, naming the file") {
  for (auto [w, h] : {std::pair{0u, 4u}, {4u, 0u}, {0u, 0u}}) {
    for (const auto& [name, bytes] : all_formats(w, h, Bytes(64, 0x80))) {
      if (name == "x.gif") continue;  // GIF stores 16-bit sizes; 0 is covered by the others
      Baked b = bake(bytes, "textures/" + name, quick());
      require_refused(b, "textures/" + name);
    }
  }
}

TEST_CASE("image headers beyond 16384 on a side are refused before decoding, in every format") {
  for (auto [w, h] : {std::pair{16385u, 1u},
                      {1u, 16385u},
                      {65535u, 65535u},
                      {0x7fffffffu, 1u},
                      {0xffffffffu, 0xffffffffu}}) {
    for (const auto& [name, bytes] : all_formats(w, h, Bytes(256, 0x80))) {
      std::string path = "huge/" + name;
      // Refused before stb_image allocates the image: nothing near width x height is ever touched.
      hostile::ChildResult r = hostile::run_in_child([&] {
        Baked b = bake(bytes, path, quick());
        return b.status.ok() ? 1 : 0;
      });
      INFO(path << " " << w << "x" << h);
      CHECK(r.exited);
      CHECK(r.status == 0);
      CHECK(r.rss_growth_kib < 32 * 1024);
      Baked b = bake(bytes, path, quick());
      require_refused(b, path);
      bool names_limit =
          b.status.message().find("16384") != std::string::npos ||
          b.status.message().find("PNG sides are 1 to 2^31 - 1") != std::string::npos ||
          b.status.message().find("not a readable image") != std::string::npos;
      CHECK(names_limit);
      if (name == "x.png" && w == 0xffffffffu)  // stb_image refuses it as "too large" first
        CHECK_THAT(b.status.message(), Catch::Contains("PNG sides are 1 to 2^31 - 1"));
    }
  }
}

namespace {

void append_written(void* context, void* data, int size) {
  auto* out = static_cast<Bytes*>(context);
  out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}

// A PSD whose rows are PackBits literal packets (one per row, so width <= 128).
Bytes psd_rle(uint32_t width, uint32_t height, const Bytes& planes) {
  Bytes b = hostile::psd_rgb(width, height, {});
  b[b.size() - 1] = 1;  // compression: RLE
  for (uint32_t row = 0; row < 3 * height; ++row) hostile::put_be16(b, uint16_t(width + 1));
  for (uint32_t row = 0; row < 3 * height; ++row) {
    b.push_back(uint8_t(width - 1));
    b.insert(b.end(), planes.begin() + long(row * width), planes.begin() + long((row + 1) * width));
  }
  return b;
}

}  // namespace

// The other side of the checks below: complete files, raw and compressed, in every container the
// preflight walks, must be accepted and decode exactly as stb_image decodes them.
TEST_CASE("complete images in every format are accepted and bake exactly what stb_image decodes") {
  const int w = 13, h = 7;  // odd sizes: BMP rows need padding, RLE runs cross rows
  Bytes rgb(size_t(w * h * 3));
  for (size_t i = 0; i < rgb.size(); ++i)
    rgb[i] = uint8_t(i % 7 < 4 ? 200 : i * 37);  // runs and noise
  std::vector<float> radiance(rgb.begin(), rgb.end());
  std::vector<std::pair<std::string, Bytes>> files;
  auto written = [&](const std::string& name, auto write) {
    Bytes out;
    REQUIRE(write(&out) != 0);
    files.emplace_back(name, out);
  };
  written("w.png", [&](Bytes* o) {
    return stbi_write_png_to_func(append_written, o, w, h, 3, rgb.data(), w * 3);
  });
  written("w.bmp",
          [&](Bytes* o) { return stbi_write_bmp_to_func(append_written, o, w, h, 3, rgb.data()); });
  written("w.jpg", [&](Bytes* o) {
    return stbi_write_jpg_to_func(append_written, o, w, h, 3, rgb.data(), 90);
  });
  written("rle.tga",
          [&](Bytes* o) { return stbi_write_tga_to_func(append_written, o, w, h, 3, rgb.data()); });
  written("rle.hdr", [&](Bytes* o) {
    return stbi_write_hdr_to_func(append_written, o, w, h, 1, radiance.data());
  });
  written("flat.hdr", [&](Bytes* o) {
    return stbi_write_hdr_to_func(append_written, o, 4, h, 1, radiance.data());
  });
  Bytes padded;  // 24-bit BMP rows are 4-byte aligned
  for (int y = 0; y < h; ++y) {
    padded.insert(padded.end(), rgb.begin() + y * w * 3, rgb.begin() + (y + 1) * w * 3);
    padded.insert(padded.end(), size_t((4 - w * 3 % 4) % 4), 0);
  }
  files.emplace_back("padded.bmp", hostile::bmp24(w, h, padded));
  padded.resize(padded.size() - size_t((4 - w * 3 % 4) % 4));
  files.emplace_back("last-row-unpadded.bmp", hostile::bmp24(w, h, padded));
  files.emplace_back("raw.tga", hostile::tga24(w, h, rgb));
  files.emplace_back("w.ppm", hostile::pnm("P6", w, h, 255, rgb));
  files.emplace_back("w.pgm",
                     hostile::pnm("P5", w, h, 255, Bytes(rgb.begin(), rgb.begin() + w * h)));
  files.emplace_back("raw.psd", hostile::psd_rgb(w, h, rgb));
  files.emplace_back("rle.psd", psd_rle(w, h, rgb));
  files.emplace_back(
      "w.gif",
      hostile::file_bytes(hostile::corpus("obj2gltf/specs/data/box-complex-material/ambient.gif")));
  for (const auto& [name, bytes] : files) {
    Baked b = bake(bytes, name, quick());
    INFO(name << ": " << b.status.message());
    REQUIRE(b.status.ok());
    int sw = 0, sh = 0, comp = 0;
    if (name.ends_with(".hdr")) {
      CHECK(b.info.format == TextureFormat::RGBA16_SFLOAT);
      continue;
    }
    std::unique_ptr<stbi_uc, void (*)(void*)> expected(
        stbi_load_from_memory(bytes.data(), int(bytes.size()), &sw, &sh, &comp, 4),
        stbi_image_free);
    REQUIRE(expected);
    REQUIRE(b.info.width == uint32_t(sw));
    REQUIRE(b.info.height == uint32_t(sh));
    REQUIRE(b.unpacked.size() == size_t(sw) * size_t(sh) * 4);
    CHECK(std::memcmp(b.unpacked.data(), expected.get(), b.unpacked.size()) == 0);
  }
  // Where the last byte is needed (pixel data, or the PNG's IEND checksum), one byte less is
  // refused: the checks are exact, not approximate. (BMPs ending in row padding and JPEG/GIF are
  // not.)
  for (const auto& [name, bytes] : files) {
    if (name == "w.bmp" || name == "padded.bmp" || name == "w.jpg" || name == "w.gif") continue;
    Baked b = bake(Bytes(bytes.begin(), bytes.end() - 1), name, quick());
    require_refused(b, name);
  }
}

// FINDING F6 (docs/robustness.md): stb_image 2.27 reports success for BMP, TGA, PSD, PNM, HDR and
// GIF files that end right after their header; the baker then bakes zeros or uninitialised heap
// memory as a texture of the announced size. A file that cannot hold its pixels must be refused.
TEST_CASE("images that stop after their header are refused, in every format") {
  for (const auto& [name, bytes] : all_formats(64, 64, {})) {
    Baked b = bake(bytes, "short/" + name, quick());
    require_refused(b, "short/" + name);
  }
}

// FINDING F6, second half: a ratio cap refuses headers that announce far more than the file holds,
// but a raw (uncompressed) image cut in half still decodes, its missing rows zero. Silent loss of
// data: a truncated file must be refused (the decoder ran out of bytes).
TEST_CASE("raw images whose pixel data is cut short are refused, not baked with zeros") {
  for (const auto& [name, bytes] : all_formats(64, 64, Bytes(64 * 64 * 3 / 2, 0x40))) {
    if (name == "x.png" || name == "x.gif" || name == "rle.tga" || name == "x.pgm")
      continue;  // data not raw
    Baked b = bake(bytes, "half/" + name, quick());
    require_refused(b, "half/" + name);
  }
}

// Bakes `bytes` in a child whose address space is limited to 1 GiB more than it uses, and checks
// that the refusal comes from the baker (exit 0, message), not from an allocation failing.
void require_refused_in_1gib(const Bytes& bytes, const std::string& path) {
  int pipefd[2];
  REQUIRE(pipe(pipefd) == 0);
  hostile::ChildResult r = hostile::run_in_child(
      [&] {
        Baked b = bake(bytes, path, quick());
        ssize_t n = write(pipefd[1], b.status.message().data(),
                          std::min<size_t>(b.status.message().size(), 4000));
        (void)n;
        return b.status.ok() ? 1 : 0;
      },
      uint64_t(1) << 30);
  close(pipefd[1]);
  char buffer[4001] = {};
  ssize_t got = read(pipefd[0], buffer, 4000);
  close(pipefd[0]);
  std::string message(buffer, size_t(std::max<ssize_t>(got, 0)));
  INFO(path << ": " << message);
  CHECK(r.exited);
  CHECK(r.status == 0);
  CHECK(message.find("outofmem") == std::string::npos);
  CHECK(r.rss_growth_kib < 64 * 1024);
}

// FINDING F6 again, at the limit: a header of a few dozen bytes announcing 16384 x 16384 must not
// make the baker allocate gigabytes (1 GiB of RGBA8, 4 GiB of float for HDR, then the mip chain).
// Checked without sanitizers only (they reserve terabytes of address space).
TEST_CASE("a 16384 x 16384 header without pixels is refused without allocating the image") {
  if (hostile::kSanitized) {
    SUCCEED("skipped under sanitizers (they reserve terabytes of address space)");
    return;
  }
  for (const auto& [name, bytes] : all_formats(16384, 16384, {}))
    require_refused_in_1gib(bytes, "limit/" + name);
}

// FINDING F4: stb_image grows its IDAT buffer to the chunk length the file claims (up to 2 GiB)
// before reading it. A chunk longer than the rest of the file must be refused first.
TEST_CASE(
    "a PNG chunk claiming more bytes than the file holds is refused without a huge allocation") {
  hostile::PngSpec spec;
  spec.idat_claimed_length = 0x7ffffff0u;
  Bytes bytes = hostile::png(spec);
  Baked b = bake(bytes, "lying.png", quick());
  require_refused(b, "lying.png");
  if (!hostile::kSanitized) require_refused_in_1gib(bytes, "lying.png");
}

// FINDING F13: stb_image's HDR loader reads a truncated RLE scanline as an endless run of
// zero-length packets (CVE-2021-42715, fixed in stb_image 2.28, not in Debian's copy): a 49-byte
// file hangs the baker for ever. The child gets kHangSeconds. The same loop without truncation: a
// zero-length packet in the middle of a complete file.
TEST_CASE("a truncated or zero-length RLE packet in an HDR file is refused, not an endless loop") {
  Bytes zero_packet = {0x02, 0x02, 0x00, 0x08, 0x00};  // scanline header, then a packet of length 0
  for (int component = 0; component < 4; ++component)
    zero_packet.insert(zero_packet.end(), {0x88, 0x40});
  for (const Bytes& data : {Bytes{0x02, 0x02, 0x00, 0x08}, zero_packet}) {
    Bytes bytes = hostile::hdr(8, 1, data);
    hostile::ChildResult r = hostile::run_in_child([&] {
      alarm(hostile::kHangSeconds);
      Baked b = bake(bytes, "hang.hdr", quick());
      return b.status.ok() ? 1 : 0;
    });
    REQUIRE(r.exited);  // not killed by the alarm (else the call below would hang this process)
    REQUIRE(r.status == 0);
    require_refused(bake(bytes, "hang.hdr", quick()), "hang.hdr");
  }
}

// FINDING F2 (fixed by refusing them): stb_image 2.27 expands the channels of a 16-bit PNM with its
// 8-bit routine and leaves the samples big-endian, so the baker read twice the decoded buffer (a
// heap-buffer-overflow under ASan, garbage texels otherwise). A 16-bit PNM must either keep its
// values exactly or be refused with a clear error.
TEST_CASE("16-bit PNM images keep their 16-bit values or are refused") {
  baker::BakeSettings data = quick();
  data.texture.role = baker::TextureRole::Data;
  Bytes rgb;  // 2x2, big-endian samples
  const uint16_t samples[12] = {0, 1000, 65535, 30000, 2, 40000, 12345, 54321, 7, 65535, 0, 256};
  for (uint16_t s : samples) hostile::put_be16(rgb, s);
  Baked b = bake(hostile::pnm("P6", 2, 2, 65535, rgb), "wide.ppm", data);
  INFO(b.status.message());
  if (!b.status) {
    require_refused(b, "wide.ppm");
  } else {
    REQUIRE(b.info.format == TextureFormat::RGBA16_UNORM);
    std::vector<uint16_t> texels(16);
    std::memcpy(texels.data(), b.unpacked.data(), 32);
    for (size_t i = 0; i < 4; ++i) {
      INFO("texel " << i);
      CHECK(texels[i * 4 + 0] == samples[i * 3 + 0]);
      CHECK(texels[i * 4 + 1] == samples[i * 3 + 1]);
      CHECK(texels[i * 4 + 2] == samples[i * 3 + 2]);
      CHECK(texels[i * 4 + 3] == 65535);
    }
  }
  Bytes grey;
  for (uint16_t s : {uint16_t(1), uint16_t(65000), uint16_t(300), uint16_t(40000)})
    hostile::put_be16(grey, s);
  Baked g = bake(hostile::pnm("P5", 2, 2, 65535, grey), "wide.pgm", data);
  INFO(g.status.message());
  if (!g.status) {
    require_refused(g, "wide.pgm");
  } else {
    std::vector<uint16_t> gt(16);
    std::memcpy(gt.data(), g.unpacked.data(), 32);
    CHECK(gt[4] == 65000);
    CHECK(gt[5] == 65000);
    CHECK(gt[7] == 65535);
  }
}

TEST_CASE(
    "palette, grey, grey+alpha, 16-bit and interlaced PNGs decode to what stb_image decodes") {
  const char* files[] = {"primary/basn3p01.png", "primary/basn3p02.png", "primary/basn3p04.png",
                         "primary/basn3p08.png", "primary/basi3p08.png", "primary/tbbn3p08.png",
                         "primary/tp1n3p08.png", "primary/basn0g01.png", "primary/basn4a08.png",
                         "primary/basi6a08.png", "primary/s01n3p01.png", "primary/s39i3p04.png",
                         "16bit/basn2c16.png",   "16bit/basi4a16.png",   "16bit/tbwn0g16.png"};
  for (const char* file : files) {
    Bytes source = hostile::file_bytes(hostile::corpus(std::string("stb/tests/pngsuite/") + file));
    REQUIRE(!source.empty());
    // ui: pixel-exact RGBA8, no mips: the baked texels must be stb_image's 8-bit decode.
    baker::BakeSettings ui = quick();
    ui.texture.role = baker::TextureRole::Ui;
    Baked b = bake(source, file, ui);
    INFO(file << ": " << b.status.message());
    REQUIRE(b.status.ok());
    CHECK(b.info.format == TextureFormat::RGBA8_SRGB);
    int w = 0, h = 0, comp = 0;
    std::vector<uint8_t> expected;
    if (stbi_is_16_bit_from_memory(source.data(), int(source.size()))) {
      // 16-bit colour is rounded to 8 bits (docs/baker.md), not truncated as stb_image does.
      stbi_us* wide = stbi_load_16_from_memory(source.data(), int(source.size()), &w, &h, &comp, 4);
      REQUIRE(wide != nullptr);
      for (size_t i = 0; i < size_t(w) * size_t(h) * 4; ++i)
        expected.push_back(uint8_t((wide[i] + 128u) / 257u));
      stbi_image_free(wide);
    } else {
      stbi_uc* narrow = stbi_load_from_memory(source.data(), int(source.size()), &w, &h, &comp, 4);
      REQUIRE(narrow != nullptr);
      expected.assign(narrow, narrow + size_t(w) * size_t(h) * 4);
      stbi_image_free(narrow);
    }
    CHECK(b.info.width == uint32_t(w));
    CHECK(b.info.height == uint32_t(h));
    bool equal = b.unpacked.size() == expected.size() &&
                 std::memcmp(b.unpacked.data(), expected.data(), expected.size()) == 0;
    CHECK(equal);
    // And with the default pipeline (mips, block compression by role) it bakes.
    Baked full = bake(source, file);
    CHECK(full.status.ok());
    CHECK(full.info.mips.size() == texture_full_mip_count(full.info.width, full.info.height));
  }
  // Palette with transparency becomes BC3; without, BC1.
  CHECK(
      bake(hostile::file_bytes(hostile::corpus("stb/tests/pngsuite/primary/tbbn3p08.png")), "t.png")
          .info.format == TextureFormat::BC3_SRGB);
  CHECK(
      bake(hostile::file_bytes(hostile::corpus("stb/tests/pngsuite/primary/basn3p08.png")), "p.png")
          .info.format == TextureFormat::BC1_RGB_SRGB);
}

TEST_CASE("truncated copies of real PNGs are refused at every cut, the last byte included") {
  const std::string files[] = {hostile::asset("textures/bricks.png"),
                               hostile::asset("textures/leaf_alpha.png"),
                               hostile::asset("textures/gradient_16bit.png"),
                               hostile::corpus("stb/tests/pngsuite/primary/basn3p08.png"),
                               hostile::corpus("stb/tests/pngsuite/primary/basi2c08.png"),
                               hostile::corpus("stb/tests/pngsuite/16bit/basi6a16.png")};
  for (const std::string& path : files) {
    Bytes whole = hostile::file_bytes(path);
    REQUIRE(whole.size() > 64);
    std::set<size_t> cuts = {0,
                             1,
                             7,
                             8,
                             12,
                             16,
                             29,
                             33,
                             34,
                             41,
                             whole.size() - 12,
                             whole.size() - 8,
                             whole.size() - 5,
                             whole.size() - 4,
                             whole.size() - 1};
    for (size_t i = 1; i < 24; ++i) cuts.insert(whole.size() * i / 24);
    for (size_t cut : cuts) {
      Bytes part(whole.begin(), whole.begin() + long(cut));
      Baked b = bake(part, "cut.png", quick());
      INFO(path << " cut at " << cut << " of " << whole.size() << ": " << b.status.message());
      require_refused(b,
                      "cut.png");  // even one missing only the IEND checksum: the file is truncated
    }
  }
}

TEST_CASE(
    "truncated and corrupted JPEG and GIF files never crash, and what is accepted is a valid "
    "texture") {
  const std::string files[] = {
      hostile::corpus("obj2gltf/specs/data/box-complex-material/emission.jpg"),
      hostile::corpus("obj2gltf/specs/data/box-complex-material/specular.jpeg"),
      hostile::corpus("obj2gltf/specs/data/box-complex-material/ambient.gif"),
      hostile::corpus("draco-testdata/trailing_zero.jpg")};
  for (const std::string& path : files) {
    Bytes whole = hostile::file_bytes(path);
    REQUIRE(whole.size() > 64);
    for (size_t i = 0; i < 32; ++i) {
      Bytes part(whole.begin(), whole.begin() + long(whole.size() * i / 32));
      Baked b =
          bake(part, "cut.jpg", quick());  // bake() checks that accepted output reads and unpacks
      if (!b.status) require_refused(b, "cut.jpg");
      Bytes flipped = whole;
      for (size_t k = whole.size() * i / 32; k < whole.size(); k += 97) flipped[k] ^= 0x5a;
      Baked c = bake(flipped, "flipped.jpg", quick());
      if (!c.status) require_refused(c, "flipped.jpg");
    }
  }
}

TEST_CASE("empty, tiny and non-image files are refused, naming the file") {
  Bytes obj;
  hostile::append(obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  for (const Bytes& bytes : {Bytes{}, Bytes{0x89}, Bytes{0x89, 'P', 'N', 'G'}, Bytes{'B', 'M'},
                             Bytes{'P', '6'}, obj, Bytes(4096, 0), Bytes(4096, 0xff)}) {
    Baked b = bake(bytes, "textures/none.png", quick());
    require_refused(b, "textures/none.png");
  }
}

TEST_CASE("the broken PNGs of the corpus are refused, naming the file") {
  for (const char* file :
       {"stb/tests/pngsuite/corrupt/xc1n0g08.png", "stb/tests/pngsuite/corrupt/xc9n2c08.png",
        "stb/tests/pngsuite/corrupt/xcsn0g01.png", "stb/tests/pngsuite/corrupt/xd0n2c08.png",
        "stb/tests/pngsuite/corrupt/xd3n2c08.png", "stb/tests/pngsuite/corrupt/xd9n2c08.png",
        "stb/tests/pngsuite/corrupt/xcrn0g04.png", "stb/tests/pngsuite/corrupt/xdtn0g01.png",
        "stb/tests/pngsuite/corrupt/xhdn0g08.png", "stb/tests/pngsuite/corrupt/xlfn0g04.png",
        "stb/tests/pngsuite/corrupt/xs1n0g01.png", "stb/tests/pngsuite/corrupt/xs2n0g01.png",
        "stb/tests/pngsuite/corrupt/xs4n0g01.png", "stb/tests/pngsuite/corrupt/xs7n0g01.png",
        "libpng/contrib/testpngs/crashers/huge_IDAT.png",
        "libpng/contrib/testpngs/crashers/badcrc.png",
        "libpng/contrib/testpngs/crashers/bad_iCCP.png",
        "libpng/contrib/testpngs/crashers/empty_ancillary_chunks.png"}) {
    std::string path = hostile::corpus(file);
    if (!std::ifstream(path)) continue;  // not every corpus revision has every file
    Baked b = bake(hostile::file_bytes(path), file, quick());
    if (std::string(file).find("empty_ancillary") == std::string::npos) {
      require_refused(b, file);
    } else if (!b.status) {
      require_refused(b, file);  // only odd (empty text chunks): baking it is right too
    }
  }
}

// FINDING F40: stb_image never checks CRCs, so a PNG whose header or image data was damaged
// baked as whatever its bytes decode to, with exit 0.
TEST_CASE("a PNG chunk that fails its CRC is refused if it shapes the pixels, naming the chunk") {
  hostile::PngSpec spec;
  spec.color_type = 3;
  spec.depth = 8;
  spec.palette = {255, 0, 0, 0, 255, 0};
  spec.trns = {255, 128};
  const Bytes good = hostile::png(spec);
  REQUIRE(bake(good, "good.png", quick()).status);

  // Byte offsets of each chunk's CRC in `good`: signature 8, then length, type, payload, CRC.
  std::vector<std::pair<std::string, size_t>> crcs;
  for (size_t at = 8; at + 12 <= good.size();) {
    uint32_t length = uint32_t(good[at]) << 24 | uint32_t(good[at + 1]) << 16 |
                      uint32_t(good[at + 2]) << 8 | good[at + 3];
    crcs.emplace_back(std::string(good.begin() + long(at) + 4, good.begin() + long(at) + 8),
                      at + 8 + length);
    at += 12 + length;
  }
  REQUIRE(crcs.size() == 5);  // IHDR PLTE tRNS IDAT IEND
  for (const auto& [type, crc_at] : crcs) {
    Bytes damaged = good;
    damaged[crc_at] ^= 0x01;
    Baked b = bake(damaged, "damaged.png", quick());
    INFO(type);
    require_refused(b, "damaged.png");
    CHECK_THAT(b.status.message(),
               Catch::Contains("PNG chunk '" + type + "' does not match its CRC"));
  }

  // eXIf turns the baked pixels: checked too.
  Bytes with_exif(good.begin(), good.begin() + 33);  // signature and IHDR
  hostile::png_chunk(with_exif, "eXIf", {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 0});
  with_exif.back() ^= 0x01;
  with_exif.insert(with_exif.end(), good.begin() + 33, good.end());
  Baked exif = bake(with_exif, "exif.png", quick());
  require_refused(exif, "exif.png");
  CHECK_THAT(exif.status.message(), Catch::Contains("PNG chunk 'eXIf' does not match its CRC"));

  // An ancillary chunk that changes nothing baked is not checked (libpng only warns).
  Bytes with_text(good.begin(), good.begin() + 33);  // signature and IHDR
  hostile::png_chunk(with_text, "tEXt", {'a', 0, 'b'});
  with_text.back() ^= 0x01;
  with_text.insert(with_text.end(), good.begin() + 33, good.end());
  CHECK(bake(with_text, "text.png", quick()).status);
}

// stb_image reports the last format it tried, "unknown image type", for any PNG it refuses.
TEST_CASE("a damaged PNG is refused with what is wrong in it, not 'unknown image type'") {
  using Catch::Contains;
  auto message_of = [](const Bytes& bytes) {
    Baked b = bake(bytes, "damaged.png", quick());
    require_refused(b, "damaged.png");
    return b.status.message();
  };
  hostile::PngSpec colour_type_1;
  colour_type_1.color_type = 1;
  CHECK_THAT(message_of(hostile::png(colour_type_1)),
             Contains("declares colour type 1, which PNG does not define"));

  hostile::PngSpec rgb_4_bits;  // stb_image decodes it
  rgb_4_bits.color_type = 2;
  rgb_4_bits.depth = 4;
  CHECK_THAT(message_of(hostile::png(rgb_4_bits)),
             Contains("declares 4-bit samples for colour type 2, which PNG does not allow"));

  hostile::PngSpec palette;
  palette.color_type = 3;
  palette.palette = {255, 0, 0};
  Bytes good = hostile::png(palette);
  Bytes huge_chunk(good.begin(), good.begin() + 33);  // signature and IHDR
  hostile::put_be32(huge_chunk, 0x3fffffff);
  hostile::append(huge_chunk, "bKGD");
  huge_chunk.insert(huge_chunk.end(), 8, 0);
  CHECK_THAT(message_of(huge_chunk), Contains("PNG chunk 'bKGD' claims 1073741823 bytes"));

  Bytes replaced = good;
  replaced[4] = '\n';  // CR LF became LF LF
  CHECK_THAT(message_of(replaced), Contains("its 8-byte signature is damaged"));
  Bytes dropped = good;
  dropped.erase(dropped.begin() + 4);  // CR LF became LF
  CHECK_THAT(message_of(dropped), Contains("its 8-byte signature is damaged"));

  // A palette image needs its one palette before the image data.
  hostile::PngSpec no_palette;
  no_palette.color_type = 3;
  CHECK_THAT(message_of(hostile::png(no_palette)),
             Contains("the palette PNG has no PLTE chunk before its image data"));
  Bytes two_palettes(good.begin(), good.begin() + 33);
  hostile::png_chunk(two_palettes, "PLTE", {0, 0, 255});
  two_palettes.insert(two_palettes.end(), good.begin() + 33, good.end());
  CHECK_THAT(message_of(two_palettes), Contains("the PNG has 2 PLTE chunks (one at most)"));

  // MNG and JNG share most of the signature: they are other formats, named as such.
  Bytes mng = good;
  mng[0] = 0x8a;
  mng[1] = 'M';
  CHECK_THAT(message_of(mng), Contains("MNG is not supported"));
}
