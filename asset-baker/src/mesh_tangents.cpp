#include "mesh_tangents.h"

#include <array>
#include <cmath>

namespace baker {
namespace {

using Vec3 = std::array<float, 3>;

Vec3 sub(const float* a, const float* b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
float dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// Any unit vector perpendicular to n: a stable choice for vertices without a UV direction.
Vec3 perpendicular(const Vec3& n) {
  Vec3 axis = std::fabs(n[0]) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  Vec3 t = cross(axis, n);
  float len = std::sqrt(dot(t, t));
  return len > 0 ? Vec3{t[0] / len, t[1] / len, t[2] / len} : Vec3{1, 0, 0};
}

}  // namespace

void generate_tangents(std::vector<assetlib::Vertex_PNCVT_F32>& vertices, const std::vector<uint32_t>& indices) {
  std::vector<Vec3> tangents(vertices.size(), Vec3{0, 0, 0}), bitangents(vertices.size(), Vec3{0, 0, 0});
  for (size_t i = 0; i + 2 < indices.size(); i += 3) {
    const auto& v0 = vertices[indices[i]];
    const auto& v1 = vertices[indices[i + 1]];
    const auto& v2 = vertices[indices[i + 2]];
    Vec3 e1 = sub(v1.position, v0.position), e2 = sub(v2.position, v0.position);
    float du1 = v1.uv[0] - v0.uv[0], dv1 = v1.uv[1] - v0.uv[1];
    float du2 = v2.uv[0] - v0.uv[0], dv2 = v2.uv[1] - v0.uv[1];
    float det = du1 * dv2 - du2 * dv1;
    if (std::fabs(det) < 1e-12f) continue;
    // Area-weighted: not normalising by det's magnitude keeps large triangles dominant.
    float sign = det > 0 ? 1.0f : -1.0f;
    Vec3 t, b;
    for (int k = 0; k < 3; ++k) {
      t[size_t(k)] = (e1[size_t(k)] * dv2 - e2[size_t(k)] * dv1) * sign;
      b[size_t(k)] = (e2[size_t(k)] * du1 - e1[size_t(k)] * du2) * sign;
    }
    for (size_t c = 0; c < 3; ++c) {
      for (size_t k = 0; k < 3; ++k) {
        tangents[indices[i + c]][k] += t[k];
        bitangents[indices[i + c]][k] += b[k];
      }
    }
  }
  for (size_t v = 0; v < vertices.size(); ++v) {
    Vec3 n{vertices[v].normal[0], vertices[v].normal[1], vertices[v].normal[2]};
    Vec3 t = tangents[v];
    float nt = dot(n, t);
    for (size_t k = 0; k < 3; ++k) t[k] -= n[k] * nt;
    float len = std::sqrt(dot(t, t));
    t = len > 1e-12f ? Vec3{t[0] / len, t[1] / len, t[2] / len} : perpendicular(n);
    float w = dot(cross(n, t), bitangents[v]) < 0 ? -1.0f : 1.0f;
    for (size_t k = 0; k < 3; ++k) vertices[v].tangent[k] = t[k];
    vertices[v].tangent[3] = w;
  }
}

}  // namespace baker
