#include "import/jpeg_component_ids.h"

#include "import/byte_view.h"

#include <string_view>
#include <vector>

namespace baker {
namespace {

constexpr uint8_t kRgbIds[3] = {'R', 'G', 'B'};

bool is_frame_header(uint32_t marker) {  // SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC)
  return marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
}

// What decides the colour transform, and where the component numbers lie.
struct ComponentIds {
  bool jfif = false;
  bool adobe = false;
  uint32_t adobe_transform = 0;
  bool rgb_numbered = false;    // the frame's 3 components are 'R', 'G', 'B'
  std::vector<uint64_t> id_at;  // each component number, frame and scan headers, in file order
};

// The position after the entropy-coded data that starts at `at`: the next marker other than a
// restart (FF D0..D7) or a stuffed FF 00.
uint64_t skip_entropy_data(const ByteView& b, uint64_t at) {
  for (; at + 1 < b.size(); ++at) {
    const uint32_t next = b.u8(at + 1);
    if (b.u8(at) == 0xff && next != 0 && next != 0xff && (next < 0xd0 || next > 0xd7)) return at;
  }
  return b.size();
}

ComponentIds read_component_ids(const ByteView& b, uint64_t at) {
  ComponentIds ids;
  while (at + 4 <= b.size() && b.u8(at) == 0xff) {
    const uint32_t marker = b.u8(at + 1);
    if (marker == 0xff) {  // fill byte
      ++at;
      continue;
    }
    if (marker == 0xd9) break;  // end of image
    const uint64_t data = at + 4, end = at + 2 + b.be16(at + 2);
    if (marker == 0xe0 && b.has(data, std::string_view("JFIF\0", 5))) ids.jfif = true;
    if (marker == 0xee && end >= data + 12 && b.has(data, "Adobe")) {
      ids.adobe = true;
      ids.adobe_transform = b.u8(data + 11);
    }
    if (is_frame_header(marker) && b.u8(data + 5) == 3) {
      ids.rgb_numbered = true;
      for (uint64_t k = 0; k < 3; ++k) {
        ids.id_at.push_back(data + 6 + 3 * k);
        ids.rgb_numbered = ids.rgb_numbered && b.u8(data + 6 + 3 * k) == kRgbIds[k];
      }
    }
    if (marker == 0xda) {  // scan header: count, then (selector, tables) per component
      for (uint64_t k = 0; k < b.u8(data) && data + 1 + 2 * k < end; ++k)
        ids.id_at.push_back(data + 1 + 2 * k);
      at = skip_entropy_data(b, end);
      continue;
    }
    at = end;
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
