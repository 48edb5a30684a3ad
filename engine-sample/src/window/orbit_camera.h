// The --window camera: it starts where the headless camera frames the scene (same direction, same
// distance), then orbits the scene's centre on a mouse drag and moves in and out on the wheel.
// Plain maths on render/camera.h; it knows nothing about GLFW or Vulkan.
#pragma once

#include "render/camera.h"

#include <vector>

namespace sample {

class OrbitCamera {
 public:
  // `boxes`: each mesh where it is drawn; `aspect`: of the first frame, for the initial fit.
  OrbitCamera(const std::vector<Box>& boxes, float aspect);

  // A drag of (dx, dy) pixels turns the scene with the pointer: sideways about the vertical axis,
  // up and down about the horizontal one (stopping short of straight above or below).
  void rotate(float dx, float dy);
  // Wheel steps: positive comes closer, negative backs off; bounded so the scene never vanishes.
  void zoom(float steps);

  CameraView view(float aspect) const;

 private:
  Vec3 direction() const;  // unit, from the target to the eye

  Vec3 target_;
  float yaw_ = 0;    // about +y, 0 looking from +z
  float pitch_ = 0;  // above the horizontal plane
  float distance_ = 1;
  // Of a sphere around every box: the depth range is taken from it, so no part of the scene is
  // clipped from any side the camera orbits to.
  float radius_ = 1;
  float min_distance_ = 0.1f;
  float max_distance_ = 100;
};

}  // namespace sample
