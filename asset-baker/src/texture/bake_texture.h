// Images (everything stb_image reads) -> "TEXI" texture assets: decoded (import/image_import.h),
// given a role (texture_role.h), a mip chain (mip_chain.h) and a GPU format (block_compress.h).
#pragma once

#include "common/bake_settings.h"
#include "common/bake_status.h"

#include <assetlib/texture_asset.h>

#include <span>
#include <string>
#include <vector>

namespace baker {

// Decodes `source` (the bytes of the image at `relative_path`) and packs it into `out`.
// Warnings (such as a 16-bit colour image reduced to 8 bits) are appended to `warnings`.
// `threads` bounds the threads block compression may use (the baker gives each job all cores);
// it never changes the output.
BakeStatus bake_texture(std::span<const std::byte> source, const std::string& relative_path,
                        const BakeSettings& settings, assetlib::AssetFile& out,
                        std::vector<std::string>& warnings, unsigned threads = 1);

}  // namespace baker
