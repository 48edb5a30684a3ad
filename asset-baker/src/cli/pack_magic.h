// Telling a pack file from an asset file by its first bytes, for the commands given either.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>

namespace baker {

// Whether `bytes` begin as a pack file does: the magic "APAK" (docs/format.md, "Pack file").
inline bool has_pack_magic(std::span<const std::byte> bytes) {
  return bytes.size() >= 4 && std::memcmp(bytes.data(), "APAK", 4) == 0;
}

}  // namespace baker
