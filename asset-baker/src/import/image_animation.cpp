#include "import/image_animation.h"

#include <algorithm>
#include <cstring>

namespace baker {
namespace {

uint32_t u8(std::span<const std::byte> s, uint64_t at) {
  return at < s.size() ? uint32_t(s[at]) : 0u;
}
uint32_t be32(std::span<const std::byte> s, uint64_t at) {
  return u8(s, at) << 24 | u8(s, at + 1) << 16 | u8(s, at + 2) << 8 | u8(s, at + 3);
}
bool has(std::span<const std::byte> s, uint64_t at, const char* text, size_t n) {
  return at <= s.size() && s.size() - at >= n && std::memcmp(s.data() + at, text, n) == 0;
}

// An APNG announces its frames in an acTL chunk before the first IDAT.
uint32_t png_frames(std::span<const std::byte> s) {
  for (uint64_t at = 8; at + 12 <= s.size(); at += 12 + uint64_t(be32(s, at))) {
    if (has(s, at + 4, "acTL", 4)) return std::max(be32(s, at + 8), 1u);
    if (has(s, at + 4, "IDAT", 4)) break;
  }
  return 1;
}

// Skips a GIF sub-block chain at `at`; returns the position after its terminator (or past the
// end of the file).
uint64_t skip_sub_blocks(std::span<const std::byte> s, uint64_t at) {
  while (at < s.size() && u8(s, at) != 0) at += 1 + u8(s, at);
  return at + 1;
}

uint32_t gif_frames(std::span<const std::byte> s) {
  uint64_t at = 13;
  if (u8(s, 10) & 0x80) at += 3ull << ((u8(s, 10) & 7) + 1);  // global colour table
  uint32_t frames = 0;
  while (at < s.size()) {
    uint32_t tag = u8(s, at);
    if (tag == 0x21) {  // extension: introducer, label, sub-blocks
      at = skip_sub_blocks(s, at + 2);
    } else if (tag == 0x2c) {  // image descriptor, local colour table, LZW code size, data
      ++frames;
      uint32_t flags = u8(s, at + 9);
      at += 10;
      if (flags & 0x80) at += 3ull << ((flags & 7) + 1);
      at = skip_sub_blocks(s, at + 1);
    } else {
      break;  // the trailer, or damage after the frames
    }
  }
  return std::max(frames, 1u);
}

}  // namespace

uint32_t animation_frames(std::span<const std::byte> source) {
  if (has(source, 0, "\x89PNG\r\n\x1a\n", 8)) return png_frames(source);
  if (has(source, 0, "GIF8", 4)) return gif_frames(source);
  return 1;
}

}  // namespace baker
