#include "render/scene_animation.h"

#include "error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sample {
namespace {

// Clips loop: a time past the end wraps around to the start.
float time_in_clip(float time, float duration) {
  if (!(duration > 0)) return 0;
  float wrapped = std::fmod(time, duration);
  return wrapped < 0 ? wrapped + duration : wrapped;
}

std::string format_seconds(float seconds) {
  char text[64];  // a float's largest, 3.4e38, is 39 digits before the point
  std::snprintf(text, sizeof text, "%.3f s", static_cast<double>(seconds));
  return text;
}

// "'Walk' (models/Fox.glb#clip/1)": how a clip is shown, by both of the names it answers to
// (only the second when it has no name of its own).
std::string clip_label(const std::string& asset, const Clip& clip) {
  if (clip.info.name.empty()) return asset + " (unnamed)";
  return "'" + clip.info.name + "' (" + asset + ")";
}

std::string describe(const GpuScene& scene, const ScenePoses& poses, float requested) {
  std::string text;
  for (size_t i = 0; i < poses.prefabs.size(); ++i) {
    const PrefabPose& pose = poses.prefabs[i];
    if (!pose.clip) continue;
    if (!text.empty()) text += "; ";
    text += clip_label(pose.clip_asset, *pose.clip);
    text += " of ";
    text += format_seconds(pose.clip->info.duration);
    text += " at ";
    text += format_seconds(pose.time);
    if (pose.time != requested) text += " (wrapped)";
    text += " on ";
    text += scene.prefabs[i].name;
  }
  return text;
}

}  // namespace

ScenePoses choose_poses(const GpuScene& scene, const AnimationOptions& options) {
  ScenePoses poses;
  poses.prefabs.resize(scene.prefabs.size());
  if (options.clip.empty()) return poses;
  std::string available;
  size_t listed = 0;
  bool matched = false;
  for (size_t i = 0; i < scene.prefabs.size(); ++i) {
    for (const std::string& asset : scene.prefabs[i].info.clips) {
      ++listed;
      auto found = scene.clips.find(asset);
      if (found == scene.clips.end()) continue;  // listed, but not in the baked folder
      const Clip& clip = found->second;
      if (!available.empty()) available += ", ";
      available += clip_label(asset, clip);
      PrefabPose& pose = poses.prefabs[i];
      if (pose.clip || (asset != options.clip && clip.info.name != options.clip)) continue;
      pose = {&clip, asset, time_in_clip(options.time, clip.info.duration)};
      matched = true;
    }
  }
  if (!matched) {
    std::string have = "they have " + available;
    if (available.empty()) {
      have = listed == 0 ? "they have none"
                         : "they list " + std::to_string(listed) + ", none in the baked folder";
    }
    throw SampleError("--animate: no clip named '" + options.clip +
                      "' among the loaded prefabs' clips (" + have + ")");
  }
  poses.description = describe(scene, poses, options.time);
  return poses;
}

std::vector<Mat4> node_world_matrices(const assetlib::PrefabInfo& prefab, const PrefabPose& pose) {
  const std::vector<assetlib::PrefabNode>& nodes = prefab.nodes;
  // The rest pose: every node's own translation, rotation and scale; the clip overwrites the
  // paths it animates (sample_clip skips channels of nodes outside the prefab).
  std::vector<assetlib::NodePose> poses(nodes.size());
  std::vector<bool> animated(nodes.size(), false);
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::copy_n(nodes[i].translation, 3, poses[i].translation);
    std::copy_n(nodes[i].rotation, 4, poses[i].rotation);
    std::copy_n(nodes[i].scale, 3, poses[i].scale);
  }
  if (pose.clip) {
    assetlib::sample_clip(pose.clip->info, pose.clip->keys.data(), pose.time, poses);
    for (const assetlib::ClipChannel& channel : pose.clip->info.channels) {
      if (channel.node < animated.size()) animated[channel.node] = true;
    }
  }
  std::vector<Mat4> world(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    // A node given as a matrix keeps it unless a clip moves it (glTF animates only TRS nodes).
    Mat4 local;
    if (animated[i])
      assetlib::node_pose_matrix(poses[i], local.m);
    else
      assetlib::prefab_local_matrix(nodes[i], local.m);
    // read_prefab_info guarantees parents come first.
    world[i] = nodes[i].parent < 0 ? local : multiply(world[nodes[i].parent], local);
  }
  return world;
}

std::vector<Mat4> joint_matrices(const assetlib::SkeletonInfo& skeleton,
                                 std::span<const Mat4> node_world) {
  const std::vector<assetlib::SkeletonJoint>& joints = skeleton.joints;
  std::vector<Mat4> world(joints.size());
  std::vector<Mat4> out(joints.size());
  for (size_t j = 0; j < joints.size(); ++j) {
    const assetlib::SkeletonJoint& joint = joints[j];
    if (joint.node >= 0 && static_cast<size_t>(joint.node) < node_world.size()) {
      world[j] = node_world[static_cast<size_t>(joint.node)];
    } else {
      Mat4 rest;
      assetlib::node_pose_matrix(joint.rest, rest.m);
      // read_skeleton_info guarantees parents come first.
      world[j] = joint.parent < 0 ? multiply(from_array(joint.parent_matrix), rest)
                                  : multiply(world[static_cast<size_t>(joint.parent)], rest);
    }
    out[j] = multiply(world[j], from_array(joint.inverse_bind));
  }
  return out;
}

}  // namespace sample
