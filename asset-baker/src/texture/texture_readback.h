// Turning one level of a baked texture back into 8-bit RGBA: for export to PNG and for measuring
// quality against the source.
#pragma once

#include <assetlib/texture_asset.h>

#include <cstdint>
#include <span>
#include <vector>

namespace baker {

// Converts level `mip` of an unpacked texture (`unpacked` = all levels, the assetlib layout) to
// tightly packed 8-bit RGBA, sRGB-encoded for colour formats. HDR is clamped to 0..1.
std::vector<uint8_t> level_to_rgba8(const assetlib::TextureInfo& info, uint32_t mip,
                                    std::span<const std::byte> unpacked);

}  // namespace baker
