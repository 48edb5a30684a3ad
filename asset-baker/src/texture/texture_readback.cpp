#include "texture/texture_readback.h"

#include "texture/block_compress.h"
#include "texture/srgb_curve.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace baker {
namespace {

float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: renormalise
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while ((mantissa & 0x400) == 0);
      bits = sign | uint32_t(127 - 15 - e) << 23 | (mantissa & 0x3ff) << 13;
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | mantissa << 13;
  } else {
    bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint8_t linear_to_srgb8(float v) {
  return srgb_curve().encode(std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f);
}

}  // namespace

std::vector<uint8_t> level_to_rgba8(const assetlib::TextureInfo& info, uint32_t mip,
                                    std::span<const std::byte> unpacked) {
  const assetlib::TextureMip& level = info.mips.at(mip);
  size_t texels = size_t(level.width) * level.height;
  std::vector<uint8_t> out(texels * 4);
  const std::byte* src = unpacked.data() + level.offset;
  if (is_block_format(info.format)) {
    decompress_level(info.format, src, level.width, level.height, out.data());
    return out;
  }
  switch (info.format) {
    case assetlib::TextureFormat::RGBA16_UNORM: {
      auto p = reinterpret_cast<const uint16_t*>(src);
      for (size_t i = 0; i < texels * 4; ++i) out[i] = uint8_t((p[i] + 128u) / 257u);
      break;
    }
    case assetlib::TextureFormat::RGBA16_SFLOAT: {
      auto p = reinterpret_cast<const uint16_t*>(src);
      for (size_t i = 0; i < texels * 4; ++i) {
        float v = half_to_float(p[i]);
        out[i] = i % 4 == 3 ? uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f))
                            : linear_to_srgb8(v);
      }
      break;
    }
    default: std::memcpy(out.data(), src, out.size()); break;
  }
  return out;
}

}  // namespace baker
