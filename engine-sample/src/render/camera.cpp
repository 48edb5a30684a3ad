#include "render/camera.h"

#include <algorithm>
#include <cmath>

namespace sample {
namespace {

Vec3 to_vec3(const float v[3]) { return {v[0], v[1], v[2]}; }
Vec3 min(Vec3 a, Vec3 b) { return {std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)}; }
Vec3 max(Vec3 a, Vec3 b) { return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}; }

// A degenerate mesh (a single point) still gets a size, a cell and a camera distance.
constexpr float kMinRadius = 1e-3f;
// Three-quarter view from above, front and right: shows tops and two sides of most things.
const Vec3 kViewDirection = normalize(Vec3{0.6f, 0.55f, 1.0f});

Box union_of(const std::vector<Box>& boxes) {
  Box all{{1e30f, 1e30f, 1e30f}, {-1e30f, -1e30f, -1e30f}};
  for (const Box& b : boxes) {
    all.lo = min(all.lo, b.lo);
    all.hi = max(all.hi, b.hi);
  }
  return all;
}

}  // namespace

Vec3 corner(const Box& box, int i) {
  return {(i & 1) ? box.hi.x : box.lo.x, (i & 2) ? box.hi.y : box.lo.y,
          (i & 4) ? box.hi.z : box.lo.z};
}

Mat4 multiply(const Mat4& a, const Mat4& b) {
  Mat4 out;
  for (int col = 0; col < 4; ++col) {
    for (int row = 0; row < 4; ++row) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += a.m[k * 4 + row] * b.m[col * 4 + k];
      out.m[col * 4 + row] = sum;
    }
  }
  return out;
}

Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up) {
  Vec3 f = normalize(target - eye);
  Vec3 s = normalize(cross(f, up));
  Vec3 u = cross(s, f);
  Mat4 view;
  view.m[0] = s.x;
  view.m[4] = s.y;
  view.m[8] = s.z;
  view.m[1] = u.x;
  view.m[5] = u.y;
  view.m[9] = u.z;
  view.m[2] = -f.x;
  view.m[6] = -f.y;
  view.m[10] = -f.z;
  view.m[12] = -dot(s, eye);
  view.m[13] = -dot(u, eye);
  view.m[14] = dot(f, eye);
  view.m[15] = 1;
  return view;
}

Mat4 perspective(float fov_y_radians, float aspect, float near_plane, float far_plane) {
  float f = 1.0f / std::tan(fov_y_radians / 2);
  Mat4 proj;
  proj.m[0] = f / aspect;
  proj.m[5] = -f;  // Vulkan's clip space has y pointing down
  proj.m[10] = far_plane / (near_plane - far_plane);
  proj.m[11] = -1;
  proj.m[14] = near_plane * far_plane / (near_plane - far_plane);
  return proj;
}

std::vector<Placement> place_meshes(const std::vector<GpuMesh>& meshes, SceneLayout layout) {
  std::vector<Placement> placements(meshes.size());
  if (layout == SceneLayout::AsAuthored || meshes.empty()) return placements;
  const float cell = 2.8f;  // unit-radius meshes with some air between neighbours
  auto columns = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(meshes.size()))));
  size_t rows = (meshes.size() + columns - 1) / columns;
  for (size_t i = 0; i < meshes.size(); ++i) {
    const assetlib::MeshBounds& bounds = meshes[i].info.bounds;
    float scale = 1.0f / std::max(bounds.radius, kMinRadius);
    Vec3 centre{(static_cast<float>(i % columns) - static_cast<float>(columns - 1) / 2) * cell, 0,
                (static_cast<float>(i / columns) - static_cast<float>(rows - 1) / 2) * cell};
    placements[i] = {centre - to_vec3(bounds.origin) * scale, scale};
  }
  return placements;
}

std::vector<Box> placed_boxes(const std::vector<GpuMesh>& meshes,
                              const std::vector<Placement>& placements) {
  std::vector<Box> boxes;
  for (size_t i = 0; i < meshes.size(); ++i) {
    const assetlib::MeshBounds& b = meshes[i].info.bounds;
    const Placement& p = placements[i];
    Vec3 centre = to_vec3(b.origin) * p.scale + p.offset;
    Vec3 extents = to_vec3(b.extents) * p.scale;
    boxes.push_back({centre - extents, centre + extents});
  }
  return boxes;
}

CameraFit fit_camera(const std::vector<Box>& boxes, float aspect) {
  Box all = boxes.empty() ? Box{{-1, -1, -1}, {1, 1, 1}} : union_of(boxes);
  Vec3 target = (all.lo + all.hi) * 0.5f;
  Vec3 side = normalize(cross(kViewDirection * -1.0f, Vec3{0, 1, 0}));
  Vec3 up = cross(side, kViewDirection * -1.0f);
  // A little margin so nothing touches the image border.
  float tan_y = std::tan(kCameraFovY / 2) * 0.92f;
  float tan_x = tan_y * aspect;

  // Each corner needs the eye at least this far back along the view direction to be in view;
  // corners of the individual boxes, not of their union, so the fit stays tight.
  float distance = kMinRadius;
  float nearest = 1e30f;
  float farthest = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Box& box : boxes.empty() ? std::vector<Box>{all} : boxes) {
      for (int i = 0; i < 8; ++i) {
        Vec3 r = corner(box, i) - target;
        float along = dot(r, kViewDirection);
        if (pass == 0) {
          distance = std::max({distance, along + std::abs(dot(r, side)) / tan_x,
                               along + std::abs(dot(r, up)) / tan_y, along + kMinRadius});
        } else {
          nearest = std::min(nearest, distance - along);
          farthest = std::max(farthest, distance - along);
        }
      }
    }
  }
  float near_plane = std::max(nearest * 0.5f, distance * 1e-4f);
  float far_plane = farthest * 1.5f + kMinRadius;
  return {target, kViewDirection, distance, near_plane, far_plane};
}

Mat4 frame_camera(const std::vector<Box>& boxes, float aspect) {
  CameraFit fit = fit_camera(boxes, aspect);
  Vec3 eye = fit.target + fit.direction * fit.distance;
  return multiply(perspective(kCameraFovY, aspect, fit.near_plane, fit.far_plane),
                  look_at(eye, fit.target, Vec3{0, 1, 0}));
}

}  // namespace sample
