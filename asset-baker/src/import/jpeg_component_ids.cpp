#include "import/jpeg_component_ids.h"

#include "import/byte_view.h"
#include "import/jpeg_segments.h"

#include <string_view>
#include <vector>

namespace baker {
namespace {

constexpr uint8_t kRgbIds[3] = {'R', 'G', 'B'};

// What decides the colour transform, and where the component numbers lie.
struct ComponentIds {
  bool jfif = false;
  bool adobe = false;
  uint32_t adobe_transform = 0;
  bool rgb_numbered = false;    // the frame's 3 components are 'R', 'G', 'B'
  std::vector<uint64_t> id_at;  // each component number, frame and scan headers, in file order
};

ComponentIds read_component_ids(const ByteView& b, uint64_t start) {
  ComponentIds ids;
  JpegSegments segments(b, start, JpegWalk::ThroughScans);
  for (JpegSegment segment; segments.next(segment);) {
    const uint64_t data = segment.data();
    if (segment.marker == 0xe0 && b.has(data, std::string_view("JFIF\0", 5))) ids.jfif = true;
    if (segment.marker == 0xee && segment.end() >= data + 12 && b.has(data, "Adobe")) {
      ids.adobe = true;
      ids.adobe_transform = b.u8(data + 11);
    }
    if (segment.is_frame_header() && b.u8(data + 5) == 3) {
      ids.rgb_numbered = true;
      for (uint64_t k = 0; k < 3; ++k) {
        ids.id_at.push_back(data + 6 + 3 * k);
        ids.rgb_numbered = ids.rgb_numbered && b.u8(data + 6 + 3 * k) == kRgbIds[k];
      }
    }
    if (segment.marker == 0xda) {  // scan header: count, then (selector, tables) per component
      for (uint64_t k = 0; k < b.u8(data) && data + 1 + 2 * k < segment.end(); ++k)
        ids.id_at.push_back(data + 1 + 2 * k);
    }
  }
  return ids;
}

}  // namespace

std::optional<PatchedImage> jpeg_ycbcr_renumbered(std::span<const std::byte> source) {
  const ByteView b(source);
  const uint64_t start = jpeg_segments_start(b);
  if (start == 0) return std::nullopt;
  const ComponentIds ids = read_component_ids(b, start);
  const bool says_ycbcr = ids.jfif || (ids.adobe && ids.adobe_transform != 0);
  if (!ids.rgb_numbered || !says_ycbcr) return std::nullopt;
  PatchedImage patch;
  for (uint64_t at : ids.id_at) {
    if (at >= b.size()) break;
    uint8_t renumbered = uint8_t(b.u8(at));
    for (uint8_t k = 0; k < 3; ++k) {
      if (b.u8(at) == kRgbIds[k]) renumbered = uint8_t(k + 1);
    }
    patch.edits.push_back({at, 1, {renumbered}});
  }
  return patch;
}

}  // namespace baker
