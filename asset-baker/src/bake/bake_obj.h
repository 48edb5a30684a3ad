// An OBJ (+ its .mtl libraries) -> one "MESH" asset named after the OBJ and one "MATL" asset per
// material its faces use (docs/baker.md, "Meshes" and "Materials").
#pragma once

#include "bake/baked_asset.h"
#include "common/bake_settings.h"
#include "common/bake_status.h"
#include "import/import_inputs.h"

#include <string>
#include <string_view>
#include <vector>

namespace baker {

// Imports `obj_text` (the OBJ at `relative_path`) and bakes its mesh and materials into `out`.
// Problems that still allow a mesh (a missing .mtl or texture, a refused path) are warnings.
BakeStatus bake_obj(std::string_view obj_text, const std::string& relative_path,
                    const ImportInputs& inputs, const BakeSettings& settings, BakedAssets& out,
                    std::vector<std::string>& warnings);

}  // namespace baker
