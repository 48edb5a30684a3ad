// Per-vertex tangent frames for normal mapping, from positions, normals and UVs.
#pragma once

#include <assetlib/mesh_asset.h>

#include <cstdint>
#include <vector>

namespace baker {

// Accumulates each triangle's UV-aligned tangent and bitangent on its vertices, then makes the
// tangent orthogonal to the normal (Gram-Schmidt) and stores the bitangent's handedness in w.
// Vertices whose UVs give no direction get any unit tangent perpendicular to the normal.
void generate_tangents(std::vector<assetlib::Vertex_PNCVT_F32>& vertices, const std::vector<uint32_t>& indices);

}  // namespace baker
