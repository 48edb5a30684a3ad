#include "render/scene_math.h"

#include <algorithm>

namespace sample {

Vec3 min(Vec3 a, Vec3 b) { return {std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)}; }
Vec3 max(Vec3 a, Vec3 b) { return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}; }

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

Mat4 from_array(const float m[16]) {
  Mat4 out;
  std::copy(m, m + 16, out.m);
  return out;
}

Vec3 transform_point(const Mat4& m, Vec3 p) {
  const float* a = m.m;
  return {a[0] * p.x + a[4] * p.y + a[8] * p.z + a[12],
          a[1] * p.x + a[5] * p.y + a[9] * p.z + a[13],
          a[2] * p.x + a[6] * p.y + a[10] * p.z + a[14]};
}

Vec3 column(const Mat4& m, int index) {
  return {m.m[index * 4], m.m[index * 4 + 1], m.m[index * 4 + 2]};
}

Mat4 translate_scale(Vec3 translation, float scale) {
  Mat4 out;
  out.m[0] = out.m[5] = out.m[10] = scale;
  out.m[12] = translation.x;
  out.m[13] = translation.y;
  out.m[14] = translation.z;
  return out;
}

float determinant3(const Mat4& m) { return dot(column(m, 0), cross(column(m, 1), column(m, 2))); }

Mat4 normal_matrix(const Mat4& m) {
  // The inverse transpose of [c0 c1 c2] has the columns (c1 x c2, c2 x c0, c0 x c1) / det.
  float det = determinant3(m);
  Mat4 out;
  if (!(std::abs(det) > 1e-30f)) return out;
  Vec3 c0 = column(m, 0), c1 = column(m, 1), c2 = column(m, 2);
  Vec3 cols[3] = {cross(c1, c2) * (1 / det), cross(c2, c0) * (1 / det), cross(c0, c1) * (1 / det)};
  for (int c = 0; c < 3; ++c) {
    out.m[c * 4] = cols[c].x;
    out.m[c * 4 + 1] = cols[c].y;
    out.m[c * 4 + 2] = cols[c].z;
  }
  return out;
}

float max_scale(const Mat4& m) {
  return std::max({length(column(m, 0)), length(column(m, 1)), length(column(m, 2))});
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
  view.m[3] = view.m[7] = view.m[11] = 0;
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
  // In double: near x far overflows a float for scenes past 1.8e19 (the format allows 3e38).
  proj.m[14] =
      static_cast<float>(double(near_plane) * far_plane / (double(near_plane) - far_plane));
  proj.m[15] = 0;
  return proj;
}

void Box::add(Vec3 p) {
  lo = min(lo, p);
  hi = max(hi, p);
}

void Box::add(const Box& other) {
  if (other.empty()) return;
  add(other.lo);
  add(other.hi);
}

Vec3 corner(const Box& box, int i) {
  return {(i & 1) ? box.hi.x : box.lo.x, (i & 2) ? box.hi.y : box.lo.y,
          (i & 4) ? box.hi.z : box.lo.z};
}

Box transform_box(const Mat4& m, const Box& box) {
  Box out;
  if (box.empty()) return out;
  for (int i = 0; i < 8; ++i) out.add(transform_point(m, corner(box, i)));
  return out;
}

}  // namespace sample
