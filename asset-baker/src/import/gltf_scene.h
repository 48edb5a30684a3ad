// A glTF file's default scene -> a prefab (assetlib::PrefabInfo): the node hierarchy parents
// first, transforms as authored, meshes and their materials by logical name, cameras,
// KHR_lights_punctual lights and EXT_mesh_gpu_instancing instances.
#pragma once

#include "import/gltf_accessors.h"

#include <assetlib/prefab_asset.h>

#include <optional>
#include <string>
#include <vector>

namespace baker {

// The asset names a node with meshes[i] draws: the mesh, then one material per submesh. nullopt
// for a mesh that was not baked (no triangles): its nodes keep their transform and draw nothing.
struct GltfMeshRef {
  std::string mesh;
  std::vector<std::string> materials;
};

// The default scene (`scene`, else scenes[0]; a file without scenes gives every root node), with
// the hierarchy checked: every child exists, no cycle. A node with several parents is instanced
// under each, with a warning. Animations and other scenes are left out with a warning; `skinned`
// is set when a node has a skin. Throws GltfError.
assetlib::PrefabInfo import_gltf_scene(GltfData& data,
                                       const std::vector<std::optional<GltfMeshRef>>& meshes,
                                       bool& skinned, std::vector<std::string>& warnings);

}  // namespace baker
