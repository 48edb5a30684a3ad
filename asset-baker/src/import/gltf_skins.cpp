#include "import/gltf_skins.h"

#include "import/gltf_transforms.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace baker {
namespace {

// skins[s].joints as node indices: at least one, each a node, none twice.
std::vector<uint32_t> read_joints(const Json& skin, const std::string& path, size_t node_count) {
  const Json& joints = array_or_empty(skin, path, "joints");
  std::string jp = json_path(path, "joints");
  if (joints.empty()) throw GltfError(jp, "is required and must list at least one joint");
  if (joints.size() > assetlib::kMaxJoints) {
    throw GltfError(jp, std::to_string(joints.size()) + " joints, more than the " +
                            std::to_string(assetlib::kMaxJoints) + " a skeleton holds");
  }
  std::vector<uint32_t> out;
  std::vector<bool> listed(node_count, false);
  for (size_t i = 0; i < joints.size(); ++i) {
    uint32_t node = index_value(joints[i], json_path(jp, i), node_count, "node");
    if (listed[node])
      throw GltfError(json_path(jp, i), "node " + std::to_string(node) + " is listed twice");
    listed[node] = true;
    out.push_back(node);
  }
  return out;
}

// The nodes some animation channel moves (translation, rotation or scale; read as the animation
// importer reads them, which refuses what is malformed).
std::vector<bool> animated_nodes(const Json& root, size_t node_count) {
  std::vector<bool> out(node_count, false);
  const Json& animations = array_or_empty(root, "", "animations");
  for (size_t a = 0; a < animations.size(); ++a) {
    std::string path = json_path("animations", a);
    const Json& channels = array_or_empty(animations[a], path, "channels");
    for (size_t c = 0; c < channels.size(); ++c) {
      std::string cp = json_path(json_path(path, "channels"), c);
      std::string tp = json_path(cp, "target");
      const Json& target = object_or_empty(channels[c], cp, "target");
      std::string moved = string_or(target, tp, "path", "");
      std::optional<uint32_t> node = index_or_none(target, tp, "node", node_count, "node");
      if (node && (moved == "translation" || moved == "rotation" || moved == "scale"))
        out[*node] = true;
    }
  }
  return out;
}

// For each node, the topmost animated node among itself and its ancestors, or -1: memoised, each
// chain walked once. Only asked of chains without a cycle (nearest_ancestor has walked them).
class TopAnimated {
 public:
  TopAnimated(const GltfHierarchy& hierarchy, std::vector<bool> animated)
      : hierarchy_(hierarchy), animated_(std::move(animated)), memo_(animated_.size(), kUnknown) {}

  int64_t of(uint32_t node) {
    std::vector<uint32_t> chain;
    std::optional<uint32_t> at = node;
    for (; at && memo_[*at] == kUnknown; at = hierarchy_.parent(*at)) chain.push_back(*at);
    int64_t top = at ? memo_[*at] : -1;
    for (size_t k = chain.size(); k-- > 0;) {
      if (top < 0 && animated_[chain[k]]) top = chain[k];
      memo_[chain[k]] = top;
    }
    return top;
  }

 private:
  static constexpr int64_t kUnknown = -2;
  const GltfHierarchy& hierarchy_;
  std::vector<bool> animated_;
  std::vector<int64_t> memo_;
};

// The nodes of the skeleton, parents first: the joints, the nodes between two of them, and the
// nodes above a root joint up to the topmost one an animation moves (so the skinned mesh follows
// an animated armature; parent_matrix holds only what lies still above). Joints keep the skin's
// order where it already is parents first (then joint indices map to themselves). `member` gets
// the skeleton's nodes. Linear in the nodes (memoised walks, each chain walked once).
std::vector<uint32_t> skeleton_nodes(const std::vector<uint32_t>& joints,
                                     const GltfHierarchy& hierarchy, TopAnimated& top_animated,
                                     std::vector<bool>& member) {
  const size_t count = member.size();
  std::vector<bool> is_joint(count, false);
  for (uint32_t j : joints) is_joint[j] = true;
  member = is_joint;
  // Nodes between a joint and its nearest joint ancestor join the skeleton. A walk stops at a node
  // already added: the chain above it is in already.
  std::vector<int64_t> nearest_joint(count, -2);
  std::vector<uint32_t> between, roots;
  for (uint32_t j : joints) {
    std::optional<uint32_t> top = hierarchy.nearest_ancestor(j, is_joint, nearest_joint);
    if (!top) {
      roots.push_back(j);
      continue;
    }
    for (std::optional<uint32_t> p = hierarchy.parent(j); p && *p != *top && !member[*p];
         p = hierarchy.parent(*p)) {
      member[*p] = true;
      between.push_back(*p);
    }
  }
  // Above a root joint no node is a member yet; a walk that meets one added by another root's
  // walk stops there (the chain above it is in, up to the same topmost animated node).
  for (uint32_t j : roots) {
    std::optional<uint32_t> parent = hierarchy.parent(j);
    int64_t top = parent ? top_animated.of(*parent) : -1;
    if (top < 0) continue;
    for (std::optional<uint32_t> p = parent; p && !member[*p]; p = hierarchy.parent(*p)) {
      member[*p] = true;
      between.push_back(*p);
      if (int64_t(*p) == top) break;
    }
  }
  std::sort(between.begin(), between.end());
  std::vector<uint32_t> candidates = joints;
  candidates.insert(candidates.end(), between.begin(), between.end());
  // Each node after its member ancestors: the chain of those not yet emitted, top down.
  std::vector<int64_t> nearest_member(count, -2);
  std::vector<bool> emitted(count, false);
  std::vector<uint32_t> order, pending;
  for (uint32_t m : candidates) {
    pending.clear();
    for (std::optional<uint32_t> at = m; at && !emitted[*at];
         at = hierarchy.nearest_ancestor(*at, member, nearest_member)) {
      // Joints that are each other's ancestors: the chain would never end (nearest_ancestor sees
      // a cycle only through nodes outside the skeleton).
      if (pending.size() == count)
        throw GltfError(json_path("nodes", m),
                        "is its own ancestor (the node hierarchy has a cycle)");
      pending.push_back(*at);
    }
    for (size_t k = pending.size(); k-- > 0;) {
      emitted[pending[k]] = true;
      order.push_back(pending[k]);
    }
  }
  return order;
}

// The rest pose of a skeleton node: its TRS, or its matrix taken apart.
assetlib::NodePose rest_pose(const Json& root, uint32_t node) {
  std::string path = json_path("nodes", node);
  assetlib::PrefabNode transform;
  read_node_transform(root["nodes"][node], path, transform);
  if (!transform.has_matrix) {
    assetlib::NodePose pose;
    std::memcpy(pose.translation, transform.translation, sizeof pose.translation);
    std::memcpy(pose.rotation, transform.rotation, sizeof pose.rotation);
    std::memcpy(pose.scale, transform.scale, sizeof pose.scale);
    return pose;
  }
  std::string why;
  std::optional<assetlib::NodePose> pose = decompose_trs(local_matrix(transform), why);
  if (!pose) {
    throw GltfError(
        json_path(path, "matrix"),
        "a skeleton node's matrix must be a translation, rotation and scale; it has " + why);
  }
  return *pose;
}

// inverseBindMatrices: one finite, invertible float MAT4 per joint; identity matrices without it.
std::vector<Mat4> inverse_binds(GltfData& data, const Json& skin, const std::string& path,
                                size_t joint_count) {
  const Json& root = data.document().json;
  std::optional<uint32_t> accessor =
      index_or_none(skin, path, "inverseBindMatrices", array_size(root, "accessors"), "accessor");
  std::vector<Mat4> out(joint_count, kIdentity);
  if (!accessor) return out;
  std::string ip = json_path(path, "inverseBindMatrices");
  AccessorValues values = data.floats(*accessor, ip, {"MAT4"});
  if (values.component_type != kFloatComponent)
    throw GltfError(ip, "accessor " + std::to_string(*accessor) + " must hold floats");
  if (values.count < joint_count) {
    throw GltfError(ip, "holds " + std::to_string(values.count) + " matrices for " +
                            std::to_string(joint_count) + " joints");
  }
  for (size_t i = 0; i < joint_count; ++i) {
    std::copy_n(values.element(uint32_t(i)), 16, out[i].begin());
    auto which = [i] {
      return "matrix " + std::to_string(i) + " (joint " + std::to_string(i) + ")";
    };
    if (!std::all_of(out[i].begin(), out[i].end(), [](float f) { return std::isfinite(f); }))
      throw GltfError(ip, which() + " is not finite");
    if (!well_invertible(out[i]))
      throw GltfError(ip, which() + " is not invertible (a joint cannot bind a mesh through it)");
  }
  return out;
}

GltfSkin import_skin(GltfData& data, GltfHierarchy& hierarchy, TopAnimated& top_animated,
                     uint32_t index) {
  const Json& root = data.document().json;
  std::string path = json_path("skins", index);
  const Json& skin = root["skins"][index];
  size_t node_count = array_size(root, "nodes");
  // "skeleton" is only a hint of the root; checked to name a node, otherwise not needed.
  index_or_none(skin, path, "skeleton", node_count, "node");
  std::vector<uint32_t> joints = read_joints(skin, path, node_count);
  std::vector<Mat4> binds = inverse_binds(data, skin, path, joints.size());
  GltfSkin out;
  out.source_joints = joints;
  std::vector<bool> member(node_count, false);
  out.joint_nodes = skeleton_nodes(joints, hierarchy, top_animated, member);
  if (out.joint_nodes.size() > assetlib::kMaxJoints) {
    throw GltfError(path, "its joints and the nodes the skeleton adds to them are more than the " +
                              std::to_string(assetlib::kMaxJoints) + " a skeleton holds");
  }
  std::map<uint32_t, int32_t> position;  // glTF node -> skeleton index
  std::vector<int64_t> nearest_member(node_count, -2);
  for (size_t i = 0; i < out.joint_nodes.size(); ++i) position[out.joint_nodes[i]] = int32_t(i);
  for (uint32_t node : out.joint_nodes) {
    assetlib::SkeletonJoint& joint = out.skeleton.joints.emplace_back();
    joint.name = string_or(root["nodes"][node], json_path("nodes", node), "name", "");
    joint.node = int32_t(node);
    joint.rest = rest_pose(root, node);
    // A node the skeleton adds (an animated ancestor of the joints, or a node between two) is
    // bound where it rests: a vertex repaired onto it (joint 0, when it is the first root) stays
    // where it was authored and follows it, as a vertex without weights follows the armature in
    // Blender. A rest matrix that cannot be inverted (a zero scale) keeps the identity. The skin's
    // own joints get their inverse bind matrices below.
    if (std::optional<Mat4> bind = affine_inverse(hierarchy.world_matrix(node)))
      std::copy(bind->begin(), bind->end(), joint.inverse_bind);
    if (std::optional<uint32_t> up = hierarchy.nearest_ancestor(node, member, nearest_member)) {
      joint.parent = position[*up];
    } else if (std::optional<uint32_t> parent = hierarchy.parent(node)) {
      Mat4 world = hierarchy.world_matrix(*parent);
      std::copy(world.begin(), world.end(), joint.parent_matrix);
    }
  }
  for (size_t i = 0; i < joints.size(); ++i) {
    uint32_t at = uint32_t(position[joints[i]]);
    out.skeleton_joint.push_back(at);
    std::copy(binds[i].begin(), binds[i].end(), out.skeleton.joints[at].inverse_bind);
  }
  return out;
}

// Whether a mesh skinned by `a` deforms the same when skinned by `b`: the same joints in the same
// order (its joint indices mean the same nodes) with the same inverse bind matrices.
bool same_binding(const GltfSkin& a, const GltfSkin& b) {
  if (a.source_joints != b.source_joints) return false;
  for (size_t i = 0; i < a.skeleton.joints.size(); ++i) {
    if (!std::equal(std::begin(a.skeleton.joints[i].inverse_bind),
                    std::end(a.skeleton.joints[i].inverse_bind),
                    std::begin(b.skeleton.joints[i].inverse_bind)))
      return false;
  }
  return true;
}

}  // namespace

std::vector<GltfSkin> import_gltf_skins(GltfData& data) {
  const Json& root = data.document().json;
  size_t count = array_size(root, "skins");
  if (count == 0) return {};
  // Finding a skin's skeleton walks the node tree and holds a mark per node: work in skins x nodes
  // (about 11 ns per node and skin). Real files hold a few skins over thousands of nodes; 10000
  // skins over a chain of a million nodes took 95 s, and the JSON limit allows 50 times that.
  constexpr uint64_t kMaxSkinNodeWork = uint64_t(1) << 32;
  const uint64_t nodes = array_size(root, "nodes");
  if (uint64_t(count) * nodes > kMaxSkinNodeWork) {
    throw GltfError("skins",
                    std::to_string(count) + " skins over " + std::to_string(nodes) +
                        " nodes: more than 2^32 skins x nodes, the work each skin's "
                        "skeleton costs (kMaxSkinNodeWork)",
                    BakeError::LimitExceeded);
  }
  GltfHierarchy hierarchy(root);
  TopAnimated top_animated(hierarchy, animated_nodes(root, array_size(root, "nodes")));
  std::vector<GltfSkin> out;
  for (uint32_t s = 0; s < count; ++s) out.push_back(import_skin(data, hierarchy, top_animated, s));
  return out;
}

std::vector<std::optional<uint32_t>> mesh_skins(const Json& root,
                                                const std::vector<GltfSkin>& skins) {
  std::vector<std::optional<uint32_t>> out(array_size(root, "meshes"));
  std::vector<uint32_t> first_node(out.size(), 0);
  // Pairs of skins found to bind alike: each pair is compared once, not once per node (300000
  // nodes drawing one mesh with a second, identical skin of 8000 joints took 26 s).
  std::set<std::pair<uint32_t, uint32_t>> alike;
  size_t nodes = array_size(root, "nodes");
  for (uint32_t n = 0; n < nodes; ++n) {
    std::string path = json_path("nodes", n);
    const Json& node = root["nodes"][n];
    std::optional<uint32_t> mesh = index_or_none(node, path, "mesh", out.size(), "mesh");
    std::optional<uint32_t> skin = index_or_none(node, path, "skin", skins.size(), "skin");
    if (!mesh || !skin) continue;
    if (!out[*mesh]) {
      out[*mesh] = skin;
      first_node[*mesh] = n;
      continue;
    }
    if (*out[*mesh] == *skin || alike.count({*out[*mesh], *skin})) continue;
    if (!same_binding(skins[*out[*mesh]], skins[*skin])) {
      throw GltfError(path,
                      "draws meshes[" + std::to_string(*mesh) + "] with skins[" +
                          std::to_string(*skin) + "], nodes[" + std::to_string(first_node[*mesh]) +
                          "] with skins[" + std::to_string(*out[*mesh]) +
                          "], whose joints or inverse bind matrices differ; a baked mesh has one "
                          "skeleton (give each skin its own copy of the mesh)",
                      true);
    }
    alike.insert({*out[*mesh], *skin});
  }
  return out;
}

void bind_skins_to_prefab(std::vector<GltfSkin>& skins,
                          const std::vector<std::vector<uint32_t>>& prefab_nodes,
                          const std::string& source, std::vector<std::string>& warnings) {
  for (size_t s = 0; s < skins.size(); ++s) {
    size_t outside = 0;
    for (assetlib::SkeletonJoint& joint : skins[s].skeleton.joints) {
      const std::vector<uint32_t>& instances = prefab_nodes[uint32_t(joint.node)];
      joint.node = instances.empty() ? -1 : int32_t(instances.front());
      outside += instances.empty();
    }
    if (outside > 0) {
      warnings.push_back(source + ": skins[" + std::to_string(s) + "]: " + std::to_string(outside) +
                         " joint(s) are not in the default scene; clips cannot move them");
    }
  }
}

}  // namespace baker
