// A PSD's image resources (Adobe's Photoshop file format, "Image Resources section"): after the
// 26-byte header and the colour mode data, a section of resources, each "8BIM", a 2-byte id, a
// Pascal name padded to an even length, a 4-byte size and its data padded to an even length.
#pragma once

#include "import/byte_view.h"

#include <cstdint>
#include <optional>

namespace baker {

struct PsdResource {
  uint64_t data = 0;  // offset of its data in the file
  uint64_t size = 0;  // bytes of data; they may run past the file: check against its size
};

// The first resource `id` of the PSD `b`; nullopt when there is none, or the section's walk meets
// something other than a resource first.
inline std::optional<PsdResource> psd_resource(const ByteView& b, uint32_t id) {
  const uint64_t resources = 26 + 4 + uint64_t(b.be32(26));
  const uint64_t end = resources + 4 + uint64_t(b.be32(resources));
  for (uint64_t at = resources + 4; at + 12 <= end && at + 12 <= b.size() && b.has(at, "8BIM");) {
    const uint64_t name = at + 6;
    const uint64_t size_at = name + ((1 + uint64_t(b.u8(name)) + 1) & ~uint64_t(1));
    const PsdResource resource{size_at + 4, b.be32(size_at)};
    if (b.be16(at + 4) == id) return resource;
    at = resource.data + ((resource.size + 1) & ~uint64_t(1));
  }
  return std::nullopt;
}

}  // namespace baker
