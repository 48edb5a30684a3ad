// Encoding the baker's working vertices (full-float with tangents) into a baked vertex format.
#pragma once

#include <assetlib/mesh_asset.h>

#include <cstddef>
#include <vector>

namespace baker {

// The vertices in `format`'s layout (docs/format.md): floats copied or quantised, normals and
// tangents octahedral-encoded for PNCVT_OCT.
std::vector<std::byte> encode_vertices(const std::vector<assetlib::Vertex_PNCVT_F32>& vertices,
                                       assetlib::VertexFormat format);

}  // namespace baker
