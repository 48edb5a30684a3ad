// The level filter (texture/level_filter.h) against a reference written from its definition in
// doubles: kernels sampled where stb_image_resize samples them, normalised per output texel, edges
// wrapped or clamped; and the properties mips rely on (flat stays flat, sRGB codes come back,
// transparent texels lend no colour).
#include <catch2/catch.hpp>

#include "../cpu_time.h"
#include "texture/level_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using baker::filter_level;
using baker::LevelEdge;
using baker::LevelFilter;
using baker::LevelKernel;
using baker::LevelTexels;

namespace {

double mitchell(double x) {
  x = std::fabs(x);
  if (x < 1) return (16 + x * x * (21 * x - 36)) / 18;
  if (x < 2) return (32 + x * (-60 + x * (36 - 7 * x))) / 18;
  return 0;
}

double tent(double x) { return std::fabs(x) <= 1 ? 1 - std::fabs(x) : 0; }

// Weights of output texel o over source texels (by index, edges applied), summing to 1.
std::vector<double> reference_weights(uint32_t in, uint32_t out, uint32_t o, LevelKernel kernel,
                                      LevelEdge edge) {
  std::vector<double> w(in, 0.0);
  if (in == out) {
    w[o] = 1;
    return w;
  }
  const double ratio = double(out) / in;
  const double reach = (kernel == LevelKernel::Mitchell ? 2 : 1) / ratio + 1;  // source texels
  const double centre = (o + 0.5) / ratio;
  double total = 0;
  for (auto i = int64_t(std::floor(centre - reach)); i <= int64_t(std::ceil(centre + reach)); ++i) {
    const double x = (o + 0.5) - (double(i) + 0.5) * ratio;
    const double k = (kernel == LevelKernel::Mitchell ? mitchell(x) : tent(x)) * ratio;
    const int64_t n = in;
    const int64_t at =
        edge == LevelEdge::Wrap ? ((i % n) + n) % n : std::clamp<int64_t>(i, 0, n - 1);
    w[size_t(at)] += k;
    total += k;
  }
  for (double& v : w) v /= total;
  return w;
}

// The level filtered in doubles, channel by channel (linear texels only).
std::vector<double> reference(const std::vector<double>& src, uint32_t sw, uint32_t sh, uint32_t dw,
                              uint32_t dh, const LevelFilter& f) {
  std::vector<double> out(size_t(dw) * dh * 4, 0.0);
  for (uint32_t y = 0; y < dh; ++y) {
    const std::vector<double> wy = reference_weights(sh, dh, y, f.kernel, f.edge_v);
    for (uint32_t x = 0; x < dw; ++x) {
      const std::vector<double> wx = reference_weights(sw, dw, x, f.kernel, f.edge_u);
      for (uint32_t j = 0; j < sh; ++j) {
        for (uint32_t i = 0; i < sw; ++i) {
          const double w = wx[i] * wy[j];
          if (w == 0) continue;
          for (size_t c = 0; c < 4; ++c)
            out[(size_t(y) * dw + x) * 4 + c] += w * src[(size_t(j) * sw + i) * 4 + c];
        }
      }
    }
  }
  return out;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = uint8_t(rng());
  return v;
}

std::vector<uint8_t> filtered8(const LevelFilter& f, const std::vector<uint8_t>& src, uint32_t sw,
                               uint32_t sh, uint32_t dw, uint32_t dh) {
  std::vector<uint8_t> dst(size_t(dw) * dh * 4);
  filter_level(f, reinterpret_cast<const std::byte*>(src.data()), sw, sh,
               reinterpret_cast<std::byte*>(dst.data()), dw, dh);
  return dst;
}

// Each Unorm8 output texel within rounding of the reference.
void check_unorm8(const LevelFilter& f, uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh) {
  const std::vector<uint8_t> src = random_bytes(size_t(sw) * sh * 4, sw * 131 + sh);
  std::vector<double> linear(src.begin(), src.end());
  for (double& v : linear) v /= 255;
  const std::vector<double> want = reference(linear, sw, sh, dw, dh, f);
  const std::vector<uint8_t> got = filtered8(f, src, sw, sh, dw, dh);
  size_t off = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double expected = std::clamp(want[i], 0.0, 1.0) * 255;
    off += std::fabs(got[i] - expected) > 0.5 + 1e-3;
  }
  INFO(sw << "x" << sh << " -> " << dw << "x" << dh);
  CHECK(off == 0);
}

}  // namespace

TEST_CASE("level filter: halving and other ratios match the sampled kernel, at every edge") {
  LevelFilter f;
  f.texels = LevelTexels::Unorm8;
  for (LevelEdge u : {LevelEdge::Clamp, LevelEdge::Wrap}) {
    for (LevelEdge v : {LevelEdge::Clamp, LevelEdge::Wrap}) {
      f.edge_u = u;
      f.edge_v = v;
      check_unorm8(f, 32, 32, 16, 16);  // halving: unrolled inside, taps by index at the edges
      check_unorm8(f, 2, 2, 1, 1);      // every tap beyond an edge
      check_unorm8(f, 9, 7, 4, 3);      // odd sizes
      check_unorm8(f, 30, 20, 17, 9);   // what max_size makes of a level 0
      check_unorm8(f, 16, 1, 8, 1);     // one axis kept
      check_unorm8(f, 1, 16, 1, 8);
      check_unorm8(f, 257, 3, 1, 1);  // a kernel wider than the axis, wrapped round or clamped
      check_unorm8(f, 100, 5, 3, 2);
    }
  }
}

TEST_CASE("level filter: sRGB colour is filtered in linear light, weighted by alpha") {
  auto to_linear = [](double code) {
    const double s = code / 255;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  auto to_srgb = [](double linear) {
    linear = std::clamp(linear, 0.0, 1.0);
    return 255 * (linear <= 0.0031308 ? linear * 12.92 : 1.055 * std::pow(linear, 1 / 2.4) - 0.055);
  };
  const uint32_t sw = 24, sh = 10, dw = 12, dh = 3;
  const std::vector<uint8_t> src = random_bytes(size_t(sw) * sh * 4, 99);
  // Colour times alpha, and alpha, filtered linearly; the colour divided back.
  std::vector<double> weighted(src.size());
  for (size_t i = 0; i < src.size(); i += 4) {
    const double alpha = src[i + 3] / 255.0;
    for (size_t c = 0; c < 3; ++c) weighted[i + c] = to_linear(src[i + c]) * alpha;
    weighted[i + 3] = alpha;
  }
  LevelFilter f{LevelTexels::Srgb8Alpha, LevelKernel::Mitchell, LevelEdge::Wrap, LevelEdge::Clamp};
  const std::vector<double> want = reference(weighted, sw, sh, dw, dh, f);
  const std::vector<uint8_t> got = filtered8(f, src, sw, sh, dw, dh);
  size_t off = 0;
  for (size_t i = 0; i < got.size(); i += 4) {
    const double alpha = want[i + 3];
    if (alpha <= 1.0 / 255) continue;  // a colour divided by almost nothing: any rounding shows
    for (size_t c = 0; c < 3; ++c)
      off += std::fabs(got[i + c] - to_srgb(want[i + c] / alpha)) > 0.5 + 1e-3;
    off += std::fabs(got[i + 3] - std::clamp(alpha, 0.0, 1.0) * 255) > 0.5 + 1e-3;
  }
  CHECK(off == 0);
}

TEST_CASE("level filter: radiance goes through a tent, in floats, unclamped") {
  const uint32_t sw = 16, sh = 12, dw = 8, dh = 6;
  std::mt19937 rng(7);
  std::vector<float> src(size_t(sw) * sh * 4);
  for (float& v : src) v = float(rng() % 100000) / 10.0f;  // 0 .. 10000: far above 1
  std::vector<float> dst(size_t(dw) * dh * 4);
  LevelFilter f{LevelTexels::Float32, LevelKernel::Tent, LevelEdge::Wrap, LevelEdge::Clamp};
  filter_level(f, reinterpret_cast<const std::byte*>(src.data()), sw, sh,
               reinterpret_cast<std::byte*>(dst.data()), dw, dh);
  const std::vector<double> want =
      reference(std::vector<double>(src.begin(), src.end()), sw, sh, dw, dh, f);
  for (size_t i = 0; i < dst.size(); ++i) CHECK(dst[i] == Approx(want[i]).epsilon(1e-5));
  float darkest = src[0];
  for (float v : src) darkest = std::min(darkest, v);
  for (float v : dst) CHECK(v >= darkest);  // no negative lobe
  // An infinite texel at a clamped edge gives infinity, not NaN (0 times infinity) from a tap
  // that weighs nothing.
  std::vector<float> row(8 * 4, 1.0f), half(4 * 4);
  std::fill(row.end() - 4, row.end(), std::numeric_limits<float>::infinity());
  const LevelFilter clamped{LevelTexels::Float32, LevelKernel::Tent, LevelEdge::Clamp,
                            LevelEdge::Clamp};
  filter_level(clamped, reinterpret_cast<const std::byte*>(row.data()), 8, 1,
               reinterpret_cast<std::byte*>(half.data()), 4, 1);
  CHECK(std::isinf(half[12]));
  CHECK(half[0] == 1.0f);
}

TEST_CASE("level filter: a level of one value keeps it, for every sRGB code and 16-bit value") {
  LevelFilter srgb{LevelTexels::Srgb8Alpha, LevelKernel::Mitchell, LevelEdge::Wrap,
                   LevelEdge::Clamp};
  for (int code = 0; code < 256; ++code) {
    const uint8_t alpha = uint8_t(255 - code / 2);
    std::vector<uint8_t> src;
    for (int t = 0; t < 8 * 8; ++t) src.insert(src.end(), {uint8_t(code), 0, 255, alpha});
    const std::vector<uint8_t> half = filtered8(srgb, src, 8, 8, 4, 4);
    const std::vector<uint8_t> odd = filtered8(srgb, src, 8, 8, 3, 5);
    for (const auto* level : {&half, &odd}) {
      for (size_t i = 0; i < level->size(); i += 4) {
        INFO("code " << code);
        CHECK((*level)[i] == code);
        CHECK((*level)[i + 1] == 0);
        CHECK((*level)[i + 2] == 255);
        CHECK((*level)[i + 3] == alpha);
      }
    }
  }
  LevelFilter wide{LevelTexels::Unorm16, LevelKernel::Mitchell, LevelEdge::Clamp, LevelEdge::Clamp};
  for (uint16_t value :
       {uint16_t(0), uint16_t(1), uint16_t(32768), uint16_t(65534), uint16_t(65535)}) {
    std::vector<uint16_t> src(6 * 6 * 4, value), dst(3 * 3 * 4);
    filter_level(wide, reinterpret_cast<const std::byte*>(src.data()), 6, 6,
                 reinterpret_cast<std::byte*>(dst.data()), 3, 3);
    for (uint16_t v : dst) CHECK(v == value);
  }
}

TEST_CASE("level filter: transparent texels lend no colour, and keep their own among themselves") {
  // Left half opaque red, right half fully transparent green.
  const uint32_t w = 16, h = 4;
  std::vector<uint8_t> src;
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      if (x < w / 2) {
        src.insert(src.end(), {255, 0, 0, 255});
      } else {
        src.insert(src.end(), {0, 255, 0, 0});
      }
    }
  }
  LevelFilter f{LevelTexels::Srgb8Alpha, LevelKernel::Mitchell, LevelEdge::Clamp, LevelEdge::Clamp};
  const std::vector<uint8_t> half = filtered8(f, src, w, h, w / 2, h / 2);
  for (uint32_t y = 0; y < h / 2; ++y) {
    for (uint32_t x = 0; x < w / 2; ++x) {
      const uint8_t* t = &half[(size_t(y) * (w / 2) + x) * 4];
      INFO("texel " << x << "," << y);
      if (t[3] > 0) {  // colour only from the red texels, however little alpha they lend
        CHECK(t[0] == 255);
        CHECK(t[1] == 0);
      }
      if (x >= w / 4 + 2) {  // beyond the filter's reach of the red: transparent green, as it was
        CHECK(t[3] == 0);
        CHECK(t[1] == 255);
      }
    }
  }
}

TEST_CASE("level filter: a level shrunk to a texel reads each source texel once, in linear time") {
  // A strip 16384 texels tall shrunk to 1 x 1 (max_size 1): the kernel spans 65536 rows, wrapped
  // four times round the strip. Read tap by tap, each of them looked up among as many held rows,
  // this took 27 s for an 8192 x 8192 level.
  const uint32_t h = 16384;
  std::vector<uint8_t> src;
  for (uint32_t t = 0; t < 2 * h; ++t) src.insert(src.end(), {40, 80, 120, 200});
  for (LevelEdge edge : {LevelEdge::Wrap, LevelEdge::Clamp}) {
    LevelFilter f{LevelTexels::Srgb8Alpha, LevelKernel::Mitchell, edge, edge};
    std::vector<uint8_t> texel;
    const double seconds = test::cpu_seconds([&] { texel = filtered8(f, src, 2, h, 1, 1); });
    CHECK(texel == std::vector<uint8_t>{40, 80, 120, 200});
    CHECK(seconds < 2);  // 0.01 s here in Release
  }
}
