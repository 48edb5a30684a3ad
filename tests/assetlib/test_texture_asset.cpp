// Texture assets: round trips for every format and codec, mip layout, partial unpacks.
#include "test_helpers.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace assetlib;

namespace {

std::vector<uint8_t> unpack_all(const AssetFile& file, TextureInfo& info) {
  REQUIRE(read_texture_info(file, info).ok());
  std::vector<uint8_t> out(info.total_size);
  REQUIRE(unpack_texture(info, file.blob.data(), file.blob.size(), out.data(), out.size()).ok());
  return out;
}

}  // namespace

TEST_CASE("make_texture_info lays mips out contiguously from level 0, non-power-of-two too") {
  TextureInfo info = make_texture_info(TextureFormat::RGBA8_UNORM, 100, 37, 99);
  REQUIRE(info.mips.size() == 7);  // 100x37 -> 50x18 -> 25x9 -> 12x4 -> 6x2 -> 3x1 -> 1x1
  CHECK(info.mips[1].width == 50);
  CHECK(info.mips[1].height == 18);
  CHECK(info.mips[6].width == 1);
  CHECK(info.mips[6].height == 1);
  uint64_t offset = 0;
  for (const TextureMip& mip : info.mips) {
    CHECK(mip.offset == offset);
    CHECK(mip.size == uint64_t(mip.width) * mip.height * 4);
    offset += mip.size;
  }
  CHECK(info.total_size == offset);
  CHECK(texture_full_mip_count(1, 1) == 1);
  CHECK(texture_full_mip_count(4096, 1) == 13);
}

TEST_CASE("block-compressed levels are whole 4x4 blocks, down to 1x1") {
  TextureInfo bc1 = make_texture_info(TextureFormat::BC1_RGB_SRGB, 100, 37, 99);
  CHECK(bc1.mips[0].size == 25 * 10 * 8);  // 100x37 -> 25x10 blocks of 8 bytes
  CHECK(bc1.mips[6].size == 8);            // 1x1 still takes a whole block
  TextureInfo bc5 = make_texture_info(TextureFormat::BC5_UNORM, 64, 64, 7);
  CHECK(bc5.mips[0].size == 16 * 16 * 16);
  CHECK(bc5.mips[5].size == 16);  // 2x2
  CHECK(texture_block_size(TextureFormat::BC3_SRGB) == 4);
  CHECK(texture_block_size(TextureFormat::RGBA8_UNORM) == 1);
}

TEST_CASE("formats map to their VkFormat values and names") {
  CHECK(texture_format_vk(TextureFormat::BC1_RGB_SRGB) == 132);
  CHECK(texture_format_vk(TextureFormat::BC3_SRGB) == 138);
  CHECK(texture_format_vk(TextureFormat::BC4_UNORM) == 139);
  CHECK(texture_format_vk(TextureFormat::BC5_UNORM) == 141);
  CHECK(texture_format_vk(TextureFormat::RGBA16_UNORM) == 91);
  CHECK(texture_format_vk(TextureFormat::RGBA16_SFLOAT) == 97);
  CHECK(texture_format_vk(TextureFormat::RGBA8_UNORM) == 37);  // VK_FORMAT_R8G8B8A8_UNORM
  CHECK(texture_format_vk(TextureFormat::RGBA8_SRGB) == 43);   // VK_FORMAT_R8G8B8A8_SRGB
  CHECK(texture_format_vk(TextureFormat::Unknown) == 0);
  for (uint32_t v = 1; v <= 10; ++v) {
    auto f = TextureFormat(v);
    CHECK(texture_format_vk(f) != 0);
    CHECK(texture_format_from_name(texture_format_name(f)) == f);
  }
}

TEST_CASE("textures round-trip bit-exactly for every format and codec") {
  auto format =
      GENERATE(TextureFormat::RGBA8_UNORM, TextureFormat::RGBA8_SRGB, TextureFormat::RGBA16_UNORM,
               TextureFormat::RGBA16_SFLOAT, TextureFormat::BC1_RGB_SRGB, TextureFormat::BC3_SRGB,
               TextureFormat::BC4_UNORM, TextureFormat::BC5_UNORM);
  auto compression = GENERATE(Compression::LZ4, Compression::None);
  auto hc_level = GENERATE(0, 9);
  TextureInfo info = make_texture_info(format, 200, 120, 8);
  info.original_file = "textures/round trip.png";
  std::vector<uint8_t> pixels = test::gradient_pixels(info.total_size, 3);
  PackOptions options;
  options.compression = compression;
  options.lz4_hc_level = hc_level;
  AssetFile file;
  REQUIRE(pack_texture(info, pixels.data(), pixels.size(), file, options).ok());

  TextureInfo read;
  CHECK(unpack_all(file, read) == pixels);
  CHECK(read.format == format);
  CHECK(read.width == 200);
  CHECK(read.height == 120);
  CHECK(read.mips.size() == 8);
  CHECK(read.compression == compression);
  CHECK(read.original_file == "textures/round trip.png");
  if (compression == Compression::LZ4) CHECK(file.blob.size() < pixels.size() * 3 / 4);
  if (compression == Compression::None) CHECK(file.blob.size() == pixels.size());
}

TEST_CASE("large levels split into bounded chunks that never straddle two levels") {
  PackOptions options;
  options.chunk_size = 64 * 1024;
  AssetFile file = test::packed_texture(512, 512, 10, options);
  TextureInfo info;
  REQUIRE(read_texture_info(file, info).ok());
  CHECK(info.chunks.size() >= 16 + 9);  // level 0 alone is 1 MiB = 16 chunks
  for (const Chunk& c : info.chunks) {
    CHECK(c.raw_size <= options.chunk_size);
    bool inside_one_level = false;
    for (const TextureMip& mip : info.mips) {
      inside_one_level |=
          c.raw_offset >= mip.offset && c.raw_offset + c.raw_size <= mip.offset + mip.size;
    }
    CHECK(inside_one_level);
  }
}

TEST_CASE("incompressible chunks are stored raw, compressible ones compressed") {
  TextureInfo info = make_texture_info(TextureFormat::RGBA8_UNORM, 256, 256, 1);
  std::vector<uint8_t> noise = test::noise_bytes(info.total_size);
  AssetFile file;
  REQUIRE(pack_texture(info, noise.data(), noise.size(), file).ok());
  TextureInfo read;
  CHECK(unpack_all(file, read) == noise);
  for (const Chunk& c : read.chunks) CHECK(c.packed_size == c.raw_size);
  CHECK(read.compression == Compression::LZ4);  // the file's codec; these chunks just skip it

  AssetFile smooth = test::packed_texture(256, 256, 1);
  REQUIRE(read_texture_info(smooth, read).ok());
  for (const Chunk& c : read.chunks) CHECK(c.packed_size < c.raw_size);
}

TEST_CASE("unpack_texture_mips unpacks from level K without touching larger levels") {
  PackOptions options;
  options.chunk_size = 4096;
  AssetFile file = test::packed_texture(128, 64, 8, options);
  TextureInfo info;
  std::vector<uint8_t> all = unpack_all(file, info);
  for (uint32_t first = 0; first < info.mips.size(); ++first) {
    uint64_t offset = info.mips[first].offset;
    std::vector<uint8_t> tail(info.total_size - offset);
    // Wreck every chunk of the skipped levels: a read of them would fail.
    AssetFile damaged = file;
    for (const Chunk& c : info.chunks) {
      if (c.raw_offset < offset) std::memset(&damaged.blob[c.packed_offset], 0xFF, c.packed_size);
    }
    REQUIRE(unpack_texture_mips(info, first, damaged.blob.data(), damaged.blob.size(), tail.data(),
                                tail.size())
                .ok());
    CHECK(std::equal(tail.begin(), tail.end(), all.begin() + std::ptrdiff_t(offset)));
  }
  std::vector<uint8_t> dst(info.total_size);
  CHECK(unpack_texture_mips(info, 8, file.blob.data(), file.blob.size(), dst.data(), dst.size())
            .code == ErrorCode::InvalidArgument);
}

TEST_CASE("chunks unpack independently, in any order") {
  PackOptions options;
  options.chunk_size = 8192;
  AssetFile file = test::packed_texture(64, 64, 7, options);
  TextureInfo info;
  std::vector<uint8_t> expected = unpack_all(file, info);
  std::vector<uint8_t> out(info.total_size);
  for (size_t i = info.chunks.size(); i-- > 0;) {
    const Chunk& c = info.chunks[i];
    REQUIRE(unpack_chunk(info.compression, c, file.blob.data(), file.blob.size(),
                         out.data() + c.raw_offset, out.size() - c.raw_offset)
                .ok());
  }
  CHECK(out == expected);
}

TEST_CASE("pack_texture rejects inconsistent input") {
  TextureInfo info = make_texture_info(TextureFormat::RGBA8_UNORM, 16, 16, 1);
  std::vector<uint8_t> pixels(info.total_size);
  AssetFile file;
  CHECK(pack_texture(info, pixels.data(), pixels.size() - 4, file).code ==
        ErrorCode::InvalidArgument);
  TextureInfo unknown = info;
  unknown.format = TextureFormat::Unknown;
  CHECK(pack_texture(unknown, pixels.data(), pixels.size(), file).code == ErrorCode::InvalidValue);
  PackOptions bad;
  bad.chunk_size = 10;
  CHECK(pack_texture(info, pixels.data(), pixels.size(), file, bad).code ==
        ErrorCode::InvalidArgument);
}

TEST_CASE("packing is deterministic: same input, same bytes") {
  AssetFile a = test::packed_texture(300, 200, 9);
  AssetFile b = test::packed_texture(300, 200, 9);
  CHECK(serialize_binaryfile(a) == serialize_binaryfile(b));
}
