// The marker segments of a JPEG up to its first scan, or through all its scans, walked one way for
// every reader of them: image_orientation (the EXIF APP1 segment), image_diagnosis (the frame
// header, Adobe's APP14), image_colour_space (the ICC profile in APP2 segments) and
// jpeg_component_ids (every scan header). image_preflight walks on into the scans and checks what
// it walks, on its own.
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
  // A frame header: SOF0..SOF15, but DHT (C4), JPG (C8) and DAC (CC).
  bool is_frame_header() const {
    return marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
  }
};

// Where a walk of the segments ends: at the first scan (SOS), or at the end of the image, each scan
// header given as a segment and the entropy-coded data after it skipped.
enum class JpegWalk { ToFirstScan, ThroughScans };

// The segments from `start` (jpeg_segments_start, byte_view.h) on, fill bytes between them
// skipped; the walk ends as `walk` says, at the end of the image (EOI), at a byte that starts no
// marker, and when fewer than 4 bytes remain. A segment's data may run past the end of the file:
// ByteView reads those bytes as 0.
class JpegSegments {
 public:
  JpegSegments(ByteView bytes, uint64_t start, JpegWalk walk = JpegWalk::ToFirstScan)
      : bytes_(bytes), at_(start), walk_(walk) {}

  bool next(JpegSegment& segment) {
    if (in_scan_) skip_entropy_data();
    while (at_ + 4 <= bytes_.size() && bytes_.u8(at_) == 0xff) {
      const uint32_t marker = bytes_.u8(at_ + 1);
      if (marker == 0xff) {  // fill byte
        ++at_;
        continue;
      }
      if (marker == 0xd9) return false;                                    // end of image
      if (marker == 0xda && walk_ == JpegWalk::ToFirstScan) return false;  // start of scan
      segment = {at_, marker, bytes_.be16(at_ + 2)};
      at_ = segment.end();
      in_scan_ = marker == 0xda;
      return true;
    }
    return false;
  }

 private:
  // To the next marker other than a restart (FF D0..D7) or a stuffed FF 00.
  void skip_entropy_data() {
    in_scan_ = false;
    for (; at_ + 1 < bytes_.size(); ++at_) {
      const uint32_t next = bytes_.u8(at_ + 1);
      if (bytes_.u8(at_) == 0xff && next != 0 && next != 0xff && (next < 0xd0 || next > 0xd7))
        return;
    }
    at_ = bytes_.size();
  }

  ByteView bytes_;
  uint64_t at_;
  JpegWalk walk_;
  bool in_scan_ = false;
};

}  // namespace baker
