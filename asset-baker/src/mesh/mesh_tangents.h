// Per-vertex tangent frames for normal mapping, from positions, normals and UVs, following the
// rules of MikkTSpace: what glTF requires of generated tangents and what Blender, Substance and
// xNormal bake normal maps against, so that a map baked there lights correctly here.
#pragma once

#include "common/imported_mesh.h"

#include <vector>

namespace baker {

// Sets the tangent of every corner of an indexed mesh: corner i is vertices[corners[i]] (3 corners
// per triangle), or vertices[i] when `corners` is empty (a soup, which stays one). A corner whose
// vertex has keep[v] (when `keep` is not empty) keeps that vertex's tangent; it still counts in
// its group's frame.
//
// As MikkTSpace does: each triangle's UV-aligned tangent direction, projected into the plane of
// each corner's normal, is summed weighted by the corner's angle over the corners that share a
// position, normal and UV *and* the triangle's UV orientation; w is chosen so that
// w * cross(normal, tangent) points where v decreases (up in the image: glTF's convention, the +Y
// of an OpenGL-style normal map), so it is -1 on one side of a UV mirror and +1 on the other.
// Corners on a mirror seam therefore get two frames: the vertex is split, the copy appended to
// `vertices` and those corners renumbered to it. A
// triangle whose UVs have no area takes the frame of its corners' group (the orientation-preserving
// one first); a corner with no frame at all gets any unit tangent perpendicular to its normal, w =
// +1.
//
// Not reproduced: MikkTSpace also splits a group whose triangles around the vertex are not
// connected by edges; an indexed corner position shared by unconnected fans of one orientation is
// rare outside degenerate meshes, and the frames then differ only in how the fans are averaged.
//
// `uv_set` is the UV set the normal maps sample (0: `uv`, 1: `uv1`): tangents follow it.
// Linear time: each vertex's group key is hashed once per orientation, not once per corner.
void generate_tangents(std::vector<MeshVertex>& vertices, std::vector<uint32_t>& corners,
                       const std::vector<bool>& keep, uint32_t uv_set = 0);

// The same for a triangle soup (3 vertices per triangle).
inline void generate_tangents(std::vector<MeshVertex>& soup, uint32_t uv_set = 0) {
  std::vector<uint32_t> corners;
  generate_tangents(soup, corners, {}, uv_set);
}

}  // namespace baker
