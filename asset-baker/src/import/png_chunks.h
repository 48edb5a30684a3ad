// The chunks of a PNG file, walked one way for every reader of them: image_preflight checks each
// chunk (it fits, its CRC, the header); image_orientation, image_colour_space, image_animation and
// full_palette each read the one or two chunks they need.
#pragma once

#include "import/byte_view.h"

#include <cstdint>
#include <string_view>

namespace baker {

// One chunk: a 4-byte length, a 4-byte type, the payload, a 4-byte CRC over type and payload.
struct PngChunk {
  uint64_t at = 0;      // offset of its length field
  uint32_t length = 0;  // payload bytes, as the chunk declares them
  char type[5] = {};    // the four type letters, NUL-terminated

  uint64_t data() const { return at + 8; }
  uint64_t crc_at() const { return data() + length; }
  bool is(std::string_view name) const { return name == std::string_view(type, 4); }
  // Critical chunks (IHDR, PLTE, IDAT, IEND, Apple's CgBI) have an upper-case first letter.
  bool critical() const { return (type[0] & 0x20) == 0; }
};

// The chunks in file order, from the one after the 8-byte signature (which the caller has
// checked). Every chunk handed out has its length and type within the file; its payload and CRC
// may run past the end: image_preflight refuses such a file before the pixels are decoded, and a
// reader that runs first reads past-the-end bytes as 0 (ByteView).
class PngChunks {
 public:
  explicit PngChunks(ByteView bytes) : bytes_(bytes) {}

  // The next chunk; false at the end of the file.
  bool next(PngChunk& chunk) {
    if (at_ > bytes_.size() || bytes_.size() - at_ < 8) return false;
    chunk.at = at_;
    chunk.length = bytes_.be32(at_);
    for (uint64_t k = 0; k < 4; ++k) chunk.type[k] = char(bytes_.u8(at_ + 4 + k));
    at_ += 12 + uint64_t(chunk.length);
    return true;
  }

  // Bytes after the last chunk next() handed out, fewer than a chunk's header when it returned
  // false: the file was cut inside a header (or holds stray bytes after its last chunk).
  uint64_t bytes_left() const { return at_ < bytes_.size() ? bytes_.size() - at_ : 0; }

  // The next chunk before the image data, where PNG places the chunks that describe it (palette,
  // transparency, colour space, animation control): false at the first IDAT, at IEND and at the
  // end of the file.
  bool next_before_image_data(PngChunk& chunk) {
    return next(chunk) && !chunk.is("IDAT") && !chunk.is("IEND");
  }

 private:
  ByteView bytes_;
  uint64_t at_ = 8;
};

}  // namespace baker
