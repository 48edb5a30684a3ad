#include "mesh/polygon_triangulation.h"

#include <algorithm>
#include <cmath>

namespace baker {
namespace {

struct Point {
  double x, y;
};

bool operator==(const Point& a, const Point& b) { return a.x == b.x && a.y == b.y; }

// Twice the signed area of (o, a, b): positive when counter-clockwise.
double turn(const Point& o, const Point& a, const Point& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// The corners in the plane of the polygon's Newell normal, dropping its largest axis and ordered
// so the outline runs counter-clockwise. Empty when the polygon has no area.
std::vector<Point> projected(std::span<const Vec3> corners) {
  double normal[3] = {0, 0, 0};
  for (size_t i = 0; i < corners.size(); ++i) {
    const Vec3& a = corners[i];
    const Vec3& b = corners[(i + 1) % corners.size()];
    for (int k = 0; k < 3; ++k) {
      int u = (k + 1) % 3, v = (k + 2) % 3;
      normal[k] += (double(a[u]) - b[u]) * (double(a[v]) + b[v]);
    }
  }
  int axis = 0;
  for (int k = 1; k < 3; ++k) {
    if (std::fabs(normal[k]) > std::fabs(normal[axis])) axis = k;
  }
  if (!(std::fabs(normal[axis]) > 0)) return {};
  // (u, v) cyclic after the dropped axis: the projected area has the sign of normal[axis].
  int u = (axis + 1) % 3, v = (axis + 2) % 3;
  double mirror = normal[axis] > 0 ? 1.0 : -1.0;
  std::vector<Point> points;
  points.reserve(corners.size());
  for (const Vec3& c : corners) points.push_back({mirror * c[u], double(c[v])});
  return points;
}

void fan(std::vector<uint32_t>& out, uint32_t first, const std::vector<uint32_t>& next) {
  for (uint32_t b = next[first]; next[b] != first; b = next[b])
    out.insert(out.end(), {first, b, next[b]});
}

// The convex quad rule tinyobjloader used: the shorter diagonal (in float, as it compared them).
bool convex_quad(std::span<const Vec3> c, const std::vector<Point>& p, std::vector<uint32_t>& out) {
  for (size_t i = 0; i < 4; ++i) {
    if (!(turn(p[(i + 3) % 4], p[i], p[(i + 1) % 4]) > 0)) return false;
  }
  Vec3 d02 = c[2] - c[0], d13 = c[3] - c[1];
  if (dot(d02, d02) < dot(d13, d13)) {
    out.insert(out.end(), {0, 1, 2, 0, 2, 3});
  } else {
    out.insert(out.end(), {0, 1, 3, 1, 2, 3});
  }
  return true;
}

// A triangulation of a simple polygon has triangles that all turn its way and add up to its area.
// An outline that crosses itself has lobes of opposite winding, which its shoelace area subtracts
// and the triangles (all turning one way) add: the sums differ.
bool covers_outline(const std::vector<Point>& p, std::span<const uint32_t> triangles) {
  double outline = 0, covered = 0;
  for (size_t i = 0; i < p.size(); ++i) outline += turn(p[0], p[i], p[(i + 1) % p.size()]);
  for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
    double area = turn(p[triangles[t]], p[triangles[t + 1]], p[triangles[t + 2]]);
    if (area < 0) return false;
    covered += area;
  }
  return std::fabs(covered - outline) <= 1e-6 * std::fabs(outline);
}

// True when two edges that share no corner cross at a point inside both (an outline that loops
// round twice covers its inner part twice, which the area test above cannot see). Touching and
// overlapping edges (a bridge edge walked both ways) do not count. O(n^2): the prescan's budget on
// corners squared (obj_import.h) bounds it.
bool crosses_itself(const std::vector<Point>& p) {
  const size_t n = p.size();
  auto opposite = [](double a, double b) { return (a > 0 && b < 0) || (a < 0 && b > 0); };
  for (size_t i = 0; i < n; ++i) {
    const Point &a = p[i], &b = p[(i + 1) % n];
    for (size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // the edge before corner 0 shares it
      const Point &c = p[j], &d = p[(j + 1) % n];
      if (std::max(c.x, d.x) < std::min(a.x, b.x) || std::min(c.x, d.x) > std::max(a.x, b.x))
        continue;
      if (opposite(turn(a, b, c), turn(a, b, d)) && opposite(turn(c, d, a), turn(c, d, b)))
        return true;
    }
  }
  return false;
}

class EarClipper {
 public:
  explicit EarClipper(const std::vector<Point>& points)
      : p_(points), prev_(p_.size()), next_(p_.size()) {
    const uint32_t n = uint32_t(p_.size());
    for (uint32_t i = 0; i < n; ++i) {
      prev_[i] = (i + n - 1) % n;
      next_[i] = (i + 1) % n;
    }
    budget_ = kTriangulationTestsPerCornerSquared * uint64_t(n) * n;
  }

  // Clips ears until a triangle is left. Starting at corner 1 and moving on after each cut, a
  // convex polygon comes out as the fan from corner 0.
  bool run(std::vector<uint32_t>& out) {
    uint32_t remaining = uint32_t(p_.size()), i = 1 % remaining, misses = 0;
    bool relaxed = false;  // second lap: also cut zero-area ears (collinear or repeated corners)
    while (remaining > 3) {
      if (misses >= remaining) {
        if (relaxed || budget_ == 0) {
          fan(out, i, next_);
          return false;
        }
        relaxed = true;
        misses = 0;
      }
      uint32_t a = prev_[i], c = next_[i];
      if (!is_ear(a, i, c, relaxed)) {
        i = c;
        ++misses;
        continue;
      }
      out.insert(out.end(), {a, i, c});
      next_[a] = c;
      prev_[c] = a;
      --remaining;
      i = c;
      misses = 0;
      relaxed = false;
    }
    out.insert(out.end(), {prev_[i], i, next_[i]});
    return true;
  }

 private:
  // No other remaining corner lies in the closed triangle (a, b, c), except copies of its own
  // corners (a polygon cut open to a hole repeats the corners of its bridge edge).
  bool is_ear(uint32_t a, uint32_t b, uint32_t c, bool relaxed) {
    double area = turn(p_[a], p_[b], p_[c]);
    if (area < 0 || (area == 0 && !relaxed)) return false;
    for (uint32_t r = next_[c]; r != a; r = next_[r]) {
      if (budget_ == 0) return false;
      --budget_;
      const Point& q = p_[r];
      if (q == p_[a] || q == p_[b] || q == p_[c]) continue;
      if (turn(p_[a], p_[b], q) >= 0 && turn(p_[b], p_[c], q) >= 0 && turn(p_[c], p_[a], q) >= 0)
        return false;
    }
    return true;
  }

  const std::vector<Point>& p_;
  std::vector<uint32_t> prev_, next_;
  uint64_t budget_ = 0;
};

}  // namespace

bool triangulate_polygon(std::span<const Vec3> corners, std::vector<uint32_t>& out) {
  const uint32_t n = uint32_t(corners.size());
  if (n < 3) return true;
  if (n == 3) {
    out.insert(out.end(), {0, 1, 2});
    return true;
  }
  std::vector<Point> points = projected(corners);
  if (points.empty()) {
    // No net area: either every corner lies on one line (nothing to cover, any triangles do) or
    // the outline crosses itself with lobes that cancel (a bowtie of two equal halves), which no
    // triangulation covers.
    bool flat = true;
    for (uint32_t k = 1; k + 1 < n; ++k) {
      out.insert(out.end(), {0, k, k + 1});
      Vec3 normal = cross(corners[k] - corners[0], corners[k + 1] - corners[0]);
      flat = flat && dot(normal, normal) == 0;
    }
    return flat;
  }
  if (n == 4 && convex_quad(corners, points, out)) return true;
  const size_t first = out.size();
  bool clipped = EarClipper(points).run(out);
  return clipped && covers_outline(points, std::span(out).subspan(first)) &&
         !crosses_itself(points);
}

}  // namespace baker
