// A material (assetlib::MaterialInfo, from any importer) -> a "MATL" asset.
#pragma once

#include "common/bake_status.h"

#include <assetlib/material_asset.h>

#include <string>

namespace baker {

// Packs `material` into `out`; a failure (a number that is not finite) names `source`.
BakeStatus bake_material(const assetlib::MaterialInfo& material, const std::string& source,
                         assetlib::AssetFile& out);

}  // namespace baker
