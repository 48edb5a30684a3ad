// Encoding the baker's working vertices (MeshVertex: every attribute in float) into a baked
// vertex format.
#pragma once

#include "common/imported_mesh.h"

#include <assetlib/mesh_asset.h>

#include <cstddef>
#include <vector>

namespace baker {

// The vertices in `format`'s layout (docs/format.md): floats copied or quantised, normals and
// tangents octahedral-encoded for the _OCT formats; attributes a format lacks are dropped.
std::vector<std::byte> encode_vertices(const std::vector<MeshVertex>& vertices,
                                       assetlib::VertexFormat format);

}  // namespace baker
