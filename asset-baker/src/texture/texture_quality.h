// Measuring what baking cost a texture: PSNR of a baked level 0 against its source image.
#pragma once

#include <assetlib/texture_asset.h>

#include <optional>
#include <span>
#include <string>

namespace baker {

// PSNR in dB of level 0 of `baked` (unpacked bytes, assetlib layout) against the decoded `source`
// image, over the channels the format keeps (R for BC4, RG for BC5, RGB for BC1, RGBA otherwise),
// in 8-bit stored values. nullopt when the source cannot be decoded or its size differs (max_size).
// Identical images give +inf.
std::optional<double> texture_psnr(const assetlib::TextureInfo& info,
                                   std::span<const std::byte> baked,
                                   std::span<const std::byte> source);

}  // namespace baker
