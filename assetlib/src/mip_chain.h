// Internal: the one layout of a texture's levels, shared by make_texture_info and the reader of
// "mip_count" (docs/format.md, "Texture").
#pragma once

#include <assetlib/texture_asset.h>

#include <cstdint>
#include <vector>

namespace assetlib::detail {

// Appends levels 0..count-1 of a `width` x `height` texture of `format` to `mips`: level i is
// max(1, width >> i) x max(1, height >> i), right after level i - 1. Returns their total size.
// Allocates nothing once `mips` has the capacity.
uint64_t lay_out_mip_chain(TextureFormat format, uint32_t width, uint32_t height, uint32_t count,
                           std::vector<TextureMip>& mips);

}  // namespace assetlib::detail
