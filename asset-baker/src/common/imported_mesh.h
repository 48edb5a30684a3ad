// What an importer hands the mesh stages: one mesh as triangles grouped by material, in the
// baker's working vertex. import/ fills it, mesh/ bakes it; neither includes the other.
#pragma once

#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace baker {

// Every attribute the baker keeps: the layout of PNCVVT_F32 (position, normal, colour, uv, second
// uv, tangent, in float), then the skin. vertex_encode.h turns it into the chosen vertex format and
// skin format. The skin is part of the vertex so that every stage that merges or reorders vertices
// (indexing, cache and fetch optimisation) carries it along, and two corners bound differently
// stay two vertices.
struct MeshVertex {
  float position[3];
  float normal[3];
  float color[3];
  float uv[2];
  float uv1[2];
  float tangent[4];
  // Up to four influences, final: indices into the mesh's skeleton and weights quantised to sum
  // exactly the skin format's one (255 or 65535; skin_influences.h). All 0 in a rigid mesh.
  uint16_t joints[4];
  uint16_t weights[4];
};
static_assert(sizeof(MeshVertex) == sizeof(assetlib::Vertex_PNCVVT_F32) + 16);
static_assert(offsetof(MeshVertex, tangent) == offsetof(assetlib::Vertex_PNCVVT_F32, tangent));

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
  bool has_uvs = false;  // any corner has UVs of set tangent_uv_set (tangents derive from them)
  bool has_tangents = false;  // the source gave tangents: kept as they are, not generated
  // When the source gave tangents for some vertices only: per soup vertex, whether it has its own
  // (kept as it is; the others' are generated). Empty otherwise.
  std::vector<bool> authored_tangents;
  bool uses_uv1 = false;        // a material samples the second UV set: the format must keep it
  uint32_t tangent_uv_set = 0;  // the UV set its normal maps sample: generated tangents follow it
  std::vector<ImportedSubmesh> submeshes;         // one per material used, in material order
  std::vector<assetlib::MeshMaterial> materials;  // each naming its MATL asset
  // A skinned mesh: its vertices' joints and weights are set for this format (None: rigid), and
  // index the skeleton `skeleton` (a SKEL logical name) of skin_joint_count joints.
  assetlib::SkinFormat skin_format = assetlib::SkinFormat::None;
  uint32_t skin_joint_count = 0;
  std::string skeleton;
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
