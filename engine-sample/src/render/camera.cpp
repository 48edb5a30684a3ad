#include "render/camera.h"

#include "error.h"

#include <algorithm>
#include <cmath>

namespace sample {
namespace {

// Three-quarter view from above, front and right: shows tops and two sides of most things.
const Vec3 kViewDirection = normalize(Vec3{0.6f, 0.55f, 1.0f});

Box union_of(const std::vector<Box>& boxes) {
  Box all;
  for (const Box& b : boxes) all.add(b);
  if (all.empty()) all = {{-1, -1, -1}, {1, 1, 1}};
  return all;
}

}  // namespace

CameraFit fit_camera(const std::vector<Box>& boxes, float aspect) {
  Box all = union_of(boxes);
  Vec3 target = all.centre();
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
      if (box.empty()) continue;  // a mesh without finite bounds
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

CameraView frame_camera(const std::vector<Box>& boxes, float aspect) {
  CameraFit fit = fit_camera(boxes, aspect);
  Vec3 eye = fit.target + fit.direction * fit.distance;
  CameraView view;
  view.view_proj = multiply(perspective(kCameraFovY, aspect, fit.near_plane, fit.far_plane),
                            look_at(eye, fit.target, Vec3{0, 1, 0}));
  view.eye = eye;
  view.focal = 1.0f / std::tan(kCameraFovY / 2);
  return view;
}

CameraView node_camera(const SceneCamera& camera, float aspect, const Box& scene) {
  Vec3 eye = column(camera.world, 3);
  Vec3 forward = normalize(column(camera.world, 2) * -1.0f);
  Vec3 up = normalize(column(camera.world, 1));
  const assetlib::PrefabCamera& c = camera.camera;
  bool perspective_camera = c.type == assetlib::CameraType::Perspective && c.yfov > 0;
  float fov = perspective_camera ? c.yfov : kCameraFovY;
  // The depth range is in the node's units; the grid layout may have scaled the node.
  float units = length(column(camera.world, 2));
  float near_plane = std::max(c.znear * units, 1e-6f);
  float far_plane = c.zfar * units;
  if (!(far_plane > near_plane)) {
    float reach = 0;
    for (int i = 0; i < 8; ++i) reach = std::max(reach, length(corner(scene, i) - eye));
    far_plane = std::max(reach * 1.5f, near_plane * 2);
  }
  CameraView view;
  view.view_proj =
      multiply(perspective(fov, aspect, near_plane, far_plane), look_at(eye, eye + forward, up));
  view.eye = eye;
  view.focal = 1.0f / std::tan(fov / 2);
  return view;
}

ChosenCamera choose_camera(const SceneInstances& scene, const std::string& name, float aspect) {
  if (name.empty()) {
    return {frame_camera(scene.boxes(), aspect),
            "framing " + std::to_string(scene.meshes.size()) + " mesh instance(s)"};
  }
  std::string known;
  for (const SceneCamera& camera : scene.cameras) {
    if (camera.name == name) {
      std::string description = "node '" + name + "' of " + camera.prefab;
      if (camera.camera.type == assetlib::CameraType::Orthographic) {
        description += " (orthographic, drawn in perspective)";
      }
      return {node_camera(camera, aspect, scene.bounds), description};
    }
    known += (known.empty() ? "" : ", ") + ("'" + camera.name + "'");
  }
  throw SampleError("--camera: no camera node named '" + name + "' (the scene has " +
                    (known.empty() ? std::string("none") : known) + ")");
}

}  // namespace sample
