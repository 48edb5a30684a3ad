#include "import/bmp_pixel_gap.h"

#include "import/byte_view.h"

namespace baker {

std::optional<PatchedImage> bmp_without_pixel_gap(std::span<const std::byte> source) {
  const ByteView b(source);
  constexpr uint64_t kFileHeader = 14;
  if (!b.has(0, "BM") || b.size() < kFileHeader + 16) return std::nullopt;
  const uint64_t offset = b.le32(10), header = b.le32(kFileHeader);
  const uint32_t bits = header == 12 ? b.le16(kFileHeader + 10) : b.le16(kFileHeader + 14);
  const uint32_t compression = header == 12 ? 0 : b.le32(kFileHeader + 16);
  // Where stb_image stands after the headers: the 40-byte header of a 16- or 32-bit image with
  // bit fields (BI_BITFIELDS) is followed by its three masks.
  constexpr uint32_t kBitFields = 3;
  const uint64_t masks = header == 40 && (bits == 16 || bits == 32) && compression == kBitFields;
  const uint64_t pixels_expected = kFileHeader + header + 12 * masks;
  // stb_image takes bytes between the headers and the pixels for a palette below these depths.
  const bool palette_possible = header == 12 ? bits < 24 : bits < 16;
  if (palette_possible || offset <= pixels_expected || offset > b.size()) return std::nullopt;
  PatchedImage patch;
  const uint32_t moved = uint32_t(pixels_expected);
  patch.edits.push_back(
      {10, 4, {uint8_t(moved), uint8_t(moved >> 8), uint8_t(moved >> 16), uint8_t(moved >> 24)}});
  patch.edits.push_back({pixels_expected, offset - pixels_expected, {}});
  return patch;
}

}  // namespace baker
