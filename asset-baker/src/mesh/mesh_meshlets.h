// Meshlets (clusters for mesh shaders and cluster culling) with meshoptimizer.
#pragma once

#include "mesh/mesh_budget.h"

#include "common/imported_mesh.h"

#include <assetlib/mesh_asset.h>

#include <cstdint>
#include <vector>

namespace baker {

// Splits each submesh's LOD 0 triangles into meshlets of at most 64 vertices and 124 triangles,
// with a bounding sphere and backface cone each, and records each submesh's meshlet range. With
// `own_vertices`, each submesh is clustered on its own vertices (the same meshlets); a submesh
// meshoptimizer would cluster in superlinear time is cut in index order instead (mesh_budget.h,
// `fallbacks`).
void build_meshlets(const std::vector<MeshVertex>& vertices, const std::vector<uint32_t>& indices,
                    std::vector<assetlib::Submesh>& submeshes, bool own_vertices,
                    assetlib::MeshletData& out, MeshFallbacks& fallbacks);

}  // namespace baker
