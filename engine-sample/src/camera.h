// Where the meshes go and where the camera looks from: a few lines of matrix math, so the sample
// needs no maths library.
#pragma once

#include "gpu_scene.h"

#include <vector>

namespace sample {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

// Column-major, as GLSL reads a mat4 from push constants.
struct Mat4 {
  float m[16] = {};
};

Mat4 multiply(const Mat4& a, const Mat4& b);
Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up);
// Right-handed view space to Vulkan clip space: y points down, depth runs 0 (near) to 1 (far).
Mat4 perspective(float fov_y_radians, float aspect, float near_plane, float far_plane);

enum class SceneLayout {
  // A gallery: each mesh scaled to the same size and centred in its own cell. Separate models
  // are each baked around their own origin and would otherwise all overlap there.
  Grid,
  // The baked positions as they are: the meshes are parts of one scene.
  AsAuthored,
};

// How a mesh is drawn: position * scale + offset. Uniform scale keeps normals valid.
struct Placement {
  Vec3 offset;
  float scale = 1;
};

std::vector<Placement> place_meshes(const std::vector<GpuMesh>& meshes, SceneLayout layout);

// Axis-aligned box of each mesh where it is drawn, from the baked bounds alone.
struct Box {
  Vec3 lo, hi;
};
std::vector<Box> placed_boxes(const std::vector<GpuMesh>& meshes,
                              const std::vector<Placement>& placements);

// View-projection of a camera looking down at the boxes from the front right, as close as it can
// be with every corner of every box in view.
Mat4 frame_camera(const std::vector<Box>& boxes, float aspect);

}  // namespace sample
