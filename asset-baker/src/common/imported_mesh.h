// What an importer hands the mesh stages: one mesh as triangles grouped by material, in the
// baker's working vertex. import/ fills it, mesh/ bakes it; neither includes the other.
#pragma once

#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace baker {

// Every attribute the baker keeps, in float: the layout of PNCVVT_F32 (position, normal, colour,
// uv, second uv, tangent). vertex_encode.h turns it into the chosen vertex format.
using MeshVertex = assetlib::Vertex_PNCVVT_F32;

struct ImportedSubmesh {
  uint32_t first_index = 0;  // the corners of triangles first_index / 3 ...
  uint32_t index_count = 0;
  uint32_t material = 0;  // index into ImportedMesh::materials
};

struct ImportedMesh {
  // 3 corners per triangle, submesh by submesh. Without `corners`, `soup` holds every corner
  // (a triangle soup); with them, corner i is soup[corners[i]], so an indexed source (glTF, and OBJ
  // with one vertex per distinct position/UV/normal triple) is not expanded to one vertex per
  // corner unless a stage needs it (mesh_tangents.h).
  std::vector<MeshVertex> soup;
  std::vector<uint32_t> corners;
  bool has_uvs = false;       // any corner had texture coordinates (tangents are derived from them)
  bool has_tangents = false;  // the source gave tangents: kept as they are, not generated
  bool uses_uv1 = false;      // a material samples the second UV set: the format must keep it
  std::vector<ImportedSubmesh> submeshes;         // one per material used, in material order
  std::vector<assetlib::MeshMaterial> materials;  // each naming its MATL asset
};

// Bounds, normals and meshlet cones square coordinates: beyond 1e18 a float overflows, and
// meshoptimizer asserts on infinities (found by fuzzing). No real model comes near, so importers
// refuse positions past this before the mesh stages see them.
inline constexpr float kMaxCoordinate = 1e18f;

// Whether the 3 coordinates at `p` are finite and within kMaxCoordinate.
inline bool reasonable_position(const float* p) {
  for (int k = 0; k < 3; ++k) {
    if (!(std::fabs(p[k]) <= kMaxCoordinate)) return false;
  }
  return true;
}

// The summary a mesh keeps of `material` (its base colour and two textures), naming the material
// asset `asset_name` for everything else.
inline assetlib::MeshMaterial material_summary(const assetlib::MaterialInfo& material,
                                               const std::string& asset_name) {
  assetlib::MeshMaterial summary;
  summary.name = material.name;
  std::copy(material.base_color_factor, material.base_color_factor + 4, summary.base_color);
  summary.base_color_texture = material.base_color.texture;
  summary.normal_texture = material.normal.texture;
  summary.material = asset_name;
  return summary;
}

}  // namespace baker
