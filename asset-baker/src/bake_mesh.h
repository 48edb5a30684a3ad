// Wavefront OBJ (+ .mtl) -> "MESH" assets: triangulated, indexed, optimised for the GPU, one
// submesh per material.
#pragma once

#include "bake_config.h"

#include <assetlib/mesh_asset.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baker {

// Everything a mesh bake reads besides the .obj, supplied by the caller so that it controls (and
// records) which files are read. Both take root-relative paths already checked to stay inside.
struct MeshInputs {
  // Returns the text of the .mtl at `relative_path`, or nullopt when it cannot be read.
  std::function<std::optional<std::string>(const std::string& relative_path)> read_file;
  // True when a texture at `relative_path` exists and will be baked.
  std::function<bool(const std::string& relative_path)> texture_exists;
};

// Imports `obj_text` (the .obj at `relative_path`) and packs it into `out`. Problems that still
// allow a mesh (a missing .mtl or texture, a refused path) become warnings.
assetlib::Status bake_mesh(std::string_view obj_text, const std::string& relative_path,
                           const MeshInputs& inputs, const BakeSettings& settings,
                           assetlib::AssetFile& out, std::vector<std::string>& warnings);

}  // namespace baker
