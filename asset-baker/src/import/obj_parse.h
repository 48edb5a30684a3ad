// Reading the geometry of OBJ text in one pass: positions, colours, normals, UVs and faces with
// their material and smoothing group. It reads what tinyobjloader's LoadObj reads, with the same
// numbers (its float parser, its atoi-based indices, its quirks), so a file bakes to the same
// bytes; what LoadObj spent on a face (a vector per face, copied twice, and a line copied byte by
// byte through a stream) was a third of an OBJ bake. Material libraries are still read by
// tinyobjloader's LoadMtl (mtl_materials.h).
#pragma once

#include "common/bake_status.h"

#include <tiny_obj_loader.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace baker {

class MtlLibraries;

// One corner of a face: 0-based indices into the position, UV and normal arrays as the file gives
// them (relative indices resolved; not checked against the arrays: the importer does that). -1 for
// no UV / no normal.
// A relative index that reaches before the first element (-2 with one normal) reads as
// kBeforeFirst: out of range like it, never taken for "none".
inline constexpr int kBeforeFirst = -2;

struct ObjCorner {
  int position = -1;
  int uv = -1;
  int normal = -1;
};

// A face of 3 or more corners (faces of fewer are dropped, as LoadObj drops them).
struct ObjFace {
  uint32_t first_corner = 0;
  uint32_t corner_count = 0;
  int material = -1;             // index into the materials, -1 for none
  uint32_t smoothing_group = 0;  // 0 = flat
  uint32_t group = 0;            // index into ObjGeometry::group_names
  uint32_t number = 1;           // 1-based, within its group (error messages)
};

struct ObjGeometry {
  std::vector<float> positions;  // xyz
  std::vector<float> colors;     // rgb per position, or empty unless every `v` line has one
  size_t dropped_colors = 0;     // `v` lines with a colour, when not every one has (then dropped)
  std::vector<float> normals;    // xyz
  std::vector<float> uvs;        // uv
  std::vector<ObjCorner> corners;
  std::vector<ObjFace> faces;
  // The `g` / `o` name each run of faces was read under ("" before the first), for messages.
  std::vector<std::string> group_names;
  // What the file says that the faces do not carry, for warnings: `l` and `p` elements (read and
  // checked, not kept), and the names `usemtl` gave faces that no material library of the file
  // defines, in order of first use (those faces have no material).
  size_t lines_and_points = 0;
  bool smoothing_stated = false;  // an `s` line with a value: group 0 then means flat
  size_t short_faces = 0;         // `f` lines of one or two corners
  // Free-form elements (`curv`, `curv2`, `surf`: NURBS and Bezier curves and patches), not read.
  size_t free_form = 0;
  std::vector<std::string> unknown_materials;
  // Lines of a statement OBJ does not define ("fo", "F", "f1 2 3"), skipped; the first one's
  // keyword (its first 32 bytes) and line number.
  size_t unknown_statements = 0;
  std::string first_unknown_statement;
  size_t first_unknown_line = 0;
  // Coordinates of `v`, `vn` and `vt` lines that are not numbers ("nan", "inf", text): read as 0.
  size_t unreadable_numbers = 0;
  // `v` and `vn` lines of fewer than 3 coordinates ("v 0 0"): the missing ones read as 0.
  size_t short_lines = 0;
  // Coordinates with more after their number ("1,5", "0x1p-1"): read up to it. The first one, as
  // written (its first 32 bytes).
  size_t cut_numbers = 0;
  std::string first_cut_number;
};

// Budgets on the OBJ text, checked as each face is read (docs/robustness.md, "Baker"). The baker
// triangulates a face of n corners by ear clipping (polygon_triangulation.h), quadratic in n
// (tinyobjloader's own triangulation took 23 s on one face of 40000 corners): a face may have at
// most kMaxPolygonCorners corners, and the faces of more than 4 corners (triangles and quads cost a
// constant) at most kTriangulationBudgetBase + kTriangulationBudgetPerByte x the file's size in
// corners squared, all faces together. Real n-gons (cylinder caps, glyph outlines, floor plans) are
// far below both.
inline constexpr size_t kMaxPolygonCorners = 1024;
inline constexpr uint64_t kTriangulationBudgetBase = uint64_t(1) << 24;
inline constexpr uint64_t kTriangulationBudgetPerByte = 64;

// Parses `text` (UTF-8: text_encoding.h) into `out`. Lines end at '\n', '\r' or "\r\n"; one whose
// last character is '\' goes on in the next (but for `mtllib`); a NUL ends what is read of a line,
// a '#' what is read of a face, line or point. Each `mtllib` line asks `libraries` for the rest of
// the line (spaces included), appending to `materials`, once per name that loaded; `usemtl` picks
// by name among them (a name defined only by a later `mtllib` too: tinyobjloader gave those faces
// none). `t` (subdivision tags), curves and surfaces are skipped; `l` and `p` are checked, not
// kept. Errors (LimitExceeded, InvalidSource) name `relative_path` and the line: an index of 0 or a
// digit run beyond 2^31 - 1 in a face, line or point; a face over the corner limit or the
// triangulation budget; a `vw` skin weight with a negative joint. Time and memory are linear in the
// text's size.
BakeStatus parse_obj(std::string_view text, const std::string& relative_path,
                     MtlLibraries& libraries, std::vector<tinyobj::material_t>& materials,
                     ObjGeometry& out);

}  // namespace baker
