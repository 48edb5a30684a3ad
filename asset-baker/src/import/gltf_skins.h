// glTF skins -> skeletons (assetlib::SkeletonInfo, docs/baker.md "Skins"), and which skin each
// mesh is bound to.
//
// A skeleton holds a skin's joints parents first: a joint's parent is its nearest ancestor that is
// a joint. Nodes that are no joint but lie between two joints of the skin become joints too (no
// vertex uses them), and so do the nodes above a root joint up to the topmost one an animation
// moves (an animated armature), so every joint's rest pose is its own node's transform and a clip
// posing the nodes poses the skeleton. A root joint's parent_matrix is the world transform of the
// nodes above it, which no animation moves; the inverse bind matrices come from
// inverseBindMatrices (identity when absent).
#pragma once

#include "import/gltf_accessors.h"

#include <assetlib/mesh_asset.h>
#include <assetlib/skeleton_asset.h>

#include <optional>
#include <string>
#include <vector>

namespace baker {

struct GltfSkin {
  // Each joint's `node` is its glTF node until bind_skins_to_prefab makes it a prefab node.
  assetlib::SkeletonInfo skeleton;
  std::vector<uint32_t> source_joints;   // skins[s].joints: glTF nodes
  std::vector<uint32_t> joint_nodes;     // the glTF node of each skeleton joint
  std::vector<uint32_t> skeleton_joint;  // skins[s].joints[i] -> its index in skeleton.joints
  // The skin format of the meshes it binds: J8W8 up to 256 joints, else J16W16.
  assetlib::SkinFormat format() const {
    return skeleton.joints.size() <= 256 ? assetlib::SkinFormat::J8W8
                                         : assetlib::SkinFormat::J16W16;
  }
};

// Every skin of the file. Refused (GltfError naming the JSON path): no joints, a joint listed
// twice or not a node, more than kMaxJoints joints, an inverseBindMatrices accessor that is not
// float MAT4, holds fewer matrices than joints, or a matrix that is not finite or not invertible;
// a joint (or a node between joints) given as a matrix with a shear (a mirror and a zero scale
// come apart as a negative or zero scale); a cycle above a joint. Throws GltfError.
std::vector<GltfSkin> import_gltf_skins(GltfData& data);

// The skin each mesh is drawn with: the skin of the first node (in node order) that has both the
// mesh and a skin; nullopt when no node skins it. A mesh that nodes bind to two skins with
// different joints is refused (GltfError, unsupported): its joint indices cannot mean both.
std::vector<std::optional<uint32_t>> mesh_skins(const Json& root,
                                                const std::vector<GltfSkin>& skins);

// After the scene is built: each joint's `node` becomes the first prefab node of its glTF node
// (`prefab_nodes[n]`, in prefab order), or -1 for a node outside the default scene (warned about
// once per skin: those joints hold their rest pose).
void bind_skins_to_prefab(std::vector<GltfSkin>& skins,
                          const std::vector<std::vector<uint32_t>>& prefab_nodes,
                          const std::string& source, std::vector<std::string>& warnings);

}  // namespace baker
