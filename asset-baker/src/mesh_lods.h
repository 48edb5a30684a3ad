// Coarser levels of detail with meshoptimizer's simplifier.
#pragma once

#include <assetlib/mesh_asset.h>

#include <cstdint>
#include <vector>

namespace baker {

// Builds up to `count` LODs; LOD k aims at half the triangles of LOD k-1 within an error of 5% of
// the mesh's extent. Each submesh is simplified on its own (materials stay apart), its ranges are
// appended to `indices` after LOD 0 and optimised for the vertex cache. Stops early when a level
// would remove less than a tenth of the previous one's triangles.
void build_lods(const std::vector<assetlib::Vertex_PNCVT_F32>& vertices, const std::vector<assetlib::Submesh>& submeshes,
                uint32_t count, std::vector<uint32_t>& indices, std::vector<assetlib::MeshLod>& lods);

}  // namespace baker
