// A glTF file's default scene -> a prefab (assetlib::PrefabInfo): the node hierarchy parents
// first, transforms as authored, meshes and their materials by logical name, skins, cameras,
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
  // The SKEL the mesh's skin stream was baked for ("": rigid). A node that draws it with a skin
  // names this skeleton: a second skin of the same joints (mesh_skins) shares it.
  std::string skeleton;
};

struct GltfScene {
  assetlib::PrefabInfo prefab;
  // The prefab nodes of each glTF node (by node index), in prefab order: none for a node outside
  // the default scene, several for one instanced under several parents.
  std::vector<std::vector<uint32_t>> instances;
};

// The default scene (`scene`, else scenes[0]; a file without scenes gives every root node), with
// the hierarchy checked: every child exists, no cycle. A node with several parents is instanced
// under each, with a warning. Other scenes are left out with a warning. A node with a skin (an
// index below `skin_count`) names its mesh's skeleton when the mesh is skinned; a skin on a node
// without one is warned about and dropped. Throws GltfError.
GltfScene import_gltf_scene(GltfData& data, const std::vector<std::optional<GltfMeshRef>>& meshes,
                            size_t skin_count, std::vector<std::string>& warnings);

}  // namespace baker
