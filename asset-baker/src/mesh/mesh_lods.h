// Coarser levels of detail with meshoptimizer's simplifier.
#pragma once

#include "mesh/mesh_budget.h"

#include "common/imported_mesh.h"

#include <assetlib/mesh_asset.h>

#include <cstdint>
#include <vector>

namespace baker {

// Builds up to `count` LODs; LOD k aims at half the triangles of LOD k-1 within an error of 5% of
// the mesh's extent. Each submesh is simplified on its own (materials stay apart), its ranges are
// appended to `indices` after LOD 0 and optimised for the vertex cache. Stops early when a level
// would remove less than a tenth of the previous one's triangles. With `split`, each submesh is
// simplified on its own vertices, and a submesh with a vertex in more than kMaxOptimizedValence
// triangles by sloppy simplification (mesh_budget.h); `fallbacks` records either.
void build_lods(const std::vector<MeshVertex>& vertices,
                const std::vector<assetlib::Submesh>& submeshes, uint32_t count, bool split,
                std::vector<uint32_t>& indices, std::vector<assetlib::MeshLod>& lods,
                MeshFallbacks& fallbacks);

}  // namespace baker
