#include "texture/mip_chain.h"

#include "common/half_float.h"
#include "texture/alpha_coverage.h"
#include "texture/level_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace baker {
namespace {

using assetlib::TextureFormat;
using assetlib::TextureInfo;

// Converts the decoded pixels to the storage type of `format` (8-bit, 16-bit or float channels)
// in `dst`, which holds width * height texels.
void convert_level0(const DecodedImage& image, TextureFormat format, std::byte* dst) {
  size_t channels = size_t(image.width) * image.height * 4;
  if (format == TextureFormat::RGBA16_SFLOAT || format == TextureFormat::RGBA16_UNORM) {
    if (image.bytes_per_channel == 2 || image.bytes_per_channel == 4) {
      std::memcpy(dst, image.pixels.get(), channels * size_t(image.bytes_per_channel));
      return;
    }
  }
  if (image.bytes_per_channel == 2) {
    // 16-bit colour -> 8-bit: round, do not truncate.
    auto src = static_cast<const uint16_t*>(image.pixels.get());
    for (size_t i = 0; i < channels; ++i) dst[i] = std::byte(uint8_t((src[i] + 128u) / 257u));
    return;
  }
  std::memcpy(dst, image.pixels.get(), channels);
}

// A mirrored axis is filtered as clamped: beyond the edge, GL's mirror starts with the edge texel
// as clamping does, and differs only further out where the filter's weights are small.
LevelEdge level_edge(assetlib::TextureWrap wrap) {
  return wrap == assetlib::TextureWrap::Repeat ? LevelEdge::Wrap : LevelEdge::Clamp;
}

// One level filtered from the one before (or level 0 from a larger source), reading beyond the
// edges as `edges` says.
void resize_level(TextureFormat format, const SlotSampling& edges, const std::byte* src,
                  uint32_t sw, uint32_t sh, std::byte* dst, uint32_t dw, uint32_t dh) {
  // Radiance (float) is filtered with a tent, which has no negative lobes: Mitchell rings around
  // a bright texel, and in HDR a sun of 50000 beside a sky of 1 rang down to -227 (clamped: a
  // black ring). Bounded formats keep the sharper Mitchell; their ringing is clamped by the format
  // and small.
  LevelFilter filter;
  filter.edge_u = level_edge(edges.u);
  filter.edge_v = level_edge(edges.v);
  switch (format) {
    // Gamma-correct, and alpha-weighted so transparent texels do not bleed their colour.
    case TextureFormat::RGBA8_SRGB: filter.texels = LevelTexels::Srgb8Alpha; break;
    case TextureFormat::RGBA8_UNORM: filter.texels = LevelTexels::Unorm8; break;
    case TextureFormat::RGBA16_UNORM: filter.texels = LevelTexels::Unorm16; break;
    default: filter.texels = LevelTexels::Float32, filter.kernel = LevelKernel::Tent; break;
  }
  filter_level(filter, src, sw, sh, dst, dw, dh);
}

// Filtering shortens normals; give every texel of a filtered normal map unit length again. An
// average no longer than two steps of an 8-bit channel (normals that cancel out: +X beside -X)
// has no direction left to scale up (it would come out as a diagonal no source texel has): it is
// flat, +Z. The 8-bit step at every depth: a 16-bit map converted from 8 bits keeps the 8-bit
// map's offset from 0 (128 is 0.0039, not 0), which a 16-bit step took for a direction.
template <typename Channel>
void renormalize(std::byte* texels, uint64_t count) {
  constexpr float half = float(std::numeric_limits<Channel>::max()) / 2.0f;
  constexpr float no_direction = 2.0f / (255.0f / 2.0f);
  auto p = reinterpret_cast<Channel*>(texels);
  for (uint64_t i = 0; i < count; ++i, p += 4) {
    float v[3];
    for (int k = 0; k < 3; ++k) v[k] = float(p[k]) / half - 1.0f;
    float len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len < no_direction) v[0] = 0, v[1] = 0, v[2] = 1, len = 1;
    for (int k = 0; k < 3; ++k) p[k] = Channel(std::lround((v[k] / len + 1.0f) * half));
  }
}

// A normal map is stored as 8-bit or, from a 16-bit source, 16-bit unsigned normalized channels.
void renormalize_level(TextureFormat format, std::byte* texels, uint64_t count) {
  if (format == TextureFormat::RGBA8_UNORM) renormalize<uint8_t>(texels, count);
  if (format == TextureFormat::RGBA16_UNORM) renormalize<uint16_t>(texels, count);
}

// Float pixels are resized as float, then stored as half floats.
void floats_to_halves(std::vector<std::byte>& chain, const TextureInfo& info,
                      std::vector<std::byte>& halves) {
  halves.resize(info.total_size);
  auto out = reinterpret_cast<uint16_t*>(halves.data());
  auto in = reinterpret_cast<const float*>(chain.data());
  // Radiance is never negative: what the filters leave below 0, and NaN, is 0.
  for (uint64_t i = 0; i < info.total_size / 2; ++i) out[i] = to_half(in[i] > 0 ? in[i] : 0.0f);
}

// The cutoff at which the levels of a cut-out keep its alpha coverage: for a colour texture whose
// slots test its alpha (8-bit sRGB: colour levels are, HDR carries no alpha to test); nullopt for
// any other.
std::optional<float> coverage_cutoff(TextureFormat format, TextureRole role,
                                     const SlotSampling& sampling) {
  if (role != TextureRole::Color || format != TextureFormat::RGBA8_SRGB) return std::nullopt;
  return sampling.alpha_cutoff;
}

}  // namespace

std::vector<std::byte> build_mip_chain(DecodedImage& image, const TextureInfo& info,
                                       TextureRole role, SlotSampling sampling) {
  const std::optional<float> cutoff = coverage_cutoff(info.format, role, sampling);
  double coverage = 0;  // of the source, at *cutoff
  TextureFormat format = info.format;
  // Resizing works on float for HDR; the chain is converted to halves at the end.
  TextureFormat work_format =
      format == TextureFormat::RGBA16_SFLOAT ? TextureFormat::Unknown : format;
  size_t texel_bytes =
      format == TextureFormat::RGBA16_SFLOAT ? 16 : assetlib::texture_level_size(format, 1, 1);

  uint32_t width = info.mips[0].width, height = info.mips[0].height;
  // The chain in working precision: level 0 first, each level resized from the one before.
  std::vector<uint64_t> offsets;
  uint64_t chain_size = 0;
  for (const auto& mip : info.mips) {
    offsets.push_back(chain_size);
    chain_size += uint64_t(mip.width) * mip.height * texel_bytes;
  }
  std::vector<std::byte> chain(chain_size);
  if (width == image.width && height == image.height) {
    convert_level0(image, format, chain.data());
    if (cutoff) coverage = alpha_coverage(chain.data(), uint64_t(width) * height, *cutoff);
  } else {
    std::vector<std::byte> full(size_t(image.width) * image.height * texel_bytes);
    convert_level0(image, format, full.data());
    resize_level(work_format, sampling, full.data(), image.width, image.height, chain.data(), width,
                 height);
    if (role == TextureRole::Normal)
      renormalize_level(format, chain.data(), uint64_t(width) * height);
    if (cutoff) {
      coverage = alpha_coverage(full.data(), uint64_t(image.width) * image.height, *cutoff);
      keep_alpha_coverage(chain.data(), uint64_t(width) * height, *cutoff, coverage);
    }
  }
  image.pixels.reset();
  for (size_t i = 1; i < info.mips.size(); ++i) {
    const auto& prev = info.mips[i - 1];
    const auto& mip = info.mips[i];
    resize_level(work_format, sampling, chain.data() + offsets[i - 1], prev.width, prev.height,
                 chain.data() + offsets[i], mip.width, mip.height);
    if (role == TextureRole::Normal)
      renormalize_level(format, chain.data() + offsets[i], uint64_t(mip.width) * mip.height);
    if (cutoff)
      keep_alpha_coverage(chain.data() + offsets[i], uint64_t(mip.width) * mip.height, *cutoff,
                          coverage);
  }
  if (format == TextureFormat::RGBA16_SFLOAT) {
    std::vector<std::byte> halves;
    floats_to_halves(chain, info, halves);
    chain.swap(halves);
  }
  return chain;
}

}  // namespace baker
