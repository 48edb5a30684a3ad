// Meshlets (clusters for mesh shaders and cluster culling) with meshoptimizer.
#pragma once

#include <assetlib/mesh_asset.h>

#include <cstdint>
#include <vector>

namespace baker {

// Splits each submesh's LOD 0 triangles into meshlets of at most 64 vertices and 124 triangles,
// with a bounding sphere and backface cone each, and records each submesh's meshlet range.
void build_meshlets(const std::vector<assetlib::Vertex_PNCVT_F32>& vertices, const std::vector<uint32_t>& indices,
                    std::vector<assetlib::Submesh>& submeshes, assetlib::MeshletData& out);

}  // namespace baker
