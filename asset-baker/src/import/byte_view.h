// Fixed-width fields of a source file, read the way its decoders read them: a field past the end
// of the file reads as 0. Header walks (image_orientation, image_diagnosis, image_animation,
// full_palette, PngChunks) then need no bounds checks beyond their own loop limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace baker {

// The 8 bytes every PNG file starts with.
inline constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";

class ByteView {
 public:
  explicit ByteView(std::span<const std::byte> bytes) : bytes_(bytes) {}

  uint32_t u8(uint64_t at) const { return at < bytes_.size() ? uint32_t(bytes_[at]) : 0u; }
  uint32_t be16(uint64_t at) const { return u8(at) << 8 | u8(at + 1); }
  uint32_t be32(uint64_t at) const { return be16(at) << 16 | be16(at + 2); }
  uint32_t le16(uint64_t at) const { return u8(at) | u8(at + 1) << 8; }
  uint32_t le32(uint64_t at) const { return le16(at) | le16(at + 2) << 16; }
  uint32_t u16(uint64_t at, bool little) const { return little ? le16(at) : be16(at); }
  uint32_t u32(uint64_t at, bool little) const { return little ? le32(at) : be32(at); }
  // True when the bytes at `at` are `text` (all of it within the file).
  bool has(uint64_t at, std::string_view text) const {
    return at <= bytes_.size() && bytes_.size() - at >= text.size() &&
           std::memcmp(bytes_.data() + at, text.data(), text.size()) == 0;
  }
  uint64_t size() const { return bytes_.size(); }

 private:
  std::span<const std::byte> bytes_;
};

// Where a JPEG's marker segments start: after its start-of-image marker (FF D8) and any fill bytes
// (FF) before it, as stb_image finds it; 0 when the bytes do not start a JPEG. Every reader that
// sorts sources by format asks this, so that one leading FF cannot make a JPEG pass for another
// format (a TGA, which has no signature) and skip the JPEG checks.
inline uint64_t jpeg_segments_start(const ByteView& b) {
  uint64_t at = 0;
  while (at < b.size() && b.u8(at) == 0xff) ++at;
  return at >= 1 && b.u8(at) == 0xd8 ? at + 1 : 0;
}

// Whether stb_image, having decoded the file, read it as a TGA: TGA has no signature, and stb_image
// tries it last, for files none of the other signatures matched.
// A TGA header of a colour-mapped type (1 raw, 9 RLE) with its colour map.
inline bool colour_mapped_tga(const ByteView& b) {
  return b.size() >= 18 && b.u8(1) == 1 && (b.u8(2) == 1 || b.u8(2) == 9);
}

inline bool decoded_as_tga(const ByteView& b) {
  if (jpeg_segments_start(b)) return false;
  for (std::string_view magic :
       {std::string_view("\x89PNG"), std::string_view("GIF8"), std::string_view("BM"),
        std::string_view("8BPS"), std::string_view("#?"), std::string_view("S\x80\xf6\x34"),
        std::string_view("P5"), std::string_view("P6")}) {
    if (b.has(0, magic)) return false;
  }
  return true;
}

}  // namespace baker
