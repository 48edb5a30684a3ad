// Encoding the baker's working vertices (MeshVertex: every attribute in float, and the skin) into a
// baked vertex format and skin format.
#pragma once

#include "common/imported_mesh.h"

#include <assetlib/mesh_asset.h>

#include <cstddef>
#include <string>
#include <vector>

namespace baker {

// The vertices in `format`'s layout (docs/format.md): floats copied or quantised, normals and
// tangents octahedral-encoded for the _OCT formats; attributes a format lacks are dropped.
std::vector<std::byte> encode_vertices(const std::vector<MeshVertex>& vertices,
                                       assetlib::VertexFormat format);

// From this magnitude on, a half float steps by 1/128 of a texture's width or more.
inline constexpr float kHalfUvLimit = 8;

// When `format` stores UVs as half floats (the _OCT formats, P32N8C8V16) and some UV of `vertices`
// reaches kHalfUvLimit: the largest magnitude and the half-float step there ("UVs reach 2048.3,
// where a half float steps by 2"), or, past kMaxHalf, that they were clamped to it (to_half,
// half_float.h); else empty. For a warning: such UVs move by whole texels.
std::string half_uv_loss(const std::vector<MeshVertex>& vertices, assetlib::VertexFormat format);

// The skin stream of `vertices` in `format`'s layout (docs/format.md): one record per vertex, their
// joints and weights as the importer quantised them for that format. Empty for SkinFormat::None.
std::vector<std::byte> encode_skin(const std::vector<MeshVertex>& vertices,
                                   assetlib::SkinFormat format);

}  // namespace baker
