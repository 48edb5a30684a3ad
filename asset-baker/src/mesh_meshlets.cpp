#include "mesh_meshlets.h"

#include <meshoptimizer.h>

#include <cstring>

namespace baker {

using assetlib::Vertex_PNCVT_F32;

void build_meshlets(const std::vector<Vertex_PNCVT_F32>& vertices, const std::vector<uint32_t>& indices,
                    std::vector<assetlib::Submesh>& submeshes, assetlib::MeshletData& out) {
  constexpr size_t kMaxVertices = 64, kMaxTriangles = 124;
  constexpr float kConeWeight = 0.25f;  // favour tight cones a little, for backface culling
  const float* positions = vertices[0].position;
  for (assetlib::Submesh& sub : submeshes) {
    const uint32_t* range = indices.data() + sub.first_index;
    size_t bound = meshopt_buildMeshletsBound(sub.index_count, kMaxVertices, kMaxTriangles);
    std::vector<meshopt_Meshlet> meshlets(bound);
    std::vector<uint32_t> meshlet_vertices(bound * kMaxVertices);
    std::vector<uint8_t> meshlet_triangles(bound * kMaxTriangles * 3);
    size_t count = meshopt_buildMeshlets(meshlets.data(), meshlet_vertices.data(), meshlet_triangles.data(), range,
                                         sub.index_count, positions, vertices.size(), sizeof(Vertex_PNCVT_F32),
                                         kMaxVertices, kMaxTriangles, kConeWeight);
    sub.first_meshlet = uint32_t(out.meshlets.size());
    sub.meshlet_count = uint32_t(count);
    for (size_t m = 0; m < count; ++m) {
      const meshopt_Meshlet& ml = meshlets[m];
      meshopt_Bounds b = meshopt_computeMeshletBounds(&meshlet_vertices[ml.vertex_offset],
                                                      &meshlet_triangles[ml.triangle_offset], ml.triangle_count,
                                                      positions, vertices.size(), sizeof(Vertex_PNCVT_F32));
      assetlib::Meshlet packed{uint32_t(out.vertices.size()), uint32_t(out.triangles.size()), ml.vertex_count,
                               ml.triangle_count, {}, b.radius, {}, {}, b.cone_cutoff};
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
