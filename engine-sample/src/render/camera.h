// Where the meshes go and where the camera looks from: a few lines of matrix math, so the sample
// needs no maths library.
#pragma once

#include "assets/gpu_scene.h"

#include <cmath>
#include <vector>

namespace sample {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

// The few vector operations the cameras need (this one and window/orbit_camera.h).
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 normalize(Vec3 a) { return a * (1.0f / length(a)); }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

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
// Corner `i` (0..7) of `box`: bit 0 picks x, bit 1 y, bit 2 z from hi over lo.
Vec3 corner(const Box& box, int i);
std::vector<Box> placed_boxes(const std::vector<GpuMesh>& meshes,
                              const std::vector<Placement>& placements);

// Vertical field of view of every camera in the sample.
inline constexpr float kCameraFovY = 45.0f * 3.14159265f / 180.0f;

// A camera looking at `target` from `distance` away along `direction` (unit, target to eye), with
// the depth range that holds what it frames.
struct CameraFit {
  Vec3 target;
  Vec3 direction;
  float distance = 1;
  float near_plane = 0.1f;
  float far_plane = 10;
};

// Looking down at the boxes from the front right, as close as it can be with every corner of
// every box in view.
CameraFit fit_camera(const std::vector<Box>& boxes, float aspect);

// View-projection of fit_camera(boxes, aspect).
Mat4 frame_camera(const std::vector<Box>& boxes, float aspect);

}  // namespace sample
