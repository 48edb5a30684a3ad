// The uncompressed mip chain of a texture, built from its decoded source image.
#pragma once

#include "common/bake_settings.h"
#include "import/image_import.h"

#include <assetlib/texture_asset.h>

#include <cstddef>
#include <vector>

namespace baker {

// All levels of `info` (format RGBA8_SRGB, RGBA8_UNORM, RGBA16_UNORM or RGBA16_SFLOAT), in the
// assetlib layout. Level 0 is the image scaled to info's size; each further level is filtered from
// the one before: gamma-correct and alpha-weighted for sRGB, renormalised for normal maps, in float
// for HDR (stored as half floats), reading beyond the edges as `sampling` says (wrapping round for
// a texture that repeats, clamped otherwise). A colour texture with an alpha cutoff keeps the
// source's alpha coverage at that cutoff in every level (alpha_coverage.h). The image's pixels
// are released once level 0 is built, to bound peak memory.
std::vector<std::byte> build_mip_chain(DecodedImage& image, const assetlib::TextureInfo& info,
                                       TextureRole role, SlotSampling sampling);

}  // namespace baker
