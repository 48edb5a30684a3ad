#include "window/orbit_camera.h"

#include <algorithm>
#include <cmath>

namespace sample {
namespace {

constexpr float kRadiansPerPixel = 0.008f;
constexpr float kZoomPerStep = 0.9f;  // each wheel step covers a tenth of the distance left
// Short of a right angle: at the pole the view direction would be parallel to look_at's up.
constexpr float kMaxPitch = 1.55f;

// Smallest sphere about the boxes' common centre that holds every corner.
float bounding_radius(const std::vector<Box>& boxes, Vec3 centre) {
  float radius = 1e-3f;
  for (const Box& box : boxes) {
    for (int i = 0; i < 8; ++i) radius = std::max(radius, length(corner(box, i) - centre));
  }
  return radius;
}

}  // namespace

OrbitCamera::OrbitCamera(const std::vector<Box>& boxes, float aspect) {
  // The headless fit gives the first view, so the window opens on the screenshot's framing.
  CameraFit fit = fit_camera(boxes, aspect);
  target_ = fit.target;
  yaw_ = std::atan2(fit.direction.x, fit.direction.z);
  pitch_ = std::asin(std::clamp(fit.direction.y, -1.0f, 1.0f));
  distance_ = fit.distance;
  radius_ = bounding_radius(boxes, target_);
  min_distance_ = radius_ * 0.05f;
  max_distance_ = std::max(distance_, radius_) * 20;
}

void OrbitCamera::rotate(float dx, float dy) {
  yaw_ = std::remainder(yaw_ - dx * kRadiansPerPixel, 2 * 3.14159265f);
  pitch_ = std::clamp(pitch_ + dy * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::zoom(float steps) {
  distance_ = std::clamp(distance_ * std::pow(kZoomPerStep, steps), min_distance_, max_distance_);
}

Vec3 OrbitCamera::direction() const {
  return {std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_)};
}

CameraView OrbitCamera::view(float aspect) const {
  Vec3 eye = target_ + direction() * distance_;
  // Depth range from the bounding sphere: valid from every angle. Inside the sphere the near
  // plane stays a small fraction of it rather than reaching zero.
  float far_plane = (distance_ + radius_) * 1.5f;
  float near_plane = std::max((distance_ - radius_) * 0.5f, far_plane * 1e-4f);
  CameraView view;
  view.view_proj = multiply(perspective(kCameraFovY, aspect, near_plane, far_plane),
                            look_at(eye, target_, Vec3{0, 1, 0}));
  view.eye = eye;
  view.focal = 1.0f / std::tan(kCameraFovY / 2);
  return view;
}

}  // namespace sample
