// The texture pipeline on real corpus textures: formats by role, mip layout, BCn quality floors.
#include "../hostile/hostile_helpers.h"
#include "corpus_files.h"
#include "gltf_fixture.h"

#include "texture/alpha_coverage.h"
#include "texture/bake_texture.h"
#include "texture/block_compress.h"
#include "texture/texture_quality.h"
#include "texture/texture_readback.h"
#include "texture/texture_role.h"

#include <stb/stb_image_write.h>
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <span>

using namespace assetlib;
using baker::TextureRole;

namespace {

struct Baked {
  TextureInfo info;
  std::vector<std::byte> unpacked;
  std::vector<std::string> warnings;
  double psnr = 0;
};

Baked bake(const std::string& path, const std::string& name, baker::BakeSettings settings = {}) {
  std::vector<std::byte> source = test::file_bytes(path);
  REQUIRE(!source.empty());
  Baked b;
  AssetFile file;
  baker::BakeStatus s = baker::bake_texture(source, name, settings, file, b.warnings);
  INFO(s.message());
  REQUIRE(s.ok());
  REQUIRE(read_texture_info(file, b.info).ok());
  b.unpacked.resize(b.info.total_size);
  REQUIRE(unpack_texture(b.info, file.blob.data(), file.blob.size(), b.unpacked.data(),
                         b.unpacked.size())
              .ok());
  b.psnr = baker::texture_psnr(b.info, b.unpacked, source).value_or(-1);
  return b;
}

void check_full_chain(const TextureInfo& info, uint32_t width, uint32_t height) {
  CHECK(info.width == width);
  CHECK(info.height == height);
  REQUIRE(info.mips.size() == texture_full_mip_count(width, height));
  uint64_t offset = 0;
  for (size_t i = 0; i < info.mips.size(); ++i) {
    CHECK(info.mips[i].width == std::max(1u, width >> i));
    CHECK(info.mips[i].offset == offset);
    CHECK(info.mips[i].size ==
          texture_level_size(info.format, info.mips[i].width, info.mips[i].height));
    offset += info.mips[i].size;
  }
  CHECK(info.mips.back().width == 1);
  CHECK(info.mips.back().height == 1);
}

}  // namespace

TEST_CASE("roles come from file names") {
  CHECK(baker::role_from_name("a/wall_n.png") == TextureRole::Normal);
  CHECK(baker::role_from_name("a/wall.n.png") == TextureRole::Normal);
  CHECK(baker::role_from_name("Avocado_normal.png") == TextureRole::Normal);
  CHECK(baker::role_from_name("x/WaterBottle_occlusionRoughnessMetallic.png") == TextureRole::Data);
  CHECK(baker::role_from_name("Default_AO.jpg") == TextureRole::Data);
  CHECK(baker::role_from_name("textures/roughness.png") == TextureRole::Data);
  CHECK(baker::role_from_name("game/ui/button.png") == TextureRole::Ui);
  CHECK(baker::role_from_name("bricks.png") == TextureRole::Color);
  CHECK(baker::role_from_name("nothing_new.png") == TextureRole::Color);
}

TEST_CASE("real colour textures become sRGB BC1 with a full mip chain and a PSNR floor") {
  Baked b =
      bake(test::corpus("intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF/Default_albedo.jpg"),
           "DamagedHelmet/Default_albedo.jpg");
  CHECK(b.info.format == TextureFormat::BC1_RGB_SRGB);
  check_full_chain(b.info, 2048, 2048);
  CHECK(b.info.total_size == 2796216);  // BC1: 4 bits per texel over the whole chain
  CHECK(b.psnr >= 33.0);
}

TEST_CASE("colour with alpha becomes BC3, premultiplied-aware mips keep transparent texels dark") {
  Baked b = bake(test::asset("textures/leaf_alpha.png"), "textures/leaf_alpha.png");
  CHECK(b.info.format == TextureFormat::BC3_SRGB);
  check_full_chain(b.info, 128, 128);
  CHECK(b.psnr >= 38.0);
}

TEST_CASE("normal maps become BC5 and data maps BC1/BC4 UNORM") {
  Baked normal =
      bake(test::corpus("intellij-gltf-viewer-plugin/models/Avocado/glTF/Avocado_normal.png"),
           "Avocado/Avocado_normal.png");
  CHECK(normal.info.format == TextureFormat::BC5_UNORM);
  CHECK(normal.psnr >= 35.0);
  Baked orm = bake(test::corpus("intellij-gltf-viewer-plugin/models/WaterBottle/glTF/"
                                "WaterBottle_occlusionRoughnessMetallic.png"),
                   "WaterBottle/WaterBottle_occlusionRoughnessMetallic.png");
  CHECK(orm.info.format == TextureFormat::BC1_RGB_UNORM);
  CHECK(orm.psnr >= 33.0);
  Baked grey = bake(test::asset("textures/roughness.png"), "textures/roughness.png");
  CHECK(grey.info.format == TextureFormat::BC4_UNORM);
  CHECK(grey.psnr >= 40.0);
  // DamagedHelmet's occlusion map: grey, saved as an RGB JPEG.
  Baked ao =
      bake(test::corpus("intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF/Default_AO.jpg"),
           "DamagedHelmet/Default_AO.jpg");
  CHECK(ao.info.format == TextureFormat::BC4_UNORM);
  CHECK(ao.psnr >= 38.0);
}

TEST_CASE("ui textures stay pixel-exact RGBA8 without mips, non-power-of-two included") {
  Baked b = bake(test::asset("textures/ui/button.png"), "textures/ui/button.png");
  CHECK(b.info.format == TextureFormat::RGBA8_SRGB);
  CHECK(b.info.mips.size() == 1);
  CHECK(b.info.width == 100);
  CHECK(b.info.height == 40);
  CHECK(std::isinf(b.psnr));
}

TEST_CASE("non-power-of-two textures block-compress with padded edge blocks") {
  baker::BakeSettings settings;
  settings.texture.role = TextureRole::Color;
  Baked b = bake(test::asset("textures/ui/button.png"), "button.png", settings);
  CHECK(b.info.format == TextureFormat::BC3_SRGB);  // it has transparent texels
  check_full_chain(b.info, 100, 40);
  CHECK(b.info.mips[0].size == 25 * 10 * 16);
  CHECK(b.psnr >= 30.0);
}

TEST_CASE("16-bit data keeps 16 bits and 16-bit colour is rounded to 8 with a warning") {
  baker::BakeSettings data;
  data.texture.role = TextureRole::Data;
  Baked wide = bake(test::corpus("stb/tests/pngsuite/16bit/basn2c16.png"), "basn2c16.png", data);
  CHECK(wide.info.format == TextureFormat::RGBA16_UNORM);
  CHECK(wide.warnings.empty());
  Baked colour = bake(test::corpus("stb/tests/pngsuite/16bit/basn2c16.png"), "basn2c16.png");
  CHECK(colour.info.format == TextureFormat::RGBA8_SRGB);
  // PngSuite files declare a linear gamma (gAMA 1.0): as colour, that is said too.
  REQUIRE(colour.warnings.size() == 2);
  CHECK(colour.warnings[0].find("16-bit colour") != std::string::npos);
  CHECK(colour.warnings[1].find("declares a gamma of 1/1.00") != std::string::npos);
}

TEST_CASE("settings turn off mips and block compression and cap the size") {
  baker::BakeSettings settings;
  settings.texture.mips = false;
  settings.texture.block_compression = false;
  settings.texture.max_size = 64;
  Baked b = bake(test::asset("textures/bricks.png"), "textures/bricks.png", settings);
  CHECK(b.info.format == TextureFormat::RGBA8_SRGB);
  CHECK(b.info.mips.size() == 1);
  CHECK(b.info.width == 64);
}

TEST_CASE("broken images give a clear error naming the file, never a crash") {
  for (const char* path :
       {"stb/tests/pngsuite/corrupt/xcrn0g04.png", "libpng/contrib/testpngs/crashers/huge_IDAT.png",
        "libpng/contrib/testpngs/crashers/bad_iCCP.png",
        "stb/tests/pngsuite/corrupt/xd9n2c08.png"}) {
    std::vector<std::byte> bytes = test::file_bytes(test::corpus(path));
    AssetFile file;
    std::vector<std::string> warnings;
    baker::BakeStatus s = baker::bake_texture(bytes, path, {}, file, warnings);
    CHECK(s.blames_source());
    CHECK(s.file == path);
  }
}

TEST_CASE("BCn decoders invert the encoders on flat blocks") {
  for (TextureFormat f :
       {TextureFormat::BC1_RGB_UNORM, TextureFormat::BC3_UNORM, TextureFormat::BC4_UNORM}) {
    std::vector<uint8_t> rgba(8 * 8 * 4);
    for (size_t i = 0; i < rgba.size(); i += 4)
      rgba[i] = rgba[i + 1] = rgba[i + 2] = 200, rgba[i + 3] = 255;
    std::vector<std::byte> blocks(texture_level_size(f, 8, 8));
    baker::compress_level(f, rgba.data(), 8, 8, blocks.data());
    std::vector<uint8_t> back(rgba.size());
    baker::decompress_level(f, blocks.data(), 8, 8, back.data());
    for (size_t i = 0; i < rgba.size(); ++i) CHECK(std::abs(int(back[i]) - int(rgba[i])) <= 2);
  }
}

namespace {

// A Radiance file of `width` x `height` RGB floats, made in memory by stb_image_write.
std::vector<std::byte> radiance(int width, int height, const std::vector<float>& rgb) {
  std::vector<std::byte> out;
  auto append = [](void* context, void* data, int size) {
    auto bytes = static_cast<std::vector<std::byte>*>(context);
    bytes->insert(bytes->end(), static_cast<std::byte*>(data),
                  static_cast<std::byte*>(data) + size);
  };
  REQUIRE(stbi_write_hdr_to_func(append, &out, width, height, 3, rgb.data()));
  return out;
}

// Bakes the Radiance file `hdr` and unpacks every level as half floats; `info` gets its layout.
std::vector<uint16_t> baked_halves(const std::vector<std::byte>& hdr, const std::string& name,
                                   const baker::BakeSettings& settings, TextureInfo& info,
                                   std::vector<std::string>& warnings) {
  AssetFile file;
  REQUIRE(baker::bake_texture(hdr, name, settings, file, warnings).ok());
  REQUIRE(read_texture_info(file, info).ok());
  std::vector<uint16_t> halves(info.total_size / 2);
  REQUIRE(unpack_texture(info, file.blob.data(), file.blob.size(), halves.data(), info.total_size)
              .ok());
  return halves;
}

}  // namespace

TEST_CASE(".hdr sources become RGBA16_SFLOAT half floats, linear, values above 1 kept") {
  // A 16x8 Radiance file made in memory: a horizontal ramp from 0 to 4 (HDR range).
  std::vector<float> rgb(16 * 8 * 3);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = float((i / 3) % 16) * 0.25f;
  TextureInfo info;
  std::vector<std::string> warnings;
  std::vector<uint16_t> halves = baked_halves(radiance(16, 8, rgb), "sky.hdr", {}, info, warnings);
  CHECK(info.format == TextureFormat::RGBA16_SFLOAT);
  check_full_chain(info, 16, 8);
  // Texel 15 of row 0 holds 3.75: half 0x4380. Alpha is 1.0: 0x3C00.
  CHECK(halves[15 * 4] == 0x4380);
  CHECK(halves[15 * 4 + 3] == 0x3C00);
  CHECK(halves[0] == 0);
}

TEST_CASE(".hdr values beyond the half float range are clamped to 65504, with a warning") {
  // 2x1: the sun (100000 in R), and 70000 in B of the next texel; every level stays finite.
  const std::vector<float> rgb = {100000.0f, 2.0f, 0.5f, 1.0f, 70000.0f, 0.25f};
  TextureInfo info;
  std::vector<std::string> warnings;
  std::vector<uint16_t> halves = baked_halves(radiance(2, 1, rgb), "sun.hdr", {}, info, warnings);
  CHECK(halves[0] == 0x7bff);  // 65504, not infinity (0x7c00)
  CHECK(halves[5] == 0x7bff);
  for (uint16_t h : halves) CHECK((h & 0x7c00) != 0x7c00);  // no infinity or NaN at any level
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("sun.hdr: 2 value(s) beyond 65504, the largest half float (up to ") == 0);
  // A bright block beside dark texels: the resize filters overshoot past the clamped values in
  // the smaller levels, and in level 0 when max_size scales it.
  std::vector<float> block(64 * 64 * 3, 1.0f);
  for (int y = 16; y < 48; ++y)
    for (int x = 16; x < 48; ++x)
      for (int c = 0; c < 3; ++c) block[size_t((y * 64 + x) * 3 + c)] = 1e6f;
  const std::vector<std::byte> bright = radiance(64, 64, block);
  for (uint32_t max_size : {0u, 48u}) {
    INFO("max_size " << max_size);
    baker::BakeSettings settings;
    settings.texture.max_size = max_size;
    std::vector<uint16_t> levels = baked_halves(bright, "sun.hdr", settings, info, warnings);
    size_t infinite = 0;
    for (uint16_t h : levels) infinite += (h & 0x7c00) == 0x7c00;
    CHECK(infinite == 0);
  }
}

TEST_CASE(".hdr EXPOSURE lines are named in a warning, the pixels baked as stored") {
  const std::vector<float> rgb = {1.0f, 2.0f, 0.5f};
  const std::vector<std::byte> hdr = radiance(1, 1, rgb);
  // Two factors before the header's empty line: they multiply.
  const std::string exposure = "EXPOSURE=2.5\nEXPOSURE= 2\n";
  std::string text(reinterpret_cast<const char*>(hdr.data()), hdr.size());
  size_t end_of_header = text.find("\n\n");
  REQUIRE(end_of_header != std::string::npos);
  text.insert(end_of_header + 1, exposure);
  std::vector<std::byte> with_exposure(text.size());
  std::memcpy(with_exposure.data(), text.data(), text.size());
  for (const auto& [file, warned] : {std::pair{hdr, false}, std::pair{with_exposure, true}}) {
    AssetFile out;
    std::vector<std::string> warnings;
    REQUIRE(baker::bake_texture(file, "lamp.hdr", {}, out, warnings).ok());
    CHECK(warnings.size() == (warned ? 1u : 0u));
    if (warned)
      CHECK(warnings[0] ==
            "lamp.hdr: declares EXPOSURE=5 (its pixels were multiplied by that); baked as stored");
  }
}

TEST_CASE(".hdr primaries and colour corrections other than Radiance's are named in a warning") {
  const std::vector<std::byte> hdr = radiance(1, 1, {1.0f, 2.0f, 0.5f});
  auto with_line = [&](const std::string& line) {
    std::string text(reinterpret_cast<const char*>(hdr.data()), hdr.size());
    text.insert(text.find("\n\n") + 1, line + "\n");
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
  };
  const std::string rec2020 = "PRIMARIES=0.708 0.292 0.170 0.797 0.131 0.046 0.3127 0.3290";
  for (const auto& [line, warned] :
       {std::pair{rec2020, true}, std::pair{std::string("COLORCORR=2 1 1"), true},
        std::pair{std::string("PRIMARIES=0.640 0.330 0.290 0.600 0.150 0.060 0.333 0.333"), false},
        std::pair{std::string("COLORCORR=1 1 1"), false}}) {
    INFO(line);
    AssetFile out;
    std::vector<std::string> warnings;
    REQUIRE(baker::bake_texture(with_line(line), "lamp.hdr", {}, out, warnings).ok());
    REQUIRE(warnings.size() == (warned ? 1u : 0u));
    if (warned) {
      CHECK(warnings[0] ==
            "lamp.hdr: declares " + line + "; baked as stored, without colour conversion");
    }
  }
}

namespace {

void append_to(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
}

// 16 x 16, black but for a white first column and a white first row: level 1's last column (last
// row) takes in the white only when the filter wraps round horizontally (vertically).
std::string edge_png() {
  std::vector<uint8_t> rgb(16 * 16 * 3, 0);
  for (size_t i = 0; i < 16; ++i) {
    for (size_t c = 0; c < 3; ++c) rgb[(i * 16) * 3 + c] = rgb[i * 3 + c] = 255;
  }
  std::string png;
  REQUIRE(stbi_write_png_to_func(append_to, &png, 16, 16, 3, rgb.data(), 0));
  return png;
}

// `png` baked without block compression under `settings` (the role of `format`), unpacked.
Baked bake_uncompressed(const std::string& png, const char* name, baker::BakeSettings settings,
                        TextureFormat format) {
  settings.texture.role =
      format == TextureFormat::RGBA8_SRGB ? TextureRole::Color : TextureRole::Data;
  settings.texture.block_compression = false;
  Baked b;
  AssetFile file;
  REQUIRE(
      baker::bake_texture(std::as_bytes(std::span(png)), name, settings, file, b.warnings).ok());
  REQUIRE(read_texture_info(file, b.info).ok());
  REQUIRE(b.info.format == format);
  b.unpacked.resize(b.info.total_size);
  REQUIRE(unpack_texture(b.info, file.blob.data(), file.blob.size(), b.unpacked.data(),
                         b.unpacked.size())
              .ok());
  return b;
}

// The edge image baked as RGBA8 data, its mip filters reading beyond the edges as `edges` say.
Baked bake_edges(baker::SlotSampling edges) {
  baker::BakeSettings settings;
  settings.texture.sampling = edges;
  return bake_uncompressed(edge_png(), "edges.png", settings, TextureFormat::RGBA8_UNORM);
}

// Red of texel (x, y) of level 1 (8 x 8).
int level1(const Baked& b, size_t x, size_t y) {
  return int(b.unpacked[b.info.mips[1].offset + (y * 8 + x) * 4]);
}

}  // namespace

TEST_CASE("mip levels filter across the edges as the texture's samplers wrap it") {
  using assetlib::TextureWrap;
  const TextureWrap repeat = TextureWrap::Repeat, clamp = TextureWrap::ClampToEdge,
                    mirror = TextureWrap::MirroredRepeat;
  // A tiling texture's last column and row blend with its first (else a seam shows between tiles).
  Baked tiled = bake_edges({repeat, repeat, {}});
  CHECK(level1(tiled, 7, 4) > 0);
  CHECK(level1(tiled, 4, 7) > 0);
  // Each axis as its own wrap says.
  Baked clamp_u = bake_edges({clamp, repeat, {}});
  CHECK(level1(clamp_u, 7, 4) == 0);
  CHECK(level1(clamp_u, 4, 7) > 0);
  Baked clamp_v = bake_edges({repeat, clamp, {}});
  CHECK(level1(clamp_v, 7, 4) > 0);
  CHECK(level1(clamp_v, 4, 7) == 0);
  // Mirrored is filtered as clamped (the texel beyond the edge is the edge texel either way).
  Baked mirrored = bake_edges({mirror, mirror, {}});
  Baked clamped = bake_edges({clamp, clamp, {}});
  CHECK(mirrored.unpacked == clamped.unpacked);
  CHECK(level1(clamped, 7, 4) == 0);
  // The interior is the same whatever the edges.
  CHECK(level1(tiled, 3, 4) == level1(clamped, 3, 4));
}

TEST_CASE("an image inside a glTF filters its mips as the sampler of its texture wraps it") {
  using assetlib::TextureWrap;
  const std::string png = edge_png();
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 1, 2}, 4);
  while (g.bin.size() % 4) g.bin += '\0';
  g.doc["bufferViews"].push_back(
      {{"buffer", 0}, {"byteOffset", g.bin.size()}, {"byteLength", png.size()}});
  g.bin += png;
  g.doc["images"] = {{{"bufferView", g.doc["bufferViews"].size() - 1}, {"mimeType", "image/png"}}};
  g.doc["samplers"] = {{{"wrapS", 33071}, {"wrapT", 33648}}};
  g.doc["textures"] = {{{"source", 0}, {"sampler", 0}}};
  g.doc["materials"] = {{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
  g.doc["meshes"][0]["primitives"][0]["material"] = 0;
  test::BakedScene scene = test::bake_gltf_bytes(g.bytes(), "x.gltf");
  INFO(scene.status.message());
  REQUIRE(scene.status.ok());
  const baker::BakedAsset* texture = scene.find("x.gltf#image/0");
  REQUIRE(texture);
  // The same texture as the image baked on its own with the sampler's edges; not as repeated.
  auto baked_alone = [&](baker::SlotSampling edges) {
    baker::BakeSettings settings = test::float_vertex_settings();
    settings.texture.role = TextureRole::Color;
    settings.texture.sampling = edges;
    AssetFile file;
    std::vector<std::string> warnings;
    REQUIRE(baker::bake_texture(std::as_bytes(std::span(png)), "x.gltf#image/0", settings, file,
                                warnings)
                .ok());
    return file.blob;
  };
  CHECK(texture->file.blob ==
        baked_alone({TextureWrap::ClampToEdge, TextureWrap::MirroredRepeat, {}}));
  CHECK(texture->file.blob != baked_alone({}));
}

namespace {

// 64 x 64 leaves: white texels, 30 % of them opaque at random, the rest fully transparent. Filtered
// as is, fewer and fewer texels of each smaller level pass an alpha test at 0.5.
std::string cut_out_png() {
  std::vector<uint8_t> rgba(64 * 64 * 4, 255);
  uint32_t state = 12345;
  for (size_t i = 0; i < 64 * 64; ++i) {
    state = state * 1664525u + 1013904223u;
    rgba[i * 4 + 3] = (state >> 8) % 100 < 30 ? 255 : 0;
  }
  std::string png;
  REQUIRE(stbi_write_png_to_func(append_to, &png, 64, 64, 4, rgba.data(), 0));
  return png;
}

// The fraction of level `level`'s texels (RGBA8) whose alpha passes 0.5.
double coverage(const TextureInfo& info, const std::vector<std::byte>& unpacked, size_t level) {
  const size_t count = size_t(info.mips[level].width) * info.mips[level].height;
  size_t passing = 0;
  for (size_t i = 0; i < count; ++i)
    passing += uint8_t(unpacked[info.mips[level].offset + i * 4 + 3]) >= 128;
  return double(passing) / double(count);
}

Baked bake_cut_out(const std::string& png, std::optional<float> cutoff, uint32_t max_size = 0) {
  baker::BakeSettings settings;
  settings.texture.max_size = max_size;
  settings.texture.sampling.alpha_cutoff = cutoff;
  return bake_uncompressed(png, "leaves.png", settings, TextureFormat::RGBA8_SRGB);
}

}  // namespace

TEST_CASE("a cut-out texture keeps its alpha coverage in every mip level") {
  const std::string png = cut_out_png();
  Baked plain = bake_cut_out(png, std::nullopt);
  Baked masked = bake_cut_out(png, 0.5f);
  const double level0 = coverage(plain.info, plain.unpacked, 0);
  REQUIRE(level0 == Approx(0.3).margin(0.03));
  // Filtered as is, the leaves thin out (the case the test is about).
  CHECK(coverage(plain.info, plain.unpacked, 2) < 0.15);
  CHECK(coverage(masked.info, masked.unpacked, 0) == level0);
  for (size_t level = 1; level + 2 < masked.info.mips.size(); ++level) {
    INFO("level " << level);
    CHECK(coverage(masked.info, masked.unpacked, level) == Approx(level0).margin(0.04));
  }
  // A level 0 scaled down by max_size keeps the source's coverage too.
  Baked smaller = bake_cut_out(png, 0.5f, 16);
  CHECK(coverage(smaller.info, smaller.unpacked, 0) == Approx(level0).margin(0.04));
}

TEST_CASE("keep_alpha_coverage moves the alpha that passes first onto the cutoff, keeping order") {
  // Alphas 0, 50, 100, 150, 200, 250: at cutoff 0.5 (128) the top 3 pass.
  std::vector<std::byte> texels(6 * 4, std::byte{0});
  for (size_t i = 0; i < 6; ++i) texels[i * 4 + 3] = std::byte(uint8_t(50 * i));
  auto alpha = [&](size_t i) { return int(texels[i * 4 + 3]); };
  CHECK(baker::alpha_coverage(texels.data(), 6, 0.5f) == Approx(0.5));
  // Asked for 4 of 6: 100 moves onto 128 (and everything by the same factor), 50 stays below.
  baker::keep_alpha_coverage(texels.data(), 6, 0.5f, 4.0 / 6);
  CHECK(alpha(2) == 128);
  CHECK(alpha(1) < 128);
  CHECK(alpha(5) == 255);  // 320, clamped
  CHECK(baker::alpha_coverage(texels.data(), 6, 0.5f) == Approx(4.0 / 6));
  // Already as close as it can come: unchanged.
  std::vector<std::byte> before = texels;
  baker::keep_alpha_coverage(texels.data(), 6, 0.5f, 4.0 / 6);
  CHECK(texels == before);
  // A cutoff written as a decimal passes the alpha a shader passes: 51 / 255 is 0.2.
  std::vector<std::byte> fifth(4, std::byte{0});
  fifth[3] = std::byte{51};
  CHECK(baker::alpha_coverage(fifth.data(), 1, 0.2f) == 1.0);
}

TEST_CASE("keep_alpha_coverage keeps a thin wire: of two equal misses, the one passing more") {
  // 4 texels at 64 (a one-texel wire averaged with its neighbours), 28 transparent: level 0 had 1
  // of 32 pass. No texel passing and all 4 passing miss by as much; the wire must not vanish.
  std::vector<std::byte> texels(32 * 4, std::byte{0});
  for (size_t i = 0; i < 4; ++i) texels[i * 4 + 3] = std::byte{64};
  baker::keep_alpha_coverage(texels.data(), 32, 0.5f, 2.0 / 32);
  CHECK(baker::alpha_coverage(texels.data(), 32, 0.5f) == Approx(4.0 / 32));
  // However far the wanted count is, one texel that can pass does while level 0 had some pass.
  std::vector<std::byte> faint(64 * 4, std::byte{0});
  faint[3] = std::byte{10};
  baker::keep_alpha_coverage(faint.data(), 64, 0.5f, 0.001);
  CHECK(baker::alpha_coverage(faint.data(), 64, 0.5f) == Approx(1.0 / 64));
}

TEST_CASE("an image inside a glTF keeps its alpha coverage where a masked material uses it") {
  const std::string png = cut_out_png();
  auto bake_with = [&](const char* alpha_mode) {
    test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 1, 2}, 4);
    while (g.bin.size() % 4) g.bin += '\0';
    g.doc["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", g.bin.size()}, {"byteLength", png.size()}});
    g.bin += png;
    g.doc["images"] = {
        {{"bufferView", g.doc["bufferViews"].size() - 1}, {"mimeType", "image/png"}}};
    g.doc["textures"] = {{{"source", 0}}};
    g.doc["materials"] = {{{"alphaMode", alpha_mode},
                           {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
    g.doc["meshes"][0]["primitives"][0]["material"] = 0;
    baker::BakeSettings settings = test::float_vertex_settings();
    settings.texture.block_compression = false;
    test::BakedScene scene = test::bake_gltf_bytes(g.bytes(), "x.gltf", {}, settings);
    INFO(scene.status.message());
    REQUIRE(scene.status.ok());
    const baker::BakedAsset* texture = scene.find("x.gltf#image/0");
    REQUIRE(texture);
    Baked b;
    REQUIRE(read_texture_info(texture->file, b.info).ok());
    b.unpacked.resize(b.info.total_size);
    REQUIRE(unpack_texture(b.info, texture->file.blob.data(), texture->file.blob.size(),
                           b.unpacked.data(), b.unpacked.size())
                .ok());
    return b;
  };
  Baked masked = bake_with("MASK"), blended = bake_with("BLEND");
  const double level0 = coverage(masked.info, masked.unpacked, 0);
  CHECK(coverage(masked.info, masked.unpacked, 2) == Approx(level0).margin(0.04));
  CHECK(coverage(blended.info, blended.unpacked, 2) < 0.15);
}

namespace {

// A 2 x 2 normal map whose columns hold the normals `left` and `right` (unit, x y z), baked
// uncompressed with `depth` bits per channel (8 or 16): level 1, one texel, is their average.
// Returns that texel's normal, decoded.
std::array<float, 3> level1_normal(std::array<float, 3> left, std::array<float, 3> right,
                                   uint8_t depth) {
  hostile::PngSpec spec;
  spec.width = spec.height = 2;
  spec.color_type = 2;
  spec.depth = depth;
  const float top = depth == 16 ? 65535.0f : 255.0f;
  for (int row = 0; row < 2; ++row) {
    spec.raw.push_back(0);  // filter: none
    for (const auto& n : {left, right}) {
      for (float c : n) {
        const auto v = uint16_t(std::lround((c + 1.0f) / 2.0f * top));
        if (depth == 16) spec.raw.push_back(uint8_t(v >> 8));
        spec.raw.push_back(uint8_t(v & 0xff));
      }
    }
  }
  const hostile::Bytes png = hostile::png(spec);
  baker::BakeSettings settings;
  settings.texture.role = TextureRole::Normal;
  settings.texture.block_compression = false;
  AssetFile file;
  std::vector<std::string> warnings;
  REQUIRE(
      baker::bake_texture(std::as_bytes(std::span(png)), "n.png", settings, file, warnings).ok());
  TextureInfo info;
  REQUIRE(read_texture_info(file, info).ok());
  REQUIRE(info.format == (depth == 16 ? TextureFormat::RGBA16_UNORM : TextureFormat::RGBA8_UNORM));
  REQUIRE(info.mips.size() == 2);
  std::vector<std::byte> texels(info.total_size);
  REQUIRE(
      unpack_texture(info, file.blob.data(), file.blob.size(), texels.data(), texels.size()).ok());
  std::array<float, 3> n{};
  for (size_t k = 0; k < 3; ++k) {
    float stored = 0;
    if (depth == 16) {
      uint16_t v = 0;
      std::memcpy(&v, texels.data() + info.mips[1].offset + 2 * k, 2);
      stored = float(v);
    } else {
      stored = float(uint8_t(texels[info.mips[1].offset + k]));
    }
    n[k] = stored / top * 2.0f - 1.0f;
  }
  return n;
}

float length(const std::array<float, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

}  // namespace

TEST_CASE("normal map mips are unit length at 8 and 16 bits, and normals that cancel are flat") {
  for (uint8_t depth : {uint8_t(8), uint8_t(16)}) {
    INFO(int(depth) << "-bit");
    // Tilted apart: their average is 0.9 long before renormalising.
    std::array<float, 3> tilted = level1_normal({0.6f, 0, 0.8f}, {0, 0.6f, 0.8f}, depth);
    CHECK(length(tilted) == Approx(1.0f).margin(depth == 16 ? 1e-4 : 1e-2));
    CHECK(tilted[0] == Approx(tilted[1]).margin(1e-2));
    // +X beside -X: nothing is left of a direction; flat, not a made-up diagonal.
    std::array<float, 3> cancelled = level1_normal({1, 0, 0}, {-1, 0, 0}, depth);
    CHECK(cancelled[0] == Approx(0).margin(1e-2));
    CHECK(cancelled[1] == Approx(0).margin(1e-2));
    CHECK(cancelled[2] == Approx(1).margin(1e-2));
  }
  // A 16-bit map converted from 8 bits (each value x 257) keeps the 8-bit map's 0, 128, which is
  // 0.0039 rather than 0: +X beside -X is still flat (was a 45-degree tilt, 0 0.71 0.71).
  const float from_8_bit = 128.0f * 257.0f / 65535.0f * 2.0f - 1.0f;
  std::array<float, 3> converted =
      level1_normal({1, from_8_bit, from_8_bit}, {-1, from_8_bit, from_8_bit}, 16);
  CHECK(converted[0] == Approx(0).margin(1e-2));
  CHECK(converted[1] == Approx(0).margin(1e-2));
  CHECK(converted[2] == Approx(1).margin(1e-2));
}

TEST_CASE(".hdr mips never go below the darkest source value, and keep values below 2^-14") {
  // A sun of 49920 (within the half range) in a sky of 1.0: the default Mitchell filter rang down
  // to -227 around it, in the mips and in a level 0 that max_size shrinks.
  std::vector<float> sky(64 * 32 * 3, 1.0f);
  for (int c = 0; c < 3; ++c) sky[size_t((10 * 64 + 20) * 3 + c)] = 49920.0f;
  for (uint32_t max_size : {0u, 32u}) {
    INFO("max_size " << max_size);
    baker::BakeSettings settings;
    settings.texture.max_size = max_size;
    TextureInfo info;
    std::vector<std::string> warnings;
    std::vector<uint16_t> halves =
        baked_halves(radiance(64, 32, sky), "sky.hdr", settings, info, warnings);
    size_t below_sky = 0;
    for (uint16_t h : halves) below_sky += h < 0x3c00 || (h & 0x8000);  // below 1.0, or negative
    CHECK(below_sky == 0);
  }
  // Half floats hold values down to 2^-24 as subnormals: 1e-5 is stored (was flushed to 0).
  TextureInfo info;
  std::vector<std::string> warnings;
  baker::BakeSettings flat;
  flat.texture.mips = false;
  // (RGBE shares one exponent per texel: each value gets a texel of its own.)
  for (float value : {1e-5f, 3e-6f}) {
    INFO(value);
    std::vector<uint16_t> dark =
        baked_halves(radiance(1, 1, {value, value, value}), "night.hdr", flat, info, warnings);
    REQUIRE(dark.size() == 4);
    CHECK(dark[0] > 0);
    CHECK(dark[0] < 0x0400);  // a subnormal half: below 2^-14
    CHECK(float(dark[0]) * 0x1p-24f == Approx(value).epsilon(0.03));
  }
}
