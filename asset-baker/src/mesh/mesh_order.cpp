#include "mesh/mesh_order.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <optional>

namespace baker {

void order_for_gpu(std::vector<MeshVertex>& vertices, std::vector<uint32_t>& indices,
                   const std::vector<ImportedSubmesh>& submeshes, bool own_vertices,
                   MeshFallbacks& fallbacks) {
  std::optional<SubmeshVertices> local;
  if (own_vertices) local.emplace(vertices);
  for (const ImportedSubmesh& sub : submeshes) {
    uint32_t* range = indices.data() + sub.first_index;
    if (local) {
      local->assign(range, sub.index_count);
      uint32_t* own = local->indices.data();
      optimize_vertex_cache(own, own, sub.index_count, local->vertex_count(), fallbacks);
      meshopt_optimizeOverdraw(own, own, sub.index_count, local->positions.data(),
                               local->vertex_count(), 3 * sizeof(float), 1.05f);
      local->to_mesh(own, sub.index_count);
      std::copy(own, own + sub.index_count, range);
      continue;
    }
    optimize_vertex_cache(range, range, sub.index_count, vertices.size(), fallbacks);
    meshopt_optimizeOverdraw(range, range, sub.index_count, vertices[0].position, vertices.size(),
                             sizeof(MeshVertex), 1.05f);
  }
  meshopt_optimizeVertexFetch(vertices.data(), indices.data(), indices.size(), vertices.data(),
                              vertices.size(), sizeof(MeshVertex));
}

}  // namespace baker
