#include "import/psd_colour.h"

#include "import/byte_view.h"

namespace baker {

namespace {

bool is_psd(const ByteView& b) { return b.has(0, "8BPS") && b.be16(4) == 1; }

}  // namespace

bool psd_is_16_bit(std::span<const std::byte> source) {
  const ByteView b(source);
  return is_psd(b) && b.be16(22) == 16;
}

std::optional<PatchedImage> psd_colour_only(std::span<const std::byte> source) {
  const ByteView b(source);
  constexpr uint32_t kRgbMode = 3;
  const uint64_t channels = b.be16(12), height = b.be32(14), depth = b.be16(22);
  if (!is_psd(b) || channels < 4 || (depth != 8 && depth != 16) || b.be16(24) != kRgbMode)
    return std::nullopt;
  uint64_t at = 26;
  at += 4 + b.be32(at);  // colour mode data
  at += 4 + b.be32(at);  // image resources
  const uint64_t layers = at + 4, layers_end = layers + b.be32(at);
  // Layer info: its length, then the layer count, negative when the first extra channel is the
  // merged image's transparency.
  if (layers + 6 <= layers_end && b.be32(layers) >= 2 && int16_t(b.be16(layers + 4)) < 0)
    return std::nullopt;
  const uint64_t compression_at = layers_end;
  const uint32_t compression = b.be16(compression_at);
  if (compression > 1) return std::nullopt;  // what stb_image does not read stays its to refuse
  if (depth == 16 && compression != 0) return std::nullopt;  // refused by preflight_image

  PatchedImage patch;
  patch.edits.push_back({12, 2, {0, 3}});  // the channel count
  if (compression == 1) {
    // The row table: every row of channel 0, then of channel 1, ...; the first three kept.
    const uint64_t table = compression_at + 2;
    const uint64_t kept = 3 * height * 2, all = channels * height * 2;
    if (table + all > source.size()) return std::nullopt;
    patch.edits.push_back({table + kept, all - kept, {}});
  }
  return patch;
}

}  // namespace baker
