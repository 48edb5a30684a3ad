#include "import/image_orientation.h"

#include "import/byte_view.h"
#include "import/jpeg_segments.h"
#include "import/png_chunks.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace baker {
namespace {

Orientation checked(uint32_t value) {
  return value >= 1 && value <= 8 ? Orientation(value) : Orientation::Normal;
}

// The orientation tag of the TIFF structure at [at, at + size): a byte-order mark, the offset of
// the first directory, then 12-byte entries (tag, type, count, value).
Orientation exif_orientation(const ByteView& b, uint64_t at, uint64_t size) {
  if (size < 8) return Orientation::Normal;
  bool little = b.has(at, "II");
  if (!little && !b.has(at, "MM")) return Orientation::Normal;
  uint64_t directory = b.u32(at + 4, little);
  if (directory + 2 > size) return Orientation::Normal;
  uint64_t entries = b.u16(at + directory, little);
  for (uint64_t i = 0; i < entries; ++i) {
    uint64_t entry = directory + 2 + 12 * i;
    if (entry + 12 > size) break;
    if (b.u16(at + entry, little) == 0x0112 && b.u16(at + entry + 2, little) == 3 /* SHORT */)
      return checked(b.u16(at + entry + 8, little));
  }
  return Orientation::Normal;
}

// JPEG marker segments up to the first scan; the orientation is in an APP1 segment that starts
// "Exif\0\0".
Orientation jpeg_orientation(const ByteView& b, uint64_t start) {
  JpegSegments segments(b, start);
  for (JpegSegment s; segments.next(s);) {
    if (s.marker == 0xe1 && s.length >= 8 && b.has(s.data(), std::string_view("Exif\0\0", 6)))
      return exif_orientation(b, s.data() + 6, s.length - 8);
  }
  return Orientation::Normal;
}

// The orientation is in an eXIf chunk (PNG 1.5 extensions), read wherever it stands before IEND:
// writers put it after the image data too, and libpng and browsers apply it there.
Orientation png_orientation(const ByteView& b) {
  PngChunks chunks(b);
  for (PngChunk chunk; chunks.next(chunk) && !chunk.is("IEND");) {
    if (chunk.is("eXIf")) return exif_orientation(b, chunk.data(), chunk.length);
  }
  return Orientation::Normal;
}

// TGA has no signature; this runs only when stb_image has decoded the file as a TGA.
Orientation tga_orientation(const ByteView& b) {
  return (b.u8(17) & 0x10) ? Orientation::MirrorX : Orientation::Normal;
}

}  // namespace

Orientation source_orientation(std::span<const std::byte> source, bool* from_exif) {
  ByteView b(source);
  if (from_exif) *from_exif = !decoded_as_tga(b);
  if (uint64_t segments = jpeg_segments_start(b)) return jpeg_orientation(b, segments);
  if (b.has(0, kPngSignature)) return png_orientation(b);
  if (decoded_as_tga(b)) return tga_orientation(b);
  return Orientation::Normal;
}

bool swaps_sides(Orientation orientation) { return uint8_t(orientation) >= 5; }

bool apply_orientation(DecodedImage& image, Orientation orientation) {
  if (orientation == Orientation::Normal) return true;
  const size_t pixel = 4 * size_t(image.bytes_per_channel);
  const size_t w = image.width, h = image.height;
  // malloc, because DecodedImage frees its pixels as stb_image's (with free()).
  auto* turned = static_cast<uint8_t*>(std::malloc(w * h * pixel));
  if (!turned) return false;
  const auto* from = static_cast<const uint8_t*>(image.pixels.get());
  const bool swap = swaps_sides(orientation);
  const size_t out_w = swap ? h : w, out_h = swap ? w : h;
  for (size_t y = 0; y < out_h; ++y) {
    for (size_t x = 0; x < out_w; ++x) {
      size_t sx = x, sy = y;  // the stored pixel shown at (x, y)
      switch (orientation) {
        case Orientation::MirrorX: sx = w - 1 - x; break;
        case Orientation::Rotate180: sx = w - 1 - x, sy = h - 1 - y; break;
        case Orientation::MirrorY: sy = h - 1 - y; break;
        case Orientation::Transpose: sx = y, sy = x; break;
        case Orientation::Rotate90: sx = y, sy = h - 1 - x; break;
        case Orientation::Transverse: sx = w - 1 - y, sy = h - 1 - x; break;
        case Orientation::Rotate270: sx = w - 1 - y, sy = x; break;
        case Orientation::Normal: break;
      }
      std::memcpy(turned + (y * out_w + x) * pixel, from + (sy * w + sx) * pixel, pixel);
    }
  }
  image.pixels.reset(turned);
  image.width = uint32_t(out_w);
  image.height = uint32_t(out_h);
  return true;
}

}  // namespace baker
