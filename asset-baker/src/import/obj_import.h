// Reading an OBJ with tinyobjloader into a triangle soup grouped by material.
#pragma once

#include "common/bake_status.h"
#include "common/imported_mesh.h"
#include "import/import_inputs.h"

#include <assetlib/material_asset.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace baker {

// Budgets on the OBJ text, checked in one pass before tinyobjloader parses it (docs/robustness.md,
// "Baker"). The baker triangulates a face of n corners by ear clipping (polygon_triangulation.h),
// quadratic in n (tinyobjloader's own triangulation took 23 s on one face of 40000 corners): a face
// may have at most kMaxPolygonCorners corners, and the faces of more than 4 corners (triangles and
// quads cost a constant) at most kTriangulationBudgetBase + kTriangulationBudgetPerByte x the
// file's size in corners squared, all faces together. Real n-gons (cylinder caps, glyph outlines,
// floor plans) are far below both.
inline constexpr size_t kMaxPolygonCorners = 1024;
inline constexpr uint64_t kTriangulationBudgetBase = uint64_t(1) << 24;
inline constexpr uint64_t kTriangulationBudgetPerByte = 64;

// Parses the OBJ (after the budgets above and the index widths are checked on the text; `t` lines,
// subdivision tags the baker never uses, are skipped: tinyobjloader copies all of them into every
// group), checks every index, triangulates polygons by their outline (a concave face covers exactly
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
