#include "mesh/bake_mesh.h"

#include "mesh/mesh_budget.h"
#include "mesh/mesh_lods.h"
#include "mesh/mesh_meshlets.h"
#include "mesh/mesh_order.h"
#include "mesh/mesh_tangents.h"
#include "mesh/vertex_encode.h"

#include <meshoptimizer.h>

#include <algorithm>

namespace baker {
namespace {

// Tangents for every vertex whose source gave none (mesh_tangents.h), generated over the whole
// mesh: a corner's tangent is part of what indexing compares, so a vertex on a UV mirror seam
// splits in two. Vertices with the source's own tangents keep them as they were.
void generate_missing_tangents(ImportedMesh& mesh) {
  generate_tangents(mesh.soup, mesh.corners, mesh.authored_tangents, mesh.tangent_uv_set);
  mesh.authored_tangents = {};
}

// -0 as +0 in every float of every vertex: merging compares bytes, and a flat normal computed as
// (-0, 0, 1) must merge with (0, 0, 1).
void canonical_zeros(std::vector<MeshVertex>& soup) {
  auto plus_zero = [](auto& values) {
    for (float& f : values) f += 0.0f;
  };
  for (MeshVertex& v : soup) {
    plus_zero(v.position);
    plus_zero(v.normal);
    plus_zero(v.color);
    plus_zero(v.uv);
    plus_zero(v.uv1);
    plus_zero(v.tangent);
  }
}

// Identical vertices merged into one indexed mesh, numbered in order of first use (the same
// result whether the corners came as a soup or indexed).
void index_corners(const ImportedMesh& mesh, std::vector<MeshVertex>& vertices,
                   std::vector<uint32_t>& indices) {
  const uint32_t* corners = mesh.corners.empty() ? nullptr : mesh.corners.data();
  const size_t count = corners ? mesh.corners.size() : mesh.soup.size();
  std::vector<uint32_t> remap(mesh.soup.size());
  size_t unique = meshopt_generateVertexRemap(remap.data(), corners, count, mesh.soup.data(),
                                              mesh.soup.size(), sizeof(MeshVertex));
  vertices.resize(unique);
  indices.resize(count);
  meshopt_remapVertexBuffer(vertices.data(), mesh.soup.data(), mesh.soup.size(), sizeof(MeshVertex),
                            remap.data());
  meshopt_remapIndexBuffer(indices.data(), corners, count, remap.data());
}

// Whether `format` has a tangent attribute (location 4).
bool holds_tangents(assetlib::VertexFormat format) {
  assetlib::VertexAttribute attributes[8];
  const uint32_t count = assetlib::vertex_format_attributes(format, attributes);
  return std::any_of(attributes, attributes + count,
                     [](const assetlib::VertexAttribute& a) { return a.location == 4; });
}

void analyze(const std::vector<uint32_t>& indices, size_t vertex_count, float& acmr, float& atvr) {
  meshopt_VertexCacheStatistics stats =
      meshopt_analyzeVertexCache(indices.data(), indices.size(), vertex_count, 16, 0, 0);
  acmr = stats.acmr;
  atvr = stats.atvr;
}

}  // namespace

assetlib::VertexFormat mesh_vertex_format(const std::string& setting, bool uses_uv1,
                                          bool& dropped_uv1) {
  using assetlib::VertexFormat;
  VertexFormat format = assetlib::vertex_format_from_name(setting);
  if (format == VertexFormat::Unknown)
    format = assetlib::vertex_format_from_name(kDefaultVertexFormat);
  dropped_uv1 = false;
  if (!uses_uv1) return format;
  if (format == VertexFormat::PNCVT_F32) return VertexFormat::PNCVVT_F32;
  if (format == VertexFormat::PNCVT_OCT) return VertexFormat::PNCVVT_OCT;
  dropped_uv1 = format != VertexFormat::PNCVVT_F32 && format != VertexFormat::PNCVVT_OCT;
  return format;
}

BakeStatus bake_mesh(ImportedMesh mesh, const std::string& source, const std::string& what,
                     const BakeSettings& settings, assetlib::AssetFile& out,
                     std::vector<std::string>& warnings) {
  assetlib::MeshInfo info;
  std::vector<MeshVertex> vertices;
  std::vector<uint32_t> indices;
  if (mesh.has_uvs && !mesh.has_tangents) generate_missing_tangents(mesh);
  canonical_zeros(mesh.soup);
  index_corners(mesh, vertices, indices);
  mesh.soup = {};
  mesh.corners = {};
  analyze(indices, vertices.size(), info.stats.acmr_before, info.stats.atvr_before);
  MeshFallbacks fallbacks;
  const bool split = split_submesh_vertices(mesh.submeshes.size(), vertices.size(), indices.size());
  // Ordering and meshlets take each submesh on its own vertices whenever there are several: the
  // same result, without meshoptimizer's cost of every vertex per call (a glTF of 59 materials:
  // 14 % of its bake). LODs take that way only past the budget (`split`), as it changes what
  // their error measures: a fallback, warned of.
  const bool own_vertices = mesh.submeshes.size() > 1;
  if (settings.mesh.optimize)
    order_for_gpu(vertices, indices, mesh.submeshes, own_vertices, fallbacks);
  analyze(indices, vertices.size(), info.stats.acmr_after, info.stats.atvr_after);

  bool dropped_uv1 = false;
  info.vertex_format = mesh_vertex_format(settings.mesh.vertex_format, mesh.uses_uv1, dropped_uv1);
  if (dropped_uv1) {
    warnings.push_back(what + ": a material samples the second UV set, which vertex_format " +
                       settings.mesh.vertex_format +
                       " does not hold: it samples the first (use PNCVT_F32 or PNCVT_OCT)");
  }
  const bool normal_mapped =
      std::any_of(mesh.materials.begin(), mesh.materials.end(),
                  [](const assetlib::MeshMaterial& m) { return !m.normal_texture.empty(); });
  if (normal_mapped && !holds_tangents(info.vertex_format)) {
    warnings.push_back(what + ": a material has a normal map, but vertex_format " +
                       settings.mesh.vertex_format +
                       " holds no tangents: the engine must derive them (use PNCVT_F32 or "
                       "PNCVT_OCT to keep them)");
  }
  info.vertex_count = uint32_t(vertices.size());
  info.index_count = uint32_t(indices.size());
  info.original_file = source;
  info.materials = std::move(mesh.materials);
  info.skin_format = mesh.skin_format;
  info.skin_joint_count = mesh.skin_joint_count;
  info.skeleton = std::move(mesh.skeleton);
  for (const ImportedSubmesh& sub : mesh.submeshes) {
    info.submeshes.push_back({sub.first_index, sub.index_count, sub.material, {}, 0, 0});
  }
  // The simplifier sees positions at rest, not joint influences: a skinned strip that is straight
  // at rest collapses at error 0, and an engine choosing by error would draw it flat in every
  // pose. Skinned meshes get no coarser levels.
  uint32_t lod_count = settings.mesh.lod_count;
  if (lod_count > 0 && mesh.skin_format != assetlib::SkinFormat::None) {
    warnings.push_back(what + ": skinned, so no LODs (lod_count " + std::to_string(lod_count) +
                       "): simplified at rest, its levels would not follow the joints");
    lod_count = 0;
  }
  build_lods(vertices, info.submeshes, lod_count, split, indices, info.lods, fallbacks);
  info.lod_index_count = uint32_t(indices.size()) - info.index_count;
  assetlib::MeshletData meshlets;
  if (settings.mesh.meshlets)
    build_meshlets(vertices, indices, info.submeshes, own_vertices, meshlets, fallbacks);
  if (fallbacks.any()) {
    warnings.push_back(what + ": linear fallbacks for an unusual mesh: " + fallbacks.describe() +
                       " (docs/robustness.md)");
  }
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
  if (std::string loss = half_uv_loss(vertices, info.vertex_format); !loss.empty()) {
    warnings.push_back(what + ": " + loss + " in vertex_format " +
                       assetlib::vertex_format_name(info.vertex_format) +
                       " (texels move; use PNCVT_F32, or UVs nearer 0)");
  }
  std::vector<std::byte> vertex_bytes = encode_vertices(vertices, info.vertex_format);
  std::vector<std::byte> skin_bytes = encode_skin(vertices, info.skin_format);
  assetlib::Status packed = assetlib::pack_mesh(
      info, vertex_bytes.data(), vertex_bytes.size(), index_data, indices.size() * info.index_size,
      out, settings.pack, info.meshlet_count ? &meshlets : nullptr, skin_bytes.data(),
      skin_bytes.size());
  return BakeStatus::from_memory_call(packed, BakeError::InvalidSource, source);
}

}  // namespace baker
