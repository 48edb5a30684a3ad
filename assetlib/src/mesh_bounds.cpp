#include "mesh_bounds.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace assetlib {
namespace {

// Box and sphere around the positions of `count` vertices, the i-th being vertex_at(i).
template <typename VertexAt>
MeshBounds bounds_of(const std::byte* vertices, uint32_t stride, size_t count, VertexAt vertex_at) {
  MeshBounds bounds;
  if (count == 0) return bounds;
  auto position = [&](size_t i, float p[3]) {
    std::memcpy(p, vertices + size_t(vertex_at(i)) * stride, sizeof(float) * 3);
  };
  float lo[3], hi[3];
  position(0, lo);
  position(0, hi);
  for (size_t i = 1; i < count; ++i) {
    float p[3];
    position(i, p);
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[k]);
      hi[k] = std::max(hi[k], p[k]);
    }
  }
  // Rounded outward: origin +- extents, as a reader computes it in float, holds every vertex (the
  // nearest float for the half-size left vertices a float step outside, and culling against the
  // bounds was not conservative).
  for (int k = 0; k < 3; ++k) {
    const float origin = (lo[k] + hi[k]) * 0.5f;
    float extent = std::max(hi[k] - origin, origin - lo[k]);
    while (origin - extent > lo[k] || origin + extent < hi[k])
      extent = std::nextafter(extent, INFINITY);
    bounds.origin[k] = origin;
    bounds.extents[k] = extent;
  }
  // The distances in double (exact for float coordinates but for the sum's last bit), the radius
  // the nearest float at or above the largest.
  double r2 = 0;
  for (size_t i = 0; i < count; ++i) {
    float p[3];
    position(i, p);
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = double(p[k]) - double(bounds.origin[k]);
      d2 += d * d;
    }
    r2 = std::max(r2, d2);
  }
  float radius = float(std::sqrt(r2));
  while (double(radius) * double(radius) < r2) radius = std::nextafter(radius, INFINITY);
  bounds.radius = radius;
  return bounds;
}

}  // namespace

MeshBounds compute_mesh_bounds(const void* vertices, uint32_t vertex_count, uint32_t stride) {
  return bounds_of(static_cast<const std::byte*>(vertices), stride, vertex_count,
                   [](size_t i) { return i; });
}

namespace detail {

MeshBounds indexed_bounds(const void* vertices, uint32_t stride, const void* indices,
                          uint32_t index_size, uint32_t first, uint32_t count) {
  auto base = static_cast<const std::byte*>(vertices);
  auto i16 = static_cast<const uint16_t*>(indices) + first;
  auto i32 = static_cast<const uint32_t*>(indices) + first;
  return index_size == 2 ? bounds_of(base, stride, count, [&](size_t i) { return i16[i]; })
                         : bounds_of(base, stride, count, [&](size_t i) { return i32[i]; });
}

bool positions_finite(const void* vertices, uint32_t vertex_count, uint32_t stride) {
  for (uint32_t i = 0; i < vertex_count; ++i) {
    float p[3];
    std::memcpy(p, static_cast<const std::byte*>(vertices) + size_t(i) * stride, sizeof p);
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return false;
  }
  return true;
}

}  // namespace detail
}  // namespace assetlib
