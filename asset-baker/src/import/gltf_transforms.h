// glTF node transforms: a node's local transform as authored, matrices up the node hierarchy, and
// a matrix back to translation, rotation and scale (what skeletons and clips need: they pose TRS).
#pragma once

#include "import/gltf_json.h"

#include <assetlib/prefab_asset.h>
#include <assetlib/skeleton_asset.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baker {

using Mat4 = std::array<float, 16>;  // column-major, as glTF stores it

inline constexpr Mat4 kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// a * b.
Mat4 multiply(const Mat4& a, const Mat4& b);

// What read_node_transform changed or chose, for the caller to warn about once per file.
struct TransformNotes {
  bool matrix_and_trs = false;  // invalid glTF: the matrix is used, as viewers do
  bool renormalised = false;    // a rotation more than 1e-3 off unit length, made unit
                                // (length 0: the identity)
};

// The local transform of nodes[index] as authored: its "matrix", or its translation, rotation and
// scale (each checked: finite numbers of the right count), its rotation made unit
// (make_unit_rotation). Throws GltfError.
TransformNotes read_node_transform(const Json& node, const std::string& path,
                                   assetlib::PrefabNode& out);

// Makes `q` (x, y, z, w) a unit quaternion, as glTF requires of node and instance rotations: a
// renderer's quaternion-to-matrix assumes it, so an off one would also scale. One within 1e-5 of
// unit length keeps its authored bytes; one of length 0 becomes the identity (what viewers draw).
// True when it was more than 1e-3 off: worth a warning.
bool make_unit_rotation(float (&q)[4]);

// The node's local transform as a matrix.
Mat4 local_matrix(const assetlib::PrefabNode& node);

// `m` (affine) as translation * rotation * scale, or nullopt with `why` when it has a shear (its
// axes not perpendicular), which no TRS holds. A mirror (negative determinant) becomes a negative
// scale on one axis, a zero-length axis a zero scale (its rotation completed right-handed), as
// glTF's TRS allows both. Exact to float precision for a matrix built from a TRS.
std::optional<assetlib::NodePose> decompose_trs(const Mat4& m, std::string& why);

// True when `m` is invertible with margin: |det| of its 4x4 at least 1e-6 of the product of its
// column lengths (the largest |det| those columns allow), so the test does not depend on units.
bool well_invertible(const Mat4& m);

// The inverse of `m` taken as affine (its last row read as 0 0 0 1); nullopt unless
// well_invertible.
std::optional<Mat4> affine_inverse(const Mat4& m);

// The node hierarchy read upwards: each node's parent (the first node listing it as a child, in
// node order), for the nodes skins name, which need not be in the default scene. Every walk up is
// memoised, so a file of n nodes costs O(n) however its joints and chains are arranged.
class GltfHierarchy {
 public:
  // Reads every node's children (each checked to be a node). Throws GltfError.
  explicit GltfHierarchy(const Json& root);
  std::optional<uint32_t> parent(uint32_t node) const;
  // The nearest ancestor of `node` (not `node` itself) for which in_set[a] is true, or nullopt.
  // `memo` (one entry per node, all -2 at first) keeps the answers for that set: reuse it only
  // with the same set. Throws GltfError naming the node when the hierarchy above it has a cycle.
  std::optional<uint32_t> nearest_ancestor(uint32_t node, const std::vector<bool>& in_set,
                                           std::vector<int64_t>& memo) const;
  // The world matrix of `node` (its ancestors' local transforms, then its own). Throws GltfError.
  Mat4 world_matrix(uint32_t node);

 private:
  const Json& root_;
  std::vector<int64_t> parents_;            // -1: a root
  std::vector<std::optional<Mat4>> world_;  // memoised world matrices
};

}  // namespace baker
