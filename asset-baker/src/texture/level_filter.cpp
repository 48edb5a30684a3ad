#include "texture/level_filter.h"

#include "texture/srgb_curve.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace baker {
namespace {

constexpr size_t kChannels = 4;

// A texel's four channels as one vector (GCC and Clang lower it to SSE, NEON or scalars).
using Texel = float __attribute__((vector_size(16)));

Texel load(const float* p) {
  Texel t;
  std::memcpy(&t, p, sizeof t);
  return t;
}

// stb_image_resize's kernels, as it writes them (unscaled; radius 2 and 1).
float mitchell(float x) {
  x = std::fabs(x);
  if (x < 1.0f) return (16 + x * x * (21 * x - 36)) / 18;
  if (x < 2.0f) return (32 + x * (-60 + x * (36 - 7 * x))) / 18;
  return 0.0f;
}

float tent(float x) {
  x = std::fabs(x);
  return x <= 1.0f ? 1 - x : 0.0f;
}

float kernel_value(LevelKernel kernel, float x) {
  return kernel == LevelKernel::Mitchell ? mitchell(x) : tent(x);
}

float kernel_radius(LevelKernel kernel) { return kernel == LevelKernel::Mitchell ? 2.0f : 1.0f; }

uint32_t edge_index(int64_t i, uint32_t n, LevelEdge edge) {
  if (edge == LevelEdge::Wrap) return uint32_t(((i % n) + n) % n);
  return uint32_t(std::clamp<int64_t>(i, 0, int64_t(n) - 1));
}

// One output texel's taps: source texels (each once) and their weights, summing to 1.
using Taps = std::vector<std::pair<uint32_t, float>>;

// The taps of one axis, laid out flat: output texel o reads the count[o] source texels
// index[o * width + k] with the weights weight[o * width + k]; the rest of its `width` entries are
// unused (no weight 0 stands in for them: 0 times an infinite texel would be NaN).
struct AxisTaps {
  uint32_t width = 1;
  std::vector<uint32_t> count;
  std::vector<uint32_t> index;
  std::vector<float> weight;
  // Outputs [inner_begin, inner_end) read `width` consecutive source texels from index[o * width]
  // with the same weights: the interior of a halving, where the taps run unrolled.
  uint32_t inner_begin = 0, inner_end = 0;
};

// Whether output o reads `width` consecutive texels with the weights output `like` reads.
bool inner_output(const AxisTaps& taps, uint32_t o, uint32_t like) {
  if (taps.count[o] != taps.width || taps.count[like] != taps.width) return false;
  const size_t at = size_t(o) * taps.width, ref = size_t(like) * taps.width;
  for (uint32_t k = 0; k < taps.width; ++k) {
    if (taps.index[at + k] != taps.index[at] + k || taps.weight[at + k] != taps.weight[ref + k])
      return false;
  }
  return true;
}

// The run of inner outputs around the middle one, if it is one.
void find_inner(AxisTaps& taps, uint32_t out) {
  const uint32_t middle = out / 2;
  if (!inner_output(taps, middle, middle)) return;
  taps.inner_begin = middle;
  taps.inner_end = middle + 1;
  while (taps.inner_begin > 0 && inner_output(taps, taps.inner_begin - 1, middle))
    --taps.inner_begin;
  while (taps.inner_end < out && inner_output(taps, taps.inner_end, middle)) ++taps.inner_end;
}

// Output o's taps as stb samples a kernel when it shrinks: at x = (o + 0.5) - (i + 0.5) * ratio,
// in output texels, times the ratio; normalised to a sum of 1. Taps landing on one texel (beyond a
// clamped edge; a kernel wider than a wrapped axis) are summed into one, so that an output reads
// each texel once: a level 0 of 16384 texels that max_size shrinks to 1 has 16384 taps, not the
// 65536 the kernel spans. `summed` (`in` zeros) is scratch, left as zeros.
Taps output_taps(uint32_t in, uint32_t o, float ratio, LevelKernel kernel, LevelEdge edge,
                 std::vector<float>& summed) {
  const float radius = kernel_radius(kernel) / ratio;  // in source texels
  const float centre = (float(o) + 0.5f) / ratio;
  const auto first = int64_t(std::floor(centre - radius - 1.0f));
  const auto last = int64_t(std::ceil(centre + radius));
  std::vector<uint32_t> order;  // texels in order of first tap; one may repeat if its sum was 0
  float total = 0;
  for (int64_t i = first; i <= last; ++i) {
    const float w = kernel_value(kernel, (float(o) + 0.5f) - (float(i) + 0.5f) * ratio) * ratio;
    if (w == 0) continue;
    const uint32_t at = edge_index(i, in, edge);
    if (summed[at] == 0) order.push_back(at);
    summed[at] += w;
    total += w;
  }
  const float scale = 1 / total;
  Taps taps;
  for (uint32_t at : order) {
    if (summed[at] != 0) taps.emplace_back(at, summed[at] * scale);
    summed[at] = 0;
  }
  return taps;
}

// The taps of every output of an axis from `in` texels to `out`. An axis that keeps its size is
// copied (one tap of weight 1).
AxisTaps axis_taps(uint32_t in, uint32_t out, LevelKernel kernel, LevelEdge edge) {
  std::vector<Taps> per_output(out);
  std::vector<float> summed(in, 0.0f);
  const float ratio = float(out) / float(in);
  for (uint32_t o = 0; o < out; ++o) {
    per_output[o] = in == out ? Taps{{o, 1.0f}} : output_taps(in, o, ratio, kernel, edge, summed);
  }
  AxisTaps taps;
  for (const Taps& t : per_output) taps.width = std::max(taps.width, uint32_t(t.size()));
  taps.count.resize(out);
  taps.index.assign(size_t(out) * taps.width, 0);
  taps.weight.assign(size_t(out) * taps.width, 0.0f);
  for (uint32_t o = 0; o < out; ++o) {
    taps.count[o] = uint32_t(per_output[o].size());
    for (uint32_t k = 0; k < taps.count[o]; ++k) {
      taps.index[size_t(o) * taps.width + k] = per_output[o][k].first;
      taps.weight[size_t(o) * taps.width + k] = per_output[o][k].second;
    }
  }
  find_inner(taps, out);
  return taps;
}

// stb's epsilon added to an 8-bit alpha before it weights the colour: a fully transparent
// neighbourhood keeps its colour (the average of its texels) instead of turning black.
constexpr float kAlphaEpsilon = 1.0f / (1 << 20) / (1 << 20) / (1 << 20) / (1 << 20);

float saturate(float f) { return f > 0 ? (f < 1 ? f : 1.0f) : 0.0f; }  // NaN -> 0

// One source row as floats, linear (alpha-weighted for Srgb8Alpha).
void decode_row(LevelTexels texels, const std::byte* row, uint32_t width, float* out) {
  const size_t n = size_t(width) * kChannels;
  switch (texels) {
    case LevelTexels::Unorm8: {
      auto p = reinterpret_cast<const uint8_t*>(row);
      for (size_t i = 0; i < n; ++i) out[i] = float(p[i]) / 255.0f;
      break;
    }
    case LevelTexels::Srgb8Alpha: {
      auto p = reinterpret_cast<const uint8_t*>(row);
      const auto& linear = srgb_curve().linear;
      for (size_t i = 0; i < n; i += kChannels) {
        const float alpha = float(p[i + 3]) / 255.0f + kAlphaEpsilon;
        for (size_t c = 0; c < 3; ++c) out[i + c] = linear[p[i + c]] * alpha;
        out[i + 3] = alpha;
      }
      break;
    }
    case LevelTexels::Unorm16: {
      auto p = reinterpret_cast<const uint16_t*>(row);
      for (size_t i = 0; i < n; ++i) out[i] = float(p[i]) / 65535.0f;
      break;
    }
    case LevelTexels::Float32: std::memcpy(out, row, n * sizeof(float)); break;
  }
}

// One filtered row back to texels, rounded to the nearest code.
void encode_row(LevelTexels texels, const float* in, uint32_t width, std::byte* row) {
  const size_t n = size_t(width) * kChannels;
  switch (texels) {
    case LevelTexels::Unorm8: {
      auto p = reinterpret_cast<uint8_t*>(row);
      for (size_t i = 0; i < n; ++i) p[i] = uint8_t(int(saturate(in[i]) * 255.0f + 0.5f));
      break;
    }
    case LevelTexels::Srgb8Alpha: {
      auto p = reinterpret_cast<uint8_t*>(row);
      for (size_t i = 0; i < n; i += kChannels) {
        const float alpha = in[i + 3];
        const float reciprocal = alpha != 0 ? 1.0f / alpha : 0.0f;
        for (size_t c = 0; c < 3; ++c)
          p[i + c] = srgb_curve().encode(saturate(in[i + c] * reciprocal));
        p[i + 3] = uint8_t(int(saturate(alpha) * 255.0f + 0.5f));
      }
      break;
    }
    case LevelTexels::Unorm16: {
      auto p = reinterpret_cast<uint16_t*>(row);
      for (size_t i = 0; i < n; ++i) p[i] = uint16_t(int(saturate(in[i]) * 65535.0f + 0.5f));
      break;
    }
    case LevelTexels::Float32: std::memcpy(row, in, n * sizeof(float)); break;
  }
}

size_t texel_bytes(LevelTexels texels) {
  switch (texels) {
    case LevelTexels::Unorm8:
    case LevelTexels::Srgb8Alpha: return 4;
    case LevelTexels::Unorm16: return 8;
    case LevelTexels::Float32: return 16;
  }
  return 4;
}

// Source rows filtered across, kept for the output rows that read them: as many as one output row
// reads, so each source row is decoded and filtered once (twice at most near a wrapped edge).
class FilteredRows {
 public:
  FilteredRows(const LevelFilter& filter, const std::byte* src, uint32_t sw, uint32_t sh,
               uint32_t dw, const AxisTaps& across, uint32_t slots)
      : filter_(filter),
        src_(src),
        sw_(sw),
        dw_(dw),
        across_(across),
        decoded_(size_t(sw) * kChannels),
        rows_(slots, std::vector<float>(size_t(dw) * kChannels)),
        row_of_slot_(slots, kNone),
        slot_of_row_(sh, kNone),
        wanted_by_(sh, kNone) {}

  // The rows `rows` (output row `y`'s taps) into `out`, each filtered across.
  void fetch(uint32_t y, const uint32_t* rows, uint32_t count, const float** out) {
    for (uint32_t k = 0; k < count; ++k) wanted_by_[rows[k]] = y;
    for (uint32_t k = 0; k < count; ++k) {
      uint32_t slot = slot_of_row_[rows[k]];
      if (slot == kNone) {
        slot = free_slot(y);
        if (row_of_slot_[slot] != kNone) slot_of_row_[row_of_slot_[slot]] = kNone;
        row_of_slot_[slot] = rows[k];
        slot_of_row_[rows[k]] = slot;
        fill(rows[k], rows_[slot].data());
      }
      out[k] = rows_[slot].data();
    }
  }

 private:
  static constexpr uint32_t kNone = ~0u;

  // A slot holding no row output row `y` reads, taken in turn: there is one, as there are as many
  // slots as an output row has taps, and the oldest rows come round first.
  uint32_t free_slot(uint32_t y) {
    for (;;) {
      const uint32_t slot = next_;
      next_ = (next_ + 1) % uint32_t(rows_.size());
      const uint32_t row = row_of_slot_[slot];
      if (row == kNone || wanted_by_[row] != y) return slot;
    }
  }

  // Source row `row`, decoded and filtered across into `out`.
  void fill(uint32_t row, float* out) {
    const size_t row_bytes = size_t(sw_) * texel_bytes(filter_.texels);
    decode_row(filter_.texels, src_ + size_t(row) * row_bytes, sw_, decoded_.data());
    uint32_t x = 0;
    for (; x < across_.inner_begin; ++x) filter_texel(x, out);
    // The widths of halving with Mitchell and with the tent (any other width runs tap by tap).
    if (across_.width == 8) x = filter_inner<8>(x, out);
    if (across_.width == 4) x = filter_inner<4>(x, out);
    for (; x < dw_; ++x) filter_texel(x, out);
  }

  // Output texel x of a row, through its taps.
  void filter_texel(uint32_t x, float* out) const {
    const uint32_t* index = &across_.index[size_t(x) * across_.width];
    const float* weight = &across_.weight[size_t(x) * across_.width];
    Texel sum = {0, 0, 0, 0};
    for (uint32_t k = 0; k < across_.count[x]; ++k)
      sum += weight[k] * load(&decoded_[size_t(index[k]) * kChannels]);
    std::memcpy(out + size_t(x) * kChannels, &sum, sizeof sum);
  }

  // The inner outputs from `x` on, with `W` taps held in registers (the same sums as
  // filter_texel's). Returns where they end.
  template <uint32_t W>
  uint32_t filter_inner(uint32_t x, float* out) const {
    Texel weight[W];
    for (uint32_t k = 0; k < W; ++k) {
      const float w = across_.weight[size_t(across_.inner_begin) * W + k];
      weight[k] = Texel{w, w, w, w};
    }
    for (; x < across_.inner_end; ++x) {
      const float* texels = &decoded_[size_t(across_.index[size_t(x) * W]) * kChannels];
      Texel sum = {0, 0, 0, 0};
      for (uint32_t k = 0; k < W; ++k) sum += weight[k] * load(texels + k * kChannels);
      std::memcpy(out + size_t(x) * kChannels, &sum, sizeof sum);
    }
    return x;
  }

  const LevelFilter& filter_;
  const std::byte* src_;
  uint32_t sw_, dw_;
  const AxisTaps& across_;
  std::vector<float> decoded_;
  std::vector<std::vector<float>> rows_;
  std::vector<uint32_t> row_of_slot_;  // the source row each slot holds, or kNone
  std::vector<uint32_t> slot_of_row_;  // the slot holding each source row, or kNone
  std::vector<uint32_t> wanted_by_;    // the last output row reading each source row
  uint32_t next_ = 0;                  // the slot free_slot looks at first
};

// sum[i] = the sum over k of weight[k] * rows[k][i], k < W, in that order, in one pass.
template <uint32_t W>
void weigh_rows_unrolled(const float* const* rows, const float* weight, std::vector<float>& sum) {
  for (size_t i = 0; i < sum.size(); ++i) {
    float total = 0;
    for (uint32_t k = 0; k < W; ++k) total += weight[k] * rows[k][i];
    sum[i] = total;
  }
}

// The vertical pass of one output row: its `count` source rows, weighed and summed. The widths of
// halving (and a kept axis) in one pass over the row; any other a row at a time, in the same order.
void weigh_rows(const float* const* rows, const float* weight, uint32_t count,
                std::vector<float>& sum) {
  if (count == 8) return weigh_rows_unrolled<8>(rows, weight, sum);
  if (count == 4) return weigh_rows_unrolled<4>(rows, weight, sum);
  if (count == 1) return weigh_rows_unrolled<1>(rows, weight, sum);
  std::fill(sum.begin(), sum.end(), 0.0f);
  for (uint32_t k = 0; k < count; ++k) {
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += weight[k] * rows[k][i];
  }
}

}  // namespace

void filter_level(const LevelFilter& filter, const std::byte* src, uint32_t sw, uint32_t sh,
                  std::byte* dst, uint32_t dw, uint32_t dh) {
  const AxisTaps across = axis_taps(sw, dw, filter.kernel, filter.edge_u);
  const AxisTaps down = axis_taps(sh, dh, filter.kernel, filter.edge_v);
  FilteredRows rows(filter, src, sw, sh, dw, across, down.width);
  std::vector<const float*> taps(down.width);
  std::vector<float> sum(size_t(dw) * kChannels);
  const size_t dst_row_bytes = size_t(dw) * texel_bytes(filter.texels);
  for (uint32_t y = 0; y < dh; ++y) {
    const uint32_t* index = &down.index[size_t(y) * down.width];
    const float* weight = &down.weight[size_t(y) * down.width];
    const uint32_t count = down.count[y];
    rows.fetch(y, index, count, taps.data());
    weigh_rows(taps.data(), weight, count, sum);
    encode_row(filter.texels, sum.data(), dw, dst + size_t(y) * dst_row_bytes);
  }
}

}  // namespace baker
