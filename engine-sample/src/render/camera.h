// Where the camera looks from: one that frames what is drawn, or a camera node the scene authored.
#pragma once

#include "render/scene_instances.h"
#include "render/scene_math.h"

#include <string>
#include <vector>

namespace sample {

// Vertical field of view of the framing cameras.
inline constexpr float kCameraFovY = 45.0f * 3.14159265f / 180.0f;

// What a frame is drawn from.
struct CameraView {
  Mat4 view_proj;
  Vec3 eye;
  // 1 / tan(vertical fov / 2): a length L at distance d covers L / d * focal * height / 2 pixels.
  float focal = 1;
};

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

// The view of fit_camera(boxes, aspect).
CameraView frame_camera(const std::vector<Box>& boxes, float aspect);

// The view from a camera node (glTF: it looks down its -Z with +Y up). The authored aspect ratio
// is ignored for the target's; an infinite far plane becomes one past `scene`.
// Orthographic cameras are drawn as perspective ones with the default field of view.
CameraView node_camera(const SceneCamera& camera, float aspect, const Box& scene);

// The view a render starts from, and a line saying which it is: the camera node named `name` when
// one is given (SampleError naming the scene's camera nodes when none has that name), else one
// framing every mesh instance.
struct ChosenCamera {
  CameraView view;
  std::string description;
};
ChosenCamera choose_camera(const SceneInstances& scene, const std::string& name, float aspect);

}  // namespace sample
