#include "bake_mesh.h"

#include "mesh_lods.h"
#include "mesh_meshlets.h"
#include "mesh_tangents.h"
#include "obj_import.h"
#include "vertex_encode.h"

#include <meshoptimizer.h>

namespace baker {
namespace {

using assetlib::Status;
using assetlib::Vertex_PNCVT_F32;

// Identical vertices of the triangle soup merged into one indexed mesh.
void index_soup(const std::vector<Vertex_PNCVT_F32>& soup, std::vector<Vertex_PNCVT_F32>& vertices,
                std::vector<uint32_t>& indices) {
  std::vector<uint32_t> remap(soup.size());
  size_t unique = meshopt_generateVertexRemap(remap.data(), nullptr, soup.size(), soup.data(), soup.size(),
                                              sizeof(Vertex_PNCVT_F32));
  vertices.resize(unique);
  indices.resize(soup.size());
  meshopt_remapVertexBuffer(vertices.data(), soup.data(), soup.size(), sizeof(Vertex_PNCVT_F32), remap.data());
  meshopt_remapIndexBuffer(indices.data(), nullptr, soup.size(), remap.data());
}

// Orders triangles for the post-transform cache and for overdraw within each submesh (so ranges
// stay contiguous), then vertices for fetch locality.
void optimize(std::vector<Vertex_PNCVT_F32>& vertices, std::vector<uint32_t>& indices,
              const std::vector<ImportedSubmesh>& submeshes) {
  for (const ImportedSubmesh& sub : submeshes) {
    uint32_t* range = indices.data() + sub.first_index;
    meshopt_optimizeVertexCache(range, range, sub.index_count, vertices.size());
    meshopt_optimizeOverdraw(range, range, sub.index_count, vertices[0].position, vertices.size(),
                             sizeof(Vertex_PNCVT_F32), 1.05f);
  }
  meshopt_optimizeVertexFetch(vertices.data(), indices.data(), indices.size(), vertices.data(), vertices.size(),
                              sizeof(Vertex_PNCVT_F32));
}

void analyze(const std::vector<uint32_t>& indices, size_t vertex_count, float& acmr, float& atvr) {
  meshopt_VertexCacheStatistics stats = meshopt_analyzeVertexCache(indices.data(), indices.size(), vertex_count, 16, 0, 0);
  acmr = stats.acmr;
  atvr = stats.atvr;
}

assetlib::VertexFormat format_named(const std::string& name) {
  assetlib::VertexFormat format = assetlib::vertex_format_from_name(name);
  return format == assetlib::VertexFormat::Unknown ? assetlib::VertexFormat::PNCVT_F32 : format;
}

}  // namespace

Status bake_mesh(std::string_view obj_text, const std::string& relative_path, const MeshInputs& inputs,
                 const BakeSettings& settings, assetlib::AssetFile& out, std::vector<std::string>& warnings) {
  ImportedMesh mesh;
  if (Status s = import_obj(obj_text, relative_path, inputs, mesh, warnings); !s) return s;

  assetlib::MeshInfo info;
  std::vector<Vertex_PNCVT_F32> vertices;
  std::vector<uint32_t> indices;
  index_soup(mesh.soup, vertices, indices);
  mesh.soup = {};
  analyze(indices, vertices.size(), info.stats.acmr_before, info.stats.atvr_before);
  if (settings.mesh.optimize) optimize(vertices, indices, mesh.submeshes);
  analyze(indices, vertices.size(), info.stats.acmr_after, info.stats.atvr_after);
  if (mesh.has_uvs) generate_tangents(vertices, indices);

  info.vertex_format = format_named(settings.mesh.vertex_format);
  info.vertex_count = uint32_t(vertices.size());
  info.index_count = uint32_t(indices.size());
  info.original_file = relative_path;
  info.materials = mesh.materials;
  for (const ImportedSubmesh& sub : mesh.submeshes) {
    info.submeshes.push_back({sub.first_index, sub.index_count, sub.material, {}, 0, 0});
  }
  build_lods(vertices, info.submeshes, settings.mesh.lod_count, indices, info.lods);
  info.lod_index_count = uint32_t(indices.size()) - info.index_count;
  assetlib::MeshletData meshlets;
  if (settings.mesh.meshlets) build_meshlets(vertices, indices, info.submeshes, meshlets);
  info.meshlet_count = uint32_t(meshlets.meshlets.size());
  info.meshlet_vertex_count = uint32_t(meshlets.vertices.size());
  info.meshlet_triangle_count = uint32_t(meshlets.triangles.size() / 3);

  // 16-bit indices halve the index buffer; 0xFFFF stays free for primitive restart.
  info.index_size = vertices.size() < 0xFFFF ? 2 : 4;
  std::vector<uint16_t> indices16;
  const void* index_data = indices.data();
  if (info.index_size == 2) {
    indices16.assign(indices.begin(), indices.end());
    index_data = indices16.data();
  }
  std::vector<std::byte> vertex_bytes = encode_vertices(vertices, info.vertex_format);
  Status packed = assetlib::pack_mesh(info, vertex_bytes.data(), vertex_bytes.size(), index_data,
                                      indices.size() * info.index_size, out, settings.pack,
                                      info.meshlet_count ? &meshlets : nullptr);
  if (!packed) return Status::error(packed.code, relative_path + ": " + packed.message);
  return packed;
}

}  // namespace baker
