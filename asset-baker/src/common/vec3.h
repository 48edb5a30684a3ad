// The little 3D vector math the mesh stages need (normals, tangents, areas), in one place.
#pragma once

#include <algorithm>
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

// A normal from a file at unit length: scaled when its length is off by more than float rounding
// (OBJ `vn` need not be unit; a quantized glTF normal is off by its rounding), kept bit for bit
// when it is unit already, and left as it is when it has no direction (zero, or not finite).
inline Vec3 unit_normal(const Vec3& n) {
  float length_squared = dot(n, n);
  if (!(std::fabs(length_squared - 1) > 1e-6f)) return n;
  // Scaled by its largest component first, so that neither 1e20 nor 1e-20 leaves float's range.
  const float largest = std::max({std::fabs(n[0]), std::fabs(n[1]), std::fabs(n[2])});
  if (!(largest > 0) || !std::isfinite(largest)) return n;
  const Vec3 m = n * (1.0f / largest);
  const float length = std::sqrt(dot(m, m));
  return {m[0] / length, m[1] / length, m[2] / length};
}

// The angle, in radians, between two unit vectors whose dot product is `cosine` (clamped to
// [-1, 1]): the weight of a corner in angle-weighted normals and tangents. A degree-7 polynomial in
// x times sqrt(1 - x) (Abramowitz and Stegun 4.4.46), within float rounding of acos (the
// polynomial's own error is 2e-8) at a fraction of the cost of libm's acosf, which was a twentieth
// of an OBJ bake. Plain arithmetic, so the same on every libm.
inline float corner_angle_of(float cosine) {
  float x = std::fabs(cosine);
  if (!(x < 1.0f)) return cosine < 0 ? 3.14159265f : 0.0f;
  float p = 1.5707963050f +
            x * (-0.2145988016f +
                 x * (0.0889789874f +
                      x * (-0.0501743046f +
                           x * (0.0308918810f +
                                x * (-0.0170881256f + x * (0.0066700901f - x * 0.0012624911f))))));
  float a = std::sqrt(1.0f - x) * p;
  return cosine < 0 ? 3.14159265f - a : a;
}

}  // namespace baker
