// The marker segments of a JPEG up to its first scan, walked one way for every reader of them:
// image_orientation (the EXIF APP1 segment), image_diagnosis (the frame header, Adobe's APP14) and
// image_colour_space (the ICC profile in APP2 segments). image_preflight walks on into the scans
// and checks what it walks, on its own.
#pragma once

#include "import/byte_view.h"

#include <cstdint>

namespace baker {

// One segment: a marker (FF xx), a 2-byte length that counts itself, then its data.
struct JpegSegment {
  uint64_t at = 0;  // offset of the marker
  uint32_t marker = 0;
  uint32_t length = 0;  // as the segment declares it

  uint64_t data() const { return at + 4; }
  uint64_t end() const { return at + 2 + uint64_t(length); }
};

// The segments from `start` (jpeg_segments_start, byte_view.h) on, fill bytes between them
// skipped; the walk ends at the first scan (SOS), at the end of the image (EOI), at a byte that
// starts no marker, and when fewer than 4 bytes remain. A segment's data may run past the end of
// the file: ByteView reads those bytes as 0.
class JpegSegments {
 public:
  JpegSegments(ByteView bytes, uint64_t start) : bytes_(bytes), at_(start) {}

  bool next(JpegSegment& segment) {
    while (at_ + 4 <= bytes_.size() && bytes_.u8(at_) == 0xff) {
      const uint32_t marker = bytes_.u8(at_ + 1);
      if (marker == 0xff) {  // fill byte
        ++at_;
        continue;
      }
      if (marker == 0xda || marker == 0xd9) return false;  // start of scan, end of image
      segment = {at_, marker, bytes_.be16(at_ + 2)};
      at_ = segment.end();
      return true;
    }
    return false;
  }

 private:
  ByteView bytes_;
  uint64_t at_;
};

}  // namespace baker
