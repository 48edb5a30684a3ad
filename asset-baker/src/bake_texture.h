// Images (everything stb_image reads) -> "TEXI" texture assets with a full mip chain.
#pragma once

#include "bake_config.h"

#include <assetlib/texture_asset.h>

#include <span>
#include <string>
#include <vector>

namespace baker {

// Largest width or height accepted from a source image (checked before decoding).
inline constexpr uint32_t kMaxSourceDimension = 16384;

// The role of an image from its path: "*_n.png", "*.n.png", "*_normal.*" are normal maps;
// "*_roughness.*", "*_ao.*", "*_mask.*" ... are data; anything under a "ui/" folder is UI;
// the rest is colour. docs/baker.md lists every suffix.
TextureRole role_from_name(const std::string& relative_path);

// Decodes `source` (the bytes of the image at `relative_path`) and packs it into `out`.
// Warnings (such as a 16-bit colour image reduced to 8 bits) are appended to `warnings`.
// `threads` bounds the threads block compression may use (the baker gives each job all cores);
// it never changes the output.
assetlib::Status bake_texture(std::span<const std::byte> source, const std::string& relative_path,
                              const BakeSettings& settings, assetlib::AssetFile& out,
                              std::vector<std::string>& warnings, unsigned threads = 1);

}  // namespace baker
