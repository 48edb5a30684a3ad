// What baking one source produces: assets, each with its logical name and its place in the output
// folder (common/asset_names.h). The pipeline writes them all or none.
#pragma once

#include <assetlib/asset_file.h>

#include <string>
#include <vector>

namespace baker {

struct BakedAsset {
  std::string name;  // logical name, as the manifest lists it
  std::string path;  // output-relative, '/'
  assetlib::AssetFile file;
};

using BakedAssets = std::vector<BakedAsset>;

}  // namespace baker
