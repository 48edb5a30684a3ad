// assetlib: skeleton assets ("SKEL"): the joints a skinned mesh is bound to.
//
// A skeleton is one glTF skin: its joints with names, parents, rest-pose local transforms and
// inverse bind matrices, stored parents first so that one pass in order computes every joint
// matrix (skeleton_joint_matrices). The baker adds, as joints no vertex uses, the nodes that lie
// between two joints of the skin and the animated nodes above it, so that every joint's rest pose
// is its own node's transform and a clip moving any of them moves the skinned mesh.
// A skinned mesh (mesh_asset.h, MeshInfo::skin_format) names its skeleton by logical name; its
// per-vertex joint indices index SkeletonInfo::joints.
// The asset holds metadata only (no blob). Coordinates are glTF's: right-handed, +Y up, metres.
//
// Joints are nodes of the prefab baked from the same file (SkeletonJoint::node), so a clip
// (clip_asset.h), which animates prefab nodes, drives them; an engine without prefabs maps a
// clip's node indices to joints through `node`.
//
// Hostile input (see asset_file.h): read_skeleton_info is safe on hostile bytes and checks the
// structure (parents first, finite numbers, counts); names are any strings.
#pragma once

#include <assetlib/asset_file.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace assetlib {

// A local transform: translation * rotation * scale (glTF's TRS order).
struct NodePose {
  float translation[3] = {0, 0, 0};
  float rotation[4] = {0, 0, 0, 1};  // unit quaternion x, y, z, w
  float scale[3] = {1, 1, 1};
};

// The pose as a column-major 4x4 matrix (out[12..14] is the translation). The rotation is used as
// given (a non-unit quaternion also scales).
void node_pose_matrix(const NodePose& pose, float out[16]);

struct SkeletonJoint {
  std::string name;
  int32_t parent = -1;  // an earlier joint of this skeleton; -1 for a root joint
  int32_t node = -1;    // the prefab node this joint is (PrefabInfo::nodes index); -1: none
  NodePose rest;        // local transform in the source (relative to the parent joint's space)
  // For a root joint: the world transform of the nodes above it that are not joints (column-major,
  // at rest); identity for every other joint. world(j) = parent_matrix(j) * rest(j) for a root.
  float parent_matrix[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float inverse_bind[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
};

struct SkeletonInfo {
  std::vector<SkeletonJoint> joints;  // parents first; at most kMaxJoints
  std::string original_file;          // source path relative to the bake root
};

// Joints per skeleton: 16-bit joint indices in a mesh's skin stream.
inline constexpr uint32_t kMaxJoints = 65536;

// Writes `info` as a "SKEL" asset into `out` (metadata only, an empty blob).
// Errors: InvalidArgument when there are no joints or more than kMaxJoints, a parent is not an
// earlier joint, a node is below -1, a number is not finite, or the metadata would be over
// kMaxJsonSize. `out` is written only on success.
Status pack_skeleton(const SkeletonInfo& info, AssetFile& out);

// Reads a "SKEL" asset.
// Safe on hostile bytes. Errors: UnknownType, InvalidJson, MissingKey, WrongKeyType, InvalidValue,
// UnknownCompression;
// messages start with "SKEL metadata" and do not name the file. `info` is left unchanged on error.
// On success: 1..kMaxJoints joints, every parent -1 or an earlier joint, every node >= -1 (not
// checked against a prefab: do that before indexing one), every number finite and within +-3e38.
// Inverse bind matrices are not checked for invertibility (the baker refuses singular ones).
Status read_skeleton_info(const AssetView& file, SkeletonInfo& info);

// Joint matrices for skinning, in one pass over the joints:
//   world(j) = parent(j) < 0 ? parent_matrix(j) * pose(j) : world(parent(j)) * pose(j)
//   out[16 j .. 16 j + 15] = world(j) * inverse_bind(j)      (column-major, as GLSL's mat4)
// `poses` holds one local pose per joint (joint order); `out` holds 16 floats per joint.
// Trusts `info` from read_skeleton_info or pack_skeleton's input. Returns false, writing nothing,
// when poses.size() or out.size() / 16 is smaller than the joint count.
bool skeleton_joint_matrices(const SkeletonInfo& info, std::span<const NodePose> poses,
                             std::span<float> out);

}  // namespace assetlib
