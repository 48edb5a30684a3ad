#include "import/image_animation.h"

#include "import/byte_view.h"
#include "import/png_chunks.h"

#include <algorithm>

namespace baker {
namespace {

// An APNG announces its frames in an acTL chunk before the first IDAT; the IDAT image is the
// first frame when an fcTL comes before it.
ImageAnimation png_animation(const ByteView& s) {
  ImageAnimation out;
  bool animation_control = false, frame_control = false;
  PngChunks chunks(s);
  for (PngChunk chunk; chunks.next_before_image_data(chunk);) {
    if (chunk.is("acTL")) animation_control = true, out.frames = std::max(s.be32(chunk.data()), 1u);
    frame_control = frame_control || chunk.is("fcTL");
  }
  out.decoded_is_frame = !animation_control || frame_control;
  return out;
}

// Skips a GIF sub-block chain at `at`; returns the position after its terminator (or past the
// end of the file).
uint64_t skip_sub_blocks(const ByteView& s, uint64_t at) {
  while (at < s.size() && s.u8(at) != 0) at += 1 + s.u8(at);
  return at + 1;
}

ImageAnimation gif_animation(const ByteView& s) {
  ImageAnimation out;
  uint64_t at = 13;
  if (s.u8(10) & 0x80) at += 3ull << ((s.u8(10) & 7) + 1);  // global colour table
  uint32_t frames = 0;
  while (at < s.size()) {
    uint32_t tag = s.u8(at);
    if (tag == 0x21) {  // extension: introducer, label, sub-blocks
      at = skip_sub_blocks(s, at + 2);
    } else if (tag == 0x2c) {  // image descriptor, local colour table, LZW code size, data
      if (frames++ == 0) {
        out.frame_x = s.le16(at + 1);
        out.frame_y = s.le16(at + 3);
        out.frame_width = s.le16(at + 5);
        out.frame_height = s.le16(at + 7);
      }
      uint32_t flags = s.u8(at + 9);
      at += 10;
      if (flags & 0x80) at += 3ull << ((flags & 7) + 1);
      at = skip_sub_blocks(s, at + 1);
    } else {
      break;  // the trailer, or damage after the frames
    }
  }
  out.frames = std::max(frames, 1u);
  return out;
}

}  // namespace

ImageAnimation image_animation(std::span<const std::byte> source) {
  ByteView s(source);
  if (s.has(0, kPngSignature)) return png_animation(s);
  if (s.has(0, "GIF8")) return gif_animation(s);
  return {};
}

}  // namespace baker
