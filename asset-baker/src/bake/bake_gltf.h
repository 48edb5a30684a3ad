// A glTF 2.0 file -> a "PRFB" prefab named after the file, and as parts (asset_names.h) one
// "MESH" per mesh with triangles, one "MATL" per material, the "TEXI" textures of the images it
// embeds (one per role its materials use them in), one "SKEL" per skin and one "CLIP" per
// animation (docs/baker.md, "glTF"). The prefab comes last in `out`.
#pragma once

#include "bake/baked_asset.h"
#include "common/bake_settings.h"
#include "common/bake_status.h"
#include "import/import_inputs.h"

#include <span>
#include <string>
#include <vector>

namespace baker {

// Imports `bytes` (the .gltf or .glb at `relative_path`) and bakes it into `out`. `threads` bounds
// the meshes baked at once and the block compression of embedded images; the outputs do not
// depend on it.
BakeStatus bake_gltf(std::span<const std::byte> bytes, const std::string& relative_path,
                     const ImportInputs& inputs, const BakeSettings& settings, unsigned threads,
                     BakedAssets& out, std::vector<std::string>& warnings);

}  // namespace baker
