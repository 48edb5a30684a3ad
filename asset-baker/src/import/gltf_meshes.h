// glTF meshes -> ImportedMesh: primitives read (accessors or Draco), converted to triangle lists
// and grouped by material into submeshes (docs/baker.md, "glTF").
#pragma once

#include "common/imported_mesh.h"
#include "import/gltf_accessors.h"
#include "import/gltf_vertex_skin.h"

#include <assetlib/material_asset.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace baker {

// What the meshes of a file use that the baker does not bake, warned about once per file.
struct GltfMeshNotes {
  std::set<std::string> ignored_attributes;  // "TEXCOORD_2", "_BATCHID"...
  std::vector<uint32_t> dropped_alpha;       // meshes whose COLOR_0 alpha is not 1
  std::vector<uint32_t> unskinned;           // meshes with JOINTS_0 that no node skins
  uint64_t clamped_colors = 0;               // COLOR_0 components outside 0..1, clamped
  uint64_t zero_normals = 0;      // vertices whose NORMAL has no length, given a face's normal
  std::vector<uint32_t> morphed;  // meshes with morph targets (baked at their weights)
  std::set<std::string> unapplied_morph_attributes;  // weighted target deltas of TEXCOORD_n...
};

// meshes[index] of the document. `materials` are the file's materials followed by the default one
// (for primitives without a material); `material_names` their asset names, in the same order.
// Points and lines are skipped with a warning naming the primitive; a mesh with no triangles left
// gives nullopt. Triangle strips and fans become lists; normals are generated flat where a
// primitive has none (as the glTF specification says, which also drops the primitive's TANGENT);
// tangents are kept where a primitive has them and generated from the UVs for the others. COLOR_0
// of plain integers is refused; float colours outside 0..1 are clamped (notes.clamped_colors).
// Morph targets are applied at the mesh's default weights (gltf_morph.h; notes.morphed). With
// `skin`, every JOINTS_n / WEIGHTS_n pair is read and each vertex gets its four largest influences,
// quantised (skin_influences.h): more than four, and vertices without weight (bound to joint 0),
// are warnings with a count; a weight that is negative or not finite, a joint that is not a whole
// number, or one at or past the skin's joint count with a weight, is a GltfError naming the
// attribute and the vertex. Without `skin` the skin attributes are not read (the mesh is rigid;
// notes.unskinned). Throws GltfError.
std::optional<ImportedMesh> import_gltf_mesh(GltfData& data, uint32_t index,
                                             const std::vector<assetlib::MaterialInfo>& materials,
                                             const std::vector<std::string>& material_names,
                                             const GltfMeshSkin* skin, GltfMeshNotes& notes,
                                             std::vector<std::string>& warnings);

}  // namespace baker
