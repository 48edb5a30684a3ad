// Internal: bounding boxes and spheres of vertex positions (the first 3 floats of each vertex).
#pragma once

#include <assetlib/mesh_asset.h>

namespace assetlib::detail {

// Bounds of the vertices `indices[first .. first + count)` name (index_size 2 or 4).
MeshBounds indexed_bounds(const void* vertices, uint32_t stride, const void* indices,
                          uint32_t index_size, uint32_t first, uint32_t count);

// False if any position is NaN or infinite.
bool positions_finite(const void* vertices, uint32_t vertex_count, uint32_t stride);

}  // namespace assetlib::detail
