#include "import/full_palette.h"

#include "import/byte_view.h"
#include "import/png_chunks.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace baker {
namespace {

constexpr uint64_t kEntries = 256;

void put_le(std::vector<uint8_t>& out, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
}

// The file header, a 40-byte Windows info header and 256 palette entries replace everything
// before the pixel data.
BakeStatus bmp(std::span<const std::byte> source, const std::string& name,
               std::optional<PatchedImage>& out) {
  const ByteView b(source);
  constexpr uint64_t kFileHeader = 14, kInfoHeader = 40;
  uint64_t offset = b.le32(10);
  uint32_t header_size = b.le32(14);
  bool os2 = header_size == 12;
  if (!os2 && header_size != 40 && header_size != 56 && header_size != 108 && header_size != 124)
    return {};
  uint32_t width = os2 ? b.le16(18) : b.le32(18);
  uint32_t height = os2 ? b.le16(20) : b.le32(22);  // OS/2: unsigned, so bottom-up
  uint32_t bits = b.le16(os2 ? 24 : 28);
  uint32_t compression = os2 ? 0 : b.le32(30);
  if ((bits != 1 && bits != 4 && bits != 8) || compression != 0 || offset > source.size())
    return {};

  const uint64_t palette_start = kFileHeader + header_size, entry_size = os2 ? 3 : 4;
  uint64_t entries = offset > palette_start ? (offset - palette_start) / entry_size : 0;
  if (entries == 0) {
    return BakeStatus::failure(BakeError::InvalidSource, name,
                               "the " + std::to_string(bits) +
                                   "-bit BMP has no palette (its pixel data starts at byte " +
                                   std::to_string(offset) + ")");
  }
  entries = std::min(entries, kEntries);  // stb_image reads at most 256

  PatchedImage patch;
  PatchedImage::Edit& edit = patch.edits.emplace_back();
  edit.at = 0;
  edit.size = offset;
  const uint64_t header_bytes = kFileHeader + kInfoHeader + 4 * kEntries;
  std::vector<uint8_t>& h = edit.bytes;
  h.reserve(header_bytes);
  h.push_back('B');
  h.push_back('M');
  put_le(h, uint32_t(std::min<uint64_t>(header_bytes + (source.size() - offset), UINT32_MAX)), 4);
  put_le(h, 0, 4);                       // reserved
  put_le(h, uint32_t(header_bytes), 4);  // pixel data offset
  put_le(h, uint32_t(kInfoHeader), 4);
  put_le(h, width, 4);
  put_le(h, height, 4);  // a Windows height keeps its sign (negative: top-down rows)
  put_le(h, 1, 2);       // planes
  put_le(h, bits, 2);
  for (int field = 0; field < 6; ++field)
    put_le(h, 0, 4);  // uncompressed; sizes, resolution, colour counts
  for (uint64_t e = 0; e < kEntries; ++e) {
    uint64_t at = palette_start + e * entry_size;
    for (uint64_t c = 0; c < 3; ++c) h.push_back(e < entries ? uint8_t(b.u8(at + c)) : 0);
    h.push_back(0);
  }
  out = std::move(patch);
  return {};
}

// The first PLTE chunk of a colour-type-3 PNG, when shorter than 256 entries, is replaced by one of
// 256 (its entries, then zeros). Left alone: a PLTE chunk stb_image refuses (over 256 entries, not
// a multiple of 3) and a tRNS chunk longer than the original palette (stb_image refuses it; it
// would not with the longer palette).
BakeStatus png(std::span<const std::byte> source, std::optional<PatchedImage>& out) {
  const ByteView b(source);
  if (b.u8(25) != 3) return {};  // IHDR colour type: palette
  uint64_t plte_at = 0, plte_length = 0, trns_length = 0;
  bool found = false;
  PngChunks chunks(b);
  for (PngChunk chunk; chunks.next_before_image_data(chunk);) {
    if (chunk.is("PLTE") && !found) found = true, plte_at = chunk.at, plte_length = chunk.length;
    if (chunk.is("tRNS")) trns_length = std::max<uint64_t>(trns_length, chunk.length);
  }
  if (!found || plte_length == 0 || plte_length % 3 != 0 || plte_length >= 3 * kEntries ||
      trns_length > plte_length / 3)
    return {};
  PatchedImage patch;
  PatchedImage::Edit& edit = patch.edits.emplace_back();
  edit.at = plte_at;
  edit.size = 12 + plte_length;
  std::vector<uint8_t>& c = edit.bytes;
  put_be32(c, uint32_t(3 * kEntries));
  for (char ch : {'P', 'L', 'T', 'E'}) c.push_back(uint8_t(ch));
  for (uint64_t i = 0; i < 3 * kEntries; ++i)
    c.push_back(i < plte_length ? uint8_t(b.u8(plte_at + 8 + i)) : 0);
  put_be32(c, uint32_t(crc32(crc32(0L, Z_NULL, 0), c.data() + 4, uInt(c.size() - 4))));
  out = std::move(patch);
  return {};
}

// A colour-mapped TGA may store only entries first..first+length-1 of its colour map (the header's
// first entry index); pixel values still index the whole map. stb_image 2.27 skips `first` bytes
// instead, reading a shifted palette. The header and image ID are replaced by a header whose map
// starts at entry 0, followed by `first` black entries, so the stored entries land where the
// pixels look for them.
BakeStatus tga(std::span<const std::byte> source, const std::string& name,
               std::optional<PatchedImage>& out) {
  const ByteView b(source);
  uint64_t id_length = b.u8(0);
  uint32_t first = b.le16(3), length = b.le16(5);
  uint32_t entry_bytes = (b.u8(7) + 7u) / 8u;
  if (first == 0 || source.size() < 18 + id_length) return {};
  uint32_t entries = first + length;
  if (entries > 0xffff) {  // the header's entry count cannot describe the whole map
    return BakeStatus::failure(BakeError::InvalidSource, name,
                               "the TGA colour map runs past entry 65535 (first entry " +
                                   std::to_string(first) + ", " + std::to_string(length) +
                                   " entries)");
  }
  PatchedImage patch;
  PatchedImage::Edit& edit = patch.edits.emplace_back();
  edit.at = 0;
  edit.size = 18 + id_length;
  std::vector<uint8_t>& h = edit.bytes;
  h.push_back(0);  // no image ID
  for (uint64_t at = 1; at < 3; ++at) h.push_back(uint8_t(b.u8(at)));
  put_le(h, 0, 2);
  put_le(h, entries, 2);
  for (uint64_t at = 7; at < 18; ++at) h.push_back(uint8_t(b.u8(at)));
  h.resize(h.size() + uint64_t(first) * entry_bytes, 0);
  out = std::move(patch);
  return {};
}

}  // namespace

BakeStatus full_palette(std::span<const std::byte> source, const std::string& name,
                        std::optional<PatchedImage>& out) {
  out.reset();
  const ByteView b(source);
  if (b.has(0, "BM") && source.size() >= 26) return bmp(source, name, out);
  if (b.has(0, kPngSignature)) return png(source, out);
  if (colour_mapped_tga(b)) return tga(source, name, out);  // stb_image tries TGA last
  return {};
}

}  // namespace baker
