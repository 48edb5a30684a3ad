// Prefabs posed by an animation clip (--animate <clip> --time <s>), and the joint matrices that
// place a skinned mesh's vertices. Everything here runs on the CPU, once per scene build: the clip
// is evaluated by assetlib::sample_clip into the prefab's node poses, world matrices follow
// parents first, and each skeleton's joint matrices (world(joint) x inverse bind) are what
// mesh_skinned.vert reads.
#pragma once

#include "assets/gpu_scene.h"
#include "render/scene_math.h"

#include <span>
#include <string>
#include <vector>

namespace sample {

struct AnimationOptions {
  // A clip's name in its source (ClipInfo::name) or its CLIP asset's logical name; empty: every
  // prefab in its rest pose (its nodes' own transforms).
  std::string clip;
  // Seconds into the clip. Clips loop: a time past the end wraps around.
  float time = 0;
};

// How one prefab is posed.
struct PrefabPose {
  const Clip* clip = nullptr;  // null: at rest
  std::string clip_asset;      // the clip's logical name
  float time = 0;              // seconds, within [0, duration)
};

struct ScenePoses {
  std::vector<PrefabPose> prefabs;  // one per scene.prefabs entry, in the same order
  std::string description;          // which clip, when, on which prefabs; empty at rest
};

// The pose of every prefab of `scene`. With options.clip, each prefab that lists a loaded clip of
// that name or logical name (PrefabInfo::clips) plays its first such clip; the others stay at
// rest. Throws SampleError listing the loaded prefabs' clips when no prefab has one by that name.
ScenePoses choose_poses(const GpuScene& scene, const AnimationOptions& options);

// The world matrix of every node of `prefab` in the prefab's space, parents first (as the PRFB
// asset orders them): each node's own transform, or, where the pose's clip animates the node,
// its sampled translation, rotation and scale over the node's own (the rest pose).
std::vector<Mat4> node_world_matrices(const assetlib::PrefabInfo& prefab, const PrefabPose& pose);

// The joint matrices of `skeleton` for the nodes placed at `node_world` (node_world_matrices of
// the prefab it was baked with): world(joint.node) x inverse_bind(joint), in joint order, in the
// prefab's space. A joint whose node is -1 or outside `node_world` is placed by the skeleton's own
// chain at rest (parent_matrix or its parent joint, times its rest pose). Trusts `skeleton` from
// read_skeleton_info (parents first).
std::vector<Mat4> joint_matrices(const assetlib::SkeletonInfo& skeleton,
                                 std::span<const Mat4> node_world);

}  // namespace sample
