// glTF meshes -> ImportedMesh: primitives read (accessors or Draco), converted to triangle lists
// and grouped by material into submeshes (docs/baker.md, "glTF").
#pragma once

#include "common/imported_mesh.h"
#include "import/gltf_accessors.h"

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
  bool skinned = false;                      // JOINTS_0 / WEIGHTS_0, or a node's skin
};

// meshes[index] of the document. `materials` are the file's materials followed by the default one
// (for primitives without a material); `material_names` their asset names, in the same order.
// Points and lines are skipped with a warning naming the primitive; a mesh with no triangles left
// gives nullopt. Triangle strips and fans become lists; normals are generated flat where a
// primitive has none (as the glTF specification says); tangents are kept when every primitive has
// them (else generated for the whole mesh from its UVs). Morph targets are refused
// (GltfError, unsupported). Throws GltfError.
std::optional<ImportedMesh> import_gltf_mesh(GltfData& data, uint32_t index,
                                             const std::vector<assetlib::MaterialInfo>& materials,
                                             const std::vector<std::string>& material_names,
                                             GltfMeshNotes& notes,
                                             std::vector<std::string>& warnings);

}  // namespace baker
