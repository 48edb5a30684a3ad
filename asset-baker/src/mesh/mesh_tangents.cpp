#include "mesh/mesh_tangents.h"

#include "common/vec3.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace baker {
namespace {

// MikkTSpace's test for a usable length or area.
bool not_zero(float x) { return std::fabs(x) > FLT_MIN; }

// Any unit vector perpendicular to n: a stable choice for corners without a UV direction.
Vec3 perpendicular(const Vec3& n) {
  Vec3 axis = std::fabs(n[0]) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  return normalized_or(cross(axis, n), Vec3{1, 0, 0}, 0.0f);
}

Vec3 projected_unit(const Vec3& v, const Vec3& n) {
  Vec3 p = v - n * dot(n, v);
  return normalized_or(p, p, FLT_MIN);
}

// What groups corners: position, normal and UV compared as MikkTSpace compares them (== on
// floats, so -0 and +0 are one value), and the UV orientation of the triangle.
struct GroupKey {
  std::array<float, 8> values;
  bool preserving;
  bool operator==(const GroupKey& o) const {
    return values == o.values && preserving == o.preserving;
  }
};

// The corner groups and their running sums, numbered in order of first use. Open addressing with
// linear probing over group numbers, the slots sized once for the most groups a soup can have (one
// per corner): no lookup rehashes (std::unordered_map, a node per group, was a sixth of the bake
// of a textured OBJ).
class GroupSums {
 public:
  static constexpr uint32_t kNone = ~0u;

  explicit GroupSums(size_t max_groups) {
    size_t capacity = 16;
    while (capacity < 2 * max_groups) capacity *= 2;
    slots_.assign(capacity, kNone);
  }

  // The group of `key`, new with a zero sum when first met. A key holding a NaN equals nothing,
  // not even itself: it gets a group of its own without a slot, so a file of a million NaN normals
  // does not probe one ever longer run of slots (quadratic time).
  uint32_t find_or_add(const GroupKey& key) {
    const bool comparable = key == key;
    uint32_t* slot = comparable ? &slots_[probe(key)] : nullptr;
    if (slot && *slot != kNone) return *slot;
    const uint32_t group = uint32_t(keys_.size());
    keys_.push_back(key);
    sums_.push_back({0, 0, 0});
    if (slot) *slot = group;
    return group;
  }
  // The group of `key`, or kNone.
  uint32_t find(const GroupKey& key) const { return key == key ? slots_[probe(key)] : kNone; }

  Vec3& sum(uint32_t group) { return sums_[group]; }

 private:
  // The slot holding `key`, or the empty slot where it would go.
  size_t probe(const GroupKey& key) const {
    const size_t mask = slots_.size() - 1;
    size_t i = size_t(XXH3_64bits_withSeed(key.values.data(), sizeof key.values, key.preserving));
    for (i &= mask; slots_[i] != kNone && !(keys_[slots_[i]] == key); i = (i + 1) & mask) {
    }
    return i;
  }

  std::vector<uint32_t> slots_;  // a group number, or kNone
  std::vector<GroupKey> keys_;
  std::vector<Vec3> sums_;
};

// The UV set tangents follow.
const float* uv_of(const MeshVertex& v, uint32_t uv_set) { return uv_set == 1 ? v.uv1 : v.uv; }

GroupKey key_of(const MeshVertex& v, bool preserving, uint32_t uv_set) {
  const float* uv = uv_of(v, uv_set);
  GroupKey key{{v.position[0], v.position[1], v.position[2], v.normal[0], v.normal[1], v.normal[2],
                uv[0], uv[1]},
               preserving};
  for (float& f : key.values) f += 0.0f;  // -0 becomes +0
  return key;
}

struct Triangle {
  Vec3 tangent{0, 0, 0};  // unit, or zero when the UVs give no direction
  bool preserving = true;
  bool uv_degenerate = false;
};

// The three corners of one triangle.
using Corners = std::array<const MeshVertex*, 3>;

// The tangent direction of a triangle and whether its UV mapping keeps the orientation.
// Stored UVs point v down (the first texel row is v = 0); MikkTSpace and normal maps take v up
// (+Y of a normal map is up in the image), so v is negated here, as glTF exporters and viewers do.
// Without it every w would be the opposite of what Blender writes and normal maps would light
// upside down.
Triangle triangle_frame(const Corners& c, uint32_t uv_set) {
  Vec3 d1 = to_vec3(c[1]->position) - to_vec3(c[0]->position);
  Vec3 d2 = to_vec3(c[2]->position) - to_vec3(c[0]->position);
  const float *uv0 = uv_of(*c[0], uv_set), *uv1 = uv_of(*c[1], uv_set), *uv2 = uv_of(*c[2], uv_set);
  float t21x = uv1[0] - uv0[0], t21y = uv0[1] - uv1[1];
  float t31x = uv2[0] - uv0[0], t31y = uv0[1] - uv2[1];
  float signed_area = t21x * t31y - t21y * t31x;
  Triangle t;
  t.preserving = signed_area > 0;
  t.uv_degenerate = !not_zero(signed_area);
  if (t.uv_degenerate) return t;
  Vec3 os = d1 * t31y - d2 * t21y;
  float length = std::sqrt(dot(os, os));
  if (not_zero(length)) t.tangent = os * ((t.preserving ? 1.0f : -1.0f) / length);
  return t;
}

// The angle at corner `k` of triangle `c`, measured in the plane of that corner's normal.
float corner_angle(const Corners& c, int k, const Vec3& n) {
  Vec3 p = to_vec3(c[size_t(k)]->position);
  Vec3 a = projected_unit(to_vec3(c[size_t(k + 1) % 3]->position) - p, n);
  Vec3 b = projected_unit(to_vec3(c[size_t(k + 2) % 3]->position) - p, n);
  return corner_angle_of(dot(a, b));
}

// The vertices a corner's frame is written to: each vertex keeps the first frame one of its
// corners gets, and each other frame its corners get makes a copy of it (a UV mirror seam, where
// the two sides share position, normal and UV). Copies are found by (vertex, frame bits) in a
// hash map, so any number of frames per vertex takes linear time.
class FrameVertices {
 public:
  explicit FrameVertices(std::vector<MeshVertex>& vertices)
      : vertices_(vertices), framed_(vertices.size(), false) {}

  // The vertex holding `v` with `frame` as its tangent.
  uint32_t with_frame(uint32_t v, const std::array<float, 4>& frame) {
    if (!framed_[v]) {
      framed_[v] = true;
      std::copy(frame.begin(), frame.end(), vertices_[v].tangent);
      return v;
    }
    if (std::memcmp(vertices_[v].tangent, frame.data(), sizeof frame) == 0) return v;
    Copy key{v, {}};
    std::memcpy(key.frame_bits.data(), frame.data(), sizeof frame);
    auto [it, added] = copies_.try_emplace(key, uint32_t(vertices_.size()));
    if (added) {
      MeshVertex copy = vertices_[v];
      std::copy(frame.begin(), frame.end(), copy.tangent);
      vertices_.push_back(copy);
    }
    return it->second;
  }

 private:
  struct Copy {
    uint32_t vertex;
    std::array<uint32_t, 4> frame_bits;
    bool operator==(const Copy&) const = default;
  };
  struct CopyHash {
    size_t operator()(const Copy& c) const { return size_t(XXH3_64bits(&c, sizeof c)); }
  };

  std::vector<MeshVertex>& vertices_;
  std::vector<bool> framed_;
  std::unordered_map<Copy, uint32_t, CopyHash> copies_;
};

}  // namespace

void generate_tangents(std::vector<MeshVertex>& vertices, std::vector<uint32_t>& corners,
                       const std::vector<bool>& keep, uint32_t uv_set) {
  const bool indexed = !corners.empty();
  const size_t corner_count = indexed ? corners.size() : vertices.size();
  auto vertex_of = [&](size_t i) { return indexed ? corners[i] : uint32_t(i); };
  auto corners_of = [&](size_t t) {
    return Corners{&vertices[vertex_of(t * 3)], &vertices[vertex_of(t * 3 + 1)],
                   &vertices[vertex_of(t * 3 + 2)]};
  };
  const size_t triangles = corner_count / 3;
  std::vector<Triangle> frames(triangles);
  // Keys without a NaN make at most two groups per vertex (one per orientation).
  GroupSums groups(std::min(corner_count, 2 * vertices.size()));
  // Each vertex's group per orientation, looked up once: the key is hashed per vertex, not per
  // corner. A key holding a NaN is not kept (its every corner is a group of its own).
  std::vector<uint32_t> vertex_group(2 * vertices.size(), GroupSums::kNone);
  auto group_of_vertex = [&](uint32_t v, bool preserving) {
    uint32_t& known = vertex_group[2 * size_t(v) + preserving];
    if (known != GroupSums::kNone) return known;
    const GroupKey key = key_of(vertices[v], preserving, uv_set);
    const uint32_t group = groups.find_or_add(key);
    if (key == key) known = group;
    return group;
  };
  // Each corner's group, kept from the summing pass; corners of triangles without UV area find
  // theirs afterwards.
  std::vector<uint32_t> group_of(corner_count, GroupSums::kNone);
  for (size_t t = 0; t < triangles; ++t) {
    const Corners c = corners_of(t);
    frames[t] = triangle_frame(c, uv_set);
    if (frames[t].uv_degenerate) continue;
    for (int k = 0; k < 3; ++k) {
      Vec3 n = to_vec3(c[size_t(k)]->normal);
      uint32_t group = group_of_vertex(vertex_of(t * 3 + size_t(k)), frames[t].preserving);
      Vec3& sum = groups.sum(group);
      sum = sum + projected_unit(frames[t].tangent, n) * corner_angle(c, k, n);
      group_of[t * 3 + size_t(k)] = group;
    }
  }
  FrameVertices framed(vertices);
  std::vector<uint32_t> framed_corners(corner_count);
  for (size_t t = 0; t < triangles; ++t) {
    for (size_t k = 0; k < 3; ++k) {
      const uint32_t v = vertex_of(t * 3 + k);
      framed_corners[t * 3 + k] = v;
      if (!keep.empty() && keep[v]) continue;
      uint32_t group = group_of[t * 3 + k];
      bool preserving = frames[t].preserving;
      if (frames[t].uv_degenerate) {
        // "Group with any": the frame already at this corner, the preserving one first.
        for (bool side : {true, false}) {
          group = groups.find(key_of(vertices[v], side, uv_set));
          preserving = side;
          if (group != GroupSums::kNone) break;
        }
      }
      Vec3 n = to_vec3(vertices[v].normal);
      Vec3 tangent = perpendicular(n);
      float w = 1.0f;
      if (group != GroupSums::kNone && dot(groups.sum(group), groups.sum(group)) > 0) {
        tangent = normalized_or(groups.sum(group), tangent, FLT_MIN);
        w = preserving ? 1.0f : -1.0f;
      }
      framed_corners[t * 3 + k] = framed.with_frame(v, {tangent[0], tangent[1], tangent[2], w});
    }
  }
  // A soup has one corner per vertex, so it never needs a copy and stays a soup.
  if (indexed || vertices.size() > corner_count) corners = std::move(framed_corners);
}

}  // namespace baker
