// Reading an OBJ (obj_parse.h) into a triangle soup grouped by material.
#pragma once

#include "common/bake_status.h"
#include "common/imported_mesh.h"
#include "import/import_inputs.h"
#include "import/obj_parse.h"

#include <assetlib/material_asset.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace baker {

// Parses the OBJ (parse_obj: the budgets on faces and the index widths are checked as it reads),
// checks every index, triangulates polygons by their outline (a concave face covers exactly
// its area; a face whose outline crosses itself is warned about), flips V for Vulkan's top-left
// texture origin, and generates smooth angle-weighted normals (respecting smoothing groups) where
// the file has none. `out` is indexed: out.soup holds one vertex per distinct (position, UV,
// normal) the corners use, in order of first use, out.corners each triangle corner's vertex.
// Each material the faces use becomes one entry of `materials` (mtl_materials.h;
// faces without one get a white "default"), in submesh order; out.materials holds their summaries,
// each naming its asset "<obj>#material/<i>" (asset_names.h).
BakeStatus import_obj(std::string_view obj_text, const std::string& relative_path,
                      const ImportInputs& inputs, ImportedMesh& out,
                      std::vector<assetlib::MaterialInfo>& materials,
                      std::vector<std::string>& warnings);

}  // namespace baker
