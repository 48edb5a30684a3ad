// The little vector and matrix maths the sample needs (placement, cameras, node transforms), so
// it needs no maths library. Matrices are column-major, as glTF stores them and GLSL reads them.
#pragma once

#include <cmath>

namespace sample {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

// The smallest radius anything is given: a degenerate model (a single point) still gets a size,
// a grid cell and a camera distance.
inline constexpr float kMinRadius = 1e-3f;

inline Vec3 to_vec3(const float v[3]) { return {v[0], v[1], v[2]}; }

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
// In double: a float dot product overflows for components past 1.8e19, which the format allows
// (positions to 3e38), and an infinite length made the camera and the grid layout NaN.
inline float length(Vec3 a) {
  return static_cast<float>(std::sqrt(double(a.x) * a.x + double(a.y) * a.y + double(a.z) * a.z));
}
inline Vec3 normalize(Vec3 a) { return a * (1.0f / length(a)); }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
Vec3 min(Vec3 a, Vec3 b);
Vec3 max(Vec3 a, Vec3 b);

struct Mat4 {
  float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // identity
};

Mat4 multiply(const Mat4& a, const Mat4& b);
Mat4 from_array(const float m[16]);
Vec3 transform_point(const Mat4& m, Vec3 p);
Vec3 column(const Mat4& m, int index);  // the first three rows of column `index`
// translate(t) * scale(s, s, s)
Mat4 translate_scale(Vec3 translation, float scale);
// The inverse transpose of the upper 3x3, in a mat4 (what normals are multiplied with); identity
// for a singular matrix. Its determinant's sign says whether the matrix mirrors.
Mat4 normal_matrix(const Mat4& m);
float determinant3(const Mat4& m);
// The largest factor by which `m` stretches a length (for bounding spheres).
float max_scale(const Mat4& m);

Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up);
// Right-handed view space to Vulkan clip space: y points down, depth runs 0 (near) to 1 (far).
Mat4 perspective(float fov_y_radians, float aspect, float near_plane, float far_plane);

// Axis-aligned box.
struct Box {
  Vec3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};  // empty
  bool empty() const { return lo.x > hi.x; }
  void add(Vec3 p);
  void add(const Box& other);
  Vec3 centre() const { return (lo + hi) * 0.5f; }
};
// Corner `i` (0..7) of `box`: bit 0 picks x, bit 1 y, bit 2 z from hi over lo.
Vec3 corner(const Box& box, int i);
// The box around `box` transformed by `m`.
Box transform_box(const Mat4& m, const Box& box);

}  // namespace sample
