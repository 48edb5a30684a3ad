#include "mesh/mesh_meshlets.h"

#include <meshoptimizer.h>

#include <cstring>
#include <optional>

namespace baker {

void build_meshlets(const std::vector<MeshVertex>& vertices, const std::vector<uint32_t>& indices,
                    std::vector<assetlib::Submesh>& submeshes, bool own_vertices,
                    assetlib::MeshletData& out, MeshFallbacks& fallbacks) {
  constexpr size_t kMaxVertices = 64, kMaxTriangles = 124;
  constexpr float kConeWeight = 0.25f;  // favour tight cones a little, for backface culling
  std::optional<SubmeshVertices> local;
  if (own_vertices) local.emplace(vertices);
  for (assetlib::Submesh& sub : submeshes) {
    const uint32_t* range = indices.data() + sub.first_index;
    const float* positions = vertices[0].position;
    size_t vertex_count = vertices.size(), stride = sizeof(MeshVertex);
    if (local) {  // the submesh on its own vertices; meshlet vertices are mapped back below
      local->assign(range, sub.index_count);
      range = local->indices.data();
      positions = local->positions.data();
      vertex_count = local->vertex_count();
      stride = 3 * sizeof(float);
    }
    size_t bound = meshopt_buildMeshletsBound(sub.index_count, kMaxVertices, kMaxTriangles);
    std::vector<meshopt_Meshlet> meshlets(bound);
    std::vector<uint32_t> meshlet_vertices(bound * kMaxVertices);
    std::vector<uint8_t> meshlet_triangles(bound * kMaxTriangles * 3);
    size_t count = baker::build_meshlets(
        meshlets.data(), meshlet_vertices.data(), meshlet_triangles.data(), range, sub.index_count,
        positions, vertex_count, stride, kMaxVertices, kMaxTriangles, kConeWeight, fallbacks);
    sub.first_meshlet = uint32_t(out.meshlets.size());
    sub.meshlet_count = uint32_t(count);
    for (size_t m = 0; m < count; ++m) {
      const meshopt_Meshlet& ml = meshlets[m];
      meshopt_Bounds b = meshopt_computeMeshletBounds(
          &meshlet_vertices[ml.vertex_offset], &meshlet_triangles[ml.triangle_offset],
          ml.triangle_count, positions, vertex_count, stride);
      if (local) local->to_mesh(&meshlet_vertices[ml.vertex_offset], ml.vertex_count);
      assetlib::Meshlet packed{uint32_t(out.vertices.size()),
                               uint32_t(out.triangles.size()),
                               ml.vertex_count,
                               ml.triangle_count,
                               {},
                               b.radius,
                               {},
                               {},
                               b.cone_cutoff};
      std::memcpy(packed.center, b.center, sizeof packed.center);
      std::memcpy(packed.cone_apex, b.cone_apex, sizeof packed.cone_apex);
      std::memcpy(packed.cone_axis, b.cone_axis, sizeof packed.cone_axis);
      out.meshlets.push_back(packed);
      out.vertices.insert(out.vertices.end(), meshlet_vertices.begin() + ml.vertex_offset,
                          meshlet_vertices.begin() + ml.vertex_offset + ml.vertex_count);
      out.triangles.insert(out.triangles.end(), meshlet_triangles.begin() + ml.triangle_offset,
                           meshlet_triangles.begin() + ml.triangle_offset + ml.triangle_count * 3);
    }
  }
}

}  // namespace baker
