// GPU block compression (BC1, BC3, BC4, BC5) of RGBA8 levels with stb_dxt, and the matching
// decoders (for export and quality measurement).
#pragma once

#include <assetlib/texture_asset.h>

#include <cstddef>
#include <cstdint>

namespace baker {

// True for the BCn formats this file encodes.
bool is_block_format(assetlib::TextureFormat format);

// Encodes a `width` x `height` RGBA8 level into `dst` (texture_level_size(format, ...) bytes).
// Edge blocks repeat the last row/column. Large levels are split over up to `threads` threads by
// block rows; the output does not depend on the thread count. BC4 takes the red channel, BC5 red
// and green.
void compress_level(assetlib::TextureFormat format, const uint8_t* rgba, uint32_t width,
                    uint32_t height, std::byte* dst, unsigned threads = 1);

// Decodes a BCn level back to RGBA8 (`rgba` holds width * height * 4 bytes). BC4 gives grey,
// BC5 gives (x, y, reconstructed z) as a normal map would be sampled.
void decompress_level(assetlib::TextureFormat format, const std::byte* blocks, uint32_t width,
                      uint32_t height, uint8_t* rgba);

}  // namespace baker
