// Internal: the one layout of a texture's levels, shared by make_texture_info and the reader of
// "mip_count" (docs/format.md, "Texture").
#pragma once

#include <assetlib/texture_asset.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace assetlib::detail {

// The side of level `level` of a texture whose level 0 has side `side`: max(1, side >> level),
// 1 past level 31 (a shift of 32 or more is undefined; a hostile "mip_count" asks for up to 64).
inline uint32_t mip_side(uint32_t side, uint32_t level) {
  return level < 32 ? std::max(1u, side >> level) : 1u;
}

// Appends levels 0..count-1 of a `width` x `height` texture of `format` to `mips`: level i is
// max(1, width >> i) x max(1, height >> i), right after level i - 1. Returns their total size.
// Allocates nothing once `mips` has the capacity.
uint64_t lay_out_mip_chain(TextureFormat format, uint32_t width, uint32_t height, uint32_t count,
                           std::vector<TextureMip>& mips);

}  // namespace assetlib::detail
