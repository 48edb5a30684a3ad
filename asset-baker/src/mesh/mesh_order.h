// Triangle and vertex order for the GPU's caches, with meshoptimizer.
#pragma once

#include "common/imported_mesh.h"
#include "mesh/mesh_budget.h"

#include <cstdint>
#include <vector>

namespace baker {

// Orders each submesh's triangles for the post-transform vertex cache and then for overdraw
// (ranges stay where they are), then the vertices for fetch locality, renumbering `indices`.
// With `own_vertices`, each submesh is ordered on the vertices it uses (SubmeshVertices): the same
// order, without meshoptimizer's cost of every other vertex per submesh. That holds as
// meshoptimizer 0.18 orders: by triangle order and cache position, the FIFO variant's dead ends
// scanning vertex numbers upwards (the renumbering keeps their order), overdraw sorting about the
// centre of the submesh's own corners (a test pins all three). A submesh with a vertex in more than
// kMaxOptimizedValence triangles is ordered by FIFO (`fallbacks`).
void order_for_gpu(std::vector<MeshVertex>& vertices, std::vector<uint32_t>& indices,
                   const std::vector<ImportedSubmesh>& submeshes, bool own_vertices,
                   MeshFallbacks& fallbacks);

}  // namespace baker
