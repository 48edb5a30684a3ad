// Internal: the little-endian integers of the binary headers (asset files, packs), read and written
// byte by byte so neither the host's byte order nor alignment matters.
#pragma once

#include <cstddef>
#include <cstdint>

namespace assetlib::detail {

inline uint32_t read_u32(const std::byte* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

inline uint64_t read_u64(const std::byte* p) {
  return read_u32(p) | uint64_t(read_u32(p + 4)) << 32;
}

inline void write_u32(std::byte* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = std::byte((v >> (8 * i)) & 0xff);
}

inline void write_u64(std::byte* p, uint64_t v) {
  write_u32(p, uint32_t(v));
  write_u32(p + 4, uint32_t(v >> 32));
}

}  // namespace assetlib::detail
