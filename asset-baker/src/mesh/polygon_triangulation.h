// Polygons (OBJ faces of more than three corners) into triangles.
//
// tinyobjloader 2.0.0rc10 fans every polygon of five or more corners from its first corner, and
// splits a quad along its shorter diagonal whatever its shape: a concave outline (an L, a star, a
// ring cut open by a bridge edge) came out with triangles over its holes and parts of it missing.
// The baker reads faces untriangulated and cuts them here, by ear clipping in the polygon's
// plane, so the triangles cover exactly the outline.
#pragma once

#include "common/vec3.h"

#include <cstdint>
#include <span>
#include <vector>

namespace baker {

// Point-in-triangle tests one polygon of n corners may spend: 4 n^2 (real polygons, convex or
// concave, need 0.5 to 0.9 n^2). OBJ faces are at most kMaxPolygonCorners.
inline constexpr uint64_t kTriangulationTestsPerCornerSquared = 4;

// Appends n - 2 triangles to `out`, as corner numbers 0..n-1 of `corners`, each in the polygon's
// winding (n >= 3). A convex quad is split along its shorter diagonal (as tinyobjloader did, so
// such meshes bake as before); other polygons are ear-clipped on the plane of their Newell normal,
// so a simple polygon, convex or not, is covered exactly. Returns false when the triangles do not
// cover the outline exactly: it crosses itself (no triangulation can; found by an edge-crossing
// test and by comparing the triangles' area with the outline's), or ear clipping found no
// ear or ran out of its test budget and fanned the rest. A polygon of zero area is fanned; it
// returns true when its corners lie on one line (nothing to cover), false when its outline has area
// that cancels out (a bowtie of equal lobes: it crosses itself).
bool triangulate_polygon(std::span<const Vec3> corners, std::vector<uint32_t>& out);

}  // namespace baker
