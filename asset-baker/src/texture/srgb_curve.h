// The sRGB transfer curve for 8-bit codes, one table for everything in the baker that crosses it:
// the level filter (decoding every texel, encoding every filtered one) and the readback of HDR
// levels to 8-bit RGBA.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace baker {

// Decoded by table; encoded by rounding in sRGB space (the code whose interval holds the value),
// found through buckets of the linear range each narrower than the narrowest code
// (1 / 255 / 12.92, near black): a bucket's first code, or the next one.
struct SrgbCurve {
  static constexpr int kBuckets = 4096;
  std::array<float, 256> linear;  // of each code
  std::array<float, 257> lower;   // lower[v]: the linear value where code v starts; lower[256] > 1
  std::array<uint8_t, kBuckets + 1> bucket_code;

  SrgbCurve();

  // `x` must lie in 0..1 (callers clamp: they differ on NaN and infinities).
  uint8_t encode(float x) const {
    const uint32_t v = bucket_code[size_t(x * kBuckets)];
    return uint8_t(v + (x >= lower[v + 1]));
  }
};

// The tables, built once.
const SrgbCurve& srgb_curve();

}  // namespace baker
