// Encoding the baker's working vertices (MeshVertex: every attribute in float, and the skin) into a
// baked vertex format and skin format.
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

// The skin stream of `vertices` in `format`'s layout (docs/format.md): one record per vertex, their
// joints and weights as the importer quantised them for that format. Empty for SkinFormat::None.
std::vector<std::byte> encode_skin(const std::vector<MeshVertex>& vertices,
                                   assetlib::SkinFormat format);

}  // namespace baker
