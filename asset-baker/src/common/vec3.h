// The little 3D vector math the mesh stages need (normals, tangents, areas), in one place.
#pragma once

#include <array>
#include <cmath>

namespace baker {

using Vec3 = std::array<float, 3>;

inline Vec3 operator-(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec3 operator+(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 operator*(const Vec3& a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }
inline float dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline Vec3 to_vec3(const float* v) { return {v[0], v[1], v[2]}; }

// `v` scaled to unit length, or `fallback` when `v` is shorter than `min_length`.
inline Vec3 normalized_or(const Vec3& v, const Vec3& fallback, float min_length = 1e-20f) {
  float len = std::sqrt(dot(v, v));
  return len > min_length ? Vec3{v[0] / len, v[1] / len, v[2] / len} : fallback;
}

}  // namespace baker
