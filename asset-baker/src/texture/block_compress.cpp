#include "texture/block_compress.h"

#include "common/parallel_for.h"

#include <stb/stb_dxt.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

namespace baker {
namespace {

using assetlib::TextureFormat;

// One 4x4 block gathered from the level, clamping at the edges.
std::array<uint8_t, 64> gather_block(const uint8_t* rgba, uint32_t width, uint32_t height,
                                     uint32_t bx, uint32_t by) {
  std::array<uint8_t, 64> block;
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      uint32_t sx = std::min(bx * 4 + x, width - 1), sy = std::min(by * 4 + y, height - 1);
      std::memcpy(&block[(y * 4 + x) * 4], rgba + (size_t(sy) * width + sx) * 4, 4);
    }
  }
  return block;
}

void encode_block(TextureFormat format, const std::array<uint8_t, 64>& block, unsigned char* out) {
  switch (format) {
    case TextureFormat::BC1_RGB_UNORM:
    case TextureFormat::BC1_RGB_SRGB:
      stb_compress_dxt_block(out, block.data(), 0, STB_DXT_HIGHQUAL);
      break;
    case TextureFormat::BC3_UNORM:
    case TextureFormat::BC3_SRGB:
      stb_compress_dxt_block(out, block.data(), 1, STB_DXT_HIGHQUAL);
      break;
    case TextureFormat::BC4_UNORM: {
      uint8_t r[16];
      for (int i = 0; i < 16; ++i) r[i] = block[size_t(i) * 4];
      stb_compress_bc4_block(out, r);
      break;
    }
    default: {  // BC5
      uint8_t rg[32];
      for (int i = 0; i < 16; ++i) {
        rg[i * 2] = block[size_t(i) * 4];
        rg[i * 2 + 1] = block[size_t(i) * 4 + 1];
      }
      stb_compress_bc5_block(out, rg);
      break;
    }
  }
}

size_t block_bytes(TextureFormat format) {
  return size_t(assetlib::texture_level_size(format, 4, 4));
}

// --- decoding ---

void rgb565(uint16_t c, float out[3]) {
  out[0] = float((c >> 11) & 31) * 255.0f / 31.0f;
  out[1] = float((c >> 5) & 63) * 255.0f / 63.0f;
  out[2] = float(c & 31) * 255.0f / 31.0f;
}

// The colour part of BC1/BC3: 8 bytes, two 565 endpoints and 2-bit indices.
void decode_colour(const uint8_t* b, bool bc1, uint8_t texels[16][4]) {
  uint16_t c0 = uint16_t(b[0] | b[1] << 8), c1 = uint16_t(b[2] | b[3] << 8);
  float p[4][4] = {};
  rgb565(c0, p[0]);
  rgb565(c1, p[1]);
  bool four = !bc1 || c0 > c1;
  for (int k = 0; k < 3; ++k) {
    p[2][k] = four ? (2 * p[0][k] + p[1][k]) / 3 : (p[0][k] + p[1][k]) / 2;
    p[3][k] = four ? (p[0][k] + 2 * p[1][k]) / 3 : 0;
  }
  for (int i = 0; i < 4; ++i) p[i][3] = (!four && i == 3) ? 0 : 255;
  uint32_t bits =
      uint32_t(b[4]) | uint32_t(b[5]) << 8 | uint32_t(b[6]) << 16 | uint32_t(b[7]) << 24;
  for (int i = 0; i < 16; ++i) {
    const float* c = p[(bits >> (2 * i)) & 3];
    for (int k = 0; k < 4; ++k) texels[i][k] = uint8_t(std::lround(c[k]));
  }
}

// BC4 (and each half of BC5, and BC3 alpha): two 8-bit endpoints and 3-bit indices.
void decode_channel(const uint8_t* b, uint8_t out[16]) {
  float e[8];
  e[0] = b[0];
  e[1] = b[1];
  if (b[0] > b[1]) {
    for (int i = 1; i < 7; ++i) e[i + 1] = (float(7 - i) * e[0] + float(i) * e[1]) / 7.0f;
  } else {
    for (int i = 1; i < 5; ++i) e[i + 1] = (float(5 - i) * e[0] + float(i) * e[1]) / 5.0f;
    e[6] = 0;
    e[7] = 255;
  }
  uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits |= uint64_t(b[2 + i]) << (8 * i);
  for (int i = 0; i < 16; ++i) out[i] = uint8_t(std::lround(e[(bits >> (3 * i)) & 7]));
}

void decode_block(TextureFormat format, const uint8_t* b, uint8_t texels[16][4]) {
  uint8_t a[16], r[16], g[16];
  switch (format) {
    case TextureFormat::BC1_RGB_UNORM:
    case TextureFormat::BC1_RGB_SRGB:
      decode_colour(b, true, texels);
      for (int i = 0; i < 16; ++i)
        texels[i][3] = 255;  // the opaque variant has no punch-through alpha
      break;
    case TextureFormat::BC3_UNORM:
    case TextureFormat::BC3_SRGB:
      decode_channel(b, a);
      decode_colour(b + 8, false, texels);
      for (int i = 0; i < 16; ++i) texels[i][3] = a[i];
      break;
    case TextureFormat::BC4_UNORM:
      decode_channel(b, r);
      for (int i = 0; i < 16; ++i)
        texels[i][0] = texels[i][1] = texels[i][2] = r[i], texels[i][3] = 255;
      break;
    default:  // BC5: a normal map; rebuild z as the shader would
      decode_channel(b, r);
      decode_channel(b + 8, g);
      for (int i = 0; i < 16; ++i) {
        float x = float(r[i]) / 127.5f - 1.0f, y = float(g[i]) / 127.5f - 1.0f;
        float z = std::sqrt(std::max(0.0f, 1.0f - x * x - y * y));
        texels[i][0] = r[i];
        texels[i][1] = g[i];
        texels[i][2] = uint8_t(std::lround((z + 1.0f) * 127.5f));
        texels[i][3] = 255;
      }
      break;
  }
}

}  // namespace

bool is_block_format(TextureFormat format) { return assetlib::texture_block_size(format) == 4; }

void compress_level(TextureFormat format, const uint8_t* rgba, uint32_t width, uint32_t height,
                    std::byte* dst, unsigned threads) {
  uint32_t blocks_x = (width + 3) / 4, blocks_y = (height + 3) / 4;
  size_t bytes = block_bytes(format);
  auto encode_rows = [&](uint32_t first, uint32_t last) {
    for (uint32_t by = first; by < last; ++by) {
      for (uint32_t bx = 0; bx < blocks_x; ++bx) {
        auto out = reinterpret_cast<unsigned char*>(dst + (size_t(by) * blocks_x + bx) * bytes);
        encode_block(format, gather_block(rgba, width, height, bx, by), out);
      }
    }
  };
  // Threads only pay off on large levels; each takes a contiguous band of block rows, so the
  // output is the same whatever the thread count.
  threads = std::clamp(threads, 1u, 16u);
  if (uint64_t(blocks_x) * blocks_y < 4096) threads = 1;
  uint32_t band = (blocks_y + threads - 1) / threads;
  parallel_for(threads, threads, [&](size_t t) {
    encode_rows(uint32_t(t) * band, std::min(blocks_y, uint32_t(t + 1) * band));
  });
}

void decompress_level(TextureFormat format, const std::byte* blocks, uint32_t width,
                      uint32_t height, uint8_t* rgba) {
  uint32_t blocks_x = (width + 3) / 4, blocks_y = (height + 3) / 4;
  size_t bytes = block_bytes(format);
  for (uint32_t by = 0; by < blocks_y; ++by) {
    for (uint32_t bx = 0; bx < blocks_x; ++bx) {
      uint8_t texels[16][4];
      decode_block(format,
                   reinterpret_cast<const uint8_t*>(blocks + (size_t(by) * blocks_x + bx) * bytes),
                   texels);
      for (uint32_t y = 0; y < 4; ++y) {
        for (uint32_t x = 0; x < 4; ++x) {
          uint32_t px = bx * 4 + x, py = by * 4 + y;
          if (px < width && py < height)
            std::memcpy(rgba + (size_t(py) * width + px) * 4, texels[y * 4 + x], 4);
        }
      }
    }
  }
}

}  // namespace baker
