#include "import/obj_import.h"

#include "common/asset_names.h"
#include "common/source_paths.h"
#include "common/vec3.h"
#include "import/mtl_materials.h"
#include "import/position_table.h"
#include "import/text_encoding.h"
#include "mesh/polygon_triangulation.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace baker {
namespace {

struct Triangle {
  int material;              // index into the materials, -1 for none
  uint32_t smoothing_group;  // 0 = flat
  ObjCorner corners[3];
};

bool in_range(int index, size_t count) { return index >= 0 && size_t(index) < count; }

// Whether a `vn` can give a direction: some length, and finite.
bool has_length(const float* n) {
  return std::isfinite(n[0]) && std::isfinite(n[1]) && std::isfinite(n[2]) &&
         (n[0] != 0 || n[1] != 0 || n[2] != 0);
}

Vec3 position_of(const ObjGeometry& g, int i) {
  const float* p = &g.positions[3 * size_t(i)];
  return {p[0], p[1], p[2]};
}

// What collect_triangles found worth one warning each, with the first face it concerns.
struct FaceNotes {
  bool dropped_attributes = false;
  size_t zero_normals = 0;  // corners whose `vn` has no length (or is not finite)
  size_t crossing_polygons = 0;
  std::string first_crossing;
};

void warn_face_notes(const FaceNotes& notes, const std::string& path,
                     std::vector<std::string>& warnings) {
  if (notes.dropped_attributes)
    warnings.push_back(path + ": faces reference normals or UVs the file does not have; ignored");
  if (notes.zero_normals > 0) {
    warnings.push_back(path + ": " + std::to_string(notes.zero_normals) +
                       " corner(s) use a normal of no length (or not finite); they get generated "
                       "normals");
  }
  if (notes.crossing_polygons > 0) {
    warnings.push_back(path + ": " + std::to_string(notes.crossing_polygons) +
                       " polygon(s) whose outline crosses itself; their triangles cannot cover it "
                       "exactly (first: " +
                       notes.first_crossing + ")");
  }
}

// What the file holds beside its faces that the mesh does not carry.
void warn_unbaked_elements(const ObjGeometry& g, const std::string& path,
                           std::vector<std::string>& warnings) {
  auto counted = [&](size_t count, const std::string& what) {
    if (count > 0) warnings.push_back(path + ": " + std::to_string(count) + what);
  };
  counted(g.short_lines,
          " `v` or `vn` line(s) of fewer than 3 coordinates: the missing ones read as 0");
  counted(g.unreadable_numbers,
          " coordinate(s) are not numbers (nan, inf or text) and were read as 0");
  if (g.cut_numbers > 0) {
    warnings.push_back(path + ": " + std::to_string(g.cut_numbers) +
                       " coordinate(s) go on after their number (first: '" + g.first_cut_number +
                       "'; a decimal comma?) and were read up to where the number ends");
  }
  counted(g.lines_and_points,
          " line and point element(s) (`l`, `p`) are not baked; only faces are");
  if (g.dropped_colors > 0) {
    warnings.push_back(path + ": vertex colours dropped: " + std::to_string(g.dropped_colors) +
                       " of " + std::to_string(g.positions.size() / 3) +
                       " `v` lines have one, and they are kept only when every one has");
  }
  counted(size_t(std::count_if(g.colors.begin(), g.colors.end(),
                               [](float c) { return !(c >= 0 && c <= 1); })),
          " vertex colour component(s) outside 0..1 clamped (colours written as 0..255?)");
  counted(g.short_faces, " face(s) of fewer than 3 corners are not baked");
  counted(g.free_form,
          " free-form curve and surface element(s) (`curv`, `curv2`, `surf`) are not baked; only "
          "faces are (export them as polygons)");
  if (g.unknown_statements > 0) {
    warnings.push_back(path + ": " + std::to_string(g.unknown_statements) +
                       " line(s) of a statement OBJ does not define skipped (first: line " +
                       std::to_string(g.first_unknown_line) + ", '" + g.first_unknown_statement +
                       "')");
  }
  if (!g.unknown_materials.empty()) {
    warnings.push_back(path + ": usemtl names " + std::to_string(g.unknown_materials.size()) +
                       " material(s) no material library defines (first: '" +
                       g.unknown_materials[0] + "'); their faces get the default material");
  }
}

// Positions out of range make a face meaningless: an error. A normal or UV index pointing nowhere
// (files that reference attributes they never wrote) is dropped with one warning, and the bake
// generates normals / zero UVs as for a file without them. Polygons are cut into triangles here
// (polygon_triangulation.h); a triangle is its own.
BakeStatus collect_triangles(const ObjGeometry& g, const std::string& path,
                             std::vector<Triangle>& out, std::vector<std::string>& warnings) {
  const size_t positions = g.positions.size() / 3, normals = g.normals.size() / 3,
               uvs = g.uvs.size() / 2;
  FaceNotes notes;
  std::vector<Vec3> outline;
  std::vector<uint32_t> corners;
  for (const ObjFace& face : g.faces) {
    auto face_name = [&] {
      return "face " + std::to_string(face.number) + " of '" + g.group_names[face.group] + "'";
    };
    const ObjCorner* first = &g.corners[face.first_corner];
    for (size_t k = 0; k < face.corner_count; ++k) {
      const int p = first[k].position;
      if (!in_range(p, positions)) {
        return BakeStatus::failure(BakeError::InvalidSource, path,
                                   face_name() + " uses position " + std::to_string(p + 1) +
                                       " of " + std::to_string(positions));
      }
      if (!reasonable_position(&g.positions[3 * size_t(p)])) {
        return BakeStatus::failure(
            BakeError::InvalidSource, path,
            "position " + std::to_string(p + 1) + " is not finite or lies beyond +-1e18");
      }
    }
    corners.clear();
    if (face.corner_count == 3) {
      corners = {0, 1, 2};
    } else {
      outline.clear();
      for (size_t k = 0; k < face.corner_count; ++k)
        outline.push_back(position_of(g, first[k].position));
      if (!triangulate_polygon(outline, corners) && notes.crossing_polygons++ == 0)
        notes.first_crossing = face_name();
    }
    Triangle t{face.material, face.smoothing_group, {}};
    for (size_t c = 0; c < corners.size(); ++c) {
      ObjCorner idx = first[corners[c]];
      if (idx.normal != -1 && !in_range(idx.normal, normals))
        notes.dropped_attributes = true, idx.normal = -1;
      if (idx.normal != -1 && !has_length(&g.normals[3 * size_t(idx.normal)]))
        ++notes.zero_normals, idx.normal = -1;
      if (idx.uv != -1 && !in_range(idx.uv, uvs)) notes.dropped_attributes = true, idx.uv = -1;
      t.corners[c % 3] = idx;
      if (c % 3 == 2) out.push_back(t);
    }
  }
  warn_face_notes(notes, path, warnings);
  return {};
}

Vec3 normalize(const Vec3& v) { return normalized_or(v, Vec3{0, 0, 0}); }

bool lacks_normal(const Triangle& t) {
  return t.corners[0].normal < 0 || t.corners[1].normal < 0 || t.corners[2].normal < 0;
}

// The normals generate_normals makes for corners the file gives none.
struct GeneratedNormals {
  static constexpr uint32_t kFace = ~0u;
  std::vector<Vec3> smooth;          // per (position, smoothing group): unit, or zero
  std::vector<uint32_t> corner_sum;  // per corner: its entry of `smooth`, or kFace
  std::vector<Vec3> face;            // per triangle: its unit normal, or zero

  // The normal of corner k of triangle t: its group's average, else the face's.
  Vec3 of(size_t t, size_t k) const {
    uint32_t sum = corner_sum[t * 3 + k];
    return sum != kFace && dot(smooth[sum], smooth[sum]) > 0 ? smooth[sum] : face[t];
  }
  // Whether that normal is shared by every corner of the same position and group (not the face's).
  bool shared(size_t t, size_t k) const {
    uint32_t sum = corner_sum[t * 3 + k];
    return sum != kFace && dot(smooth[sum], smooth[sum]) > 0;
  }
};

// Normals for corners without one: the face normal for smoothing group 0, otherwise the
// angle-weighted average of the faces sharing the position within the same smoothing group.
// A file that never says `s` is smoothed as one group: scans and sculpts (most files without
// normals) are smooth surfaces, and flat shading would also triple their vertex count.
// Empty when every corner has its own normal. Linear (PositionTable; a std::map keyed by position
// and group made this a fifth of an OBJ bake).
GeneratedNormals generate_normals(const ObjGeometry& g, const std::vector<Triangle>& tris) {
  GeneratedNormals out;
  if (std::none_of(tris.begin(), tris.end(), lacks_normal)) return out;
  const bool one_group = !g.smoothing_stated;
  PositionTable sums(g.positions.size() / 3);
  out.corner_sum.assign(tris.size() * 3, GeneratedNormals::kFace);
  out.face.resize(tris.size());
  for (size_t t = 0; t < tris.size(); ++t) {
    Vec3 p[3];
    for (int k = 0; k < 3; ++k) p[k] = position_of(g, tris[t].corners[k].position);
    Vec3 face = out.face[t] = normalize(cross(p[1] - p[0], p[2] - p[0]));
    const uint32_t group = one_group ? 1u : tris[t].smoothing_group;
    if (group == 0) continue;
    // edge[k] runs from corner k to the next; corner k's angle lies between edge[k] and the
    // reverse of the previous edge (negating a normalised vector is exact: the same bits as
    // normalising the reversed edge).
    Vec3 edge[3];
    for (int k = 0; k < 3; ++k) edge[k] = normalize(p[(k + 1) % 3] - p[k]);
    for (int k = 0; k < 3; ++k) {
      const Vec3& e1 = edge[k];
      const Vec3 e2 = edge[(k + 2) % 3] * -1.0f;
      float angle = corner_angle_of(dot(e1, e2));
      uint32_t sum = sums.find_or_add(uint32_t(tris[t].corners[k].position), group);
      if (sum == out.smooth.size()) out.smooth.push_back({0, 0, 0});
      out.corner_sum[t * 3 + size_t(k)] = sum;
      for (int c = 0; c < 3; ++c) out.smooth[sum][c] += face[c] * angle;
    }
  }
  for (Vec3& n : out.smooth) n = normalize(n);
  return out;
}

bool has_area(const ObjGeometry& g, const Triangle& t) {
  Vec3 p0 = position_of(g, t.corners[0].position), p1 = position_of(g, t.corners[1].position),
       p2 = position_of(g, t.corners[2].position);
  Vec3 n = cross(p1 - p0, p2 - p0);
  return dot(n, n) > 0;
}

MeshVertex make_vertex(const ObjGeometry& g, const ObjCorner& idx, const Vec3& fallback_normal,
                       bool has_colors) {
  MeshVertex v{};
  Vec3 p = position_of(g, idx.position);
  std::copy(p.begin(), p.end(), v.position);
  Vec3 n =
      idx.normal >= 0 ? unit_normal(to_vec3(&g.normals[3 * size_t(idx.normal)])) : fallback_normal;
  std::copy(n.begin(), n.end(), v.normal);
  for (int k = 0; k < 3; ++k)
    v.color[k] =
        has_colors ? std::clamp(g.colors[3 * size_t(idx.position) + size_t(k)], 0.0f, 1.0f) : 1.0f;
  if (idx.uv >= 0) {
    v.uv[0] = g.uvs[2 * size_t(idx.uv)];
    v.uv[1] = 1.0f - g.uvs[2 * size_t(idx.uv) + 1];  // OBJ v=0 is the bottom row
  }
  return v;
}

// Builds the indexed mesh: a vertex per distinct (position, UV, normal) the corners refer to,
// in order of first use, and each corner's vertex. The mesh stages then merge equal vertex values
// (bake_mesh.h) exactly as they would over one vertex per corner, without building, hashing and
// comparing one 68-byte vertex per corner (meshopt_generateVertexRemap over that soup took a tenth
// of an OBJ bake).
class CornerVertices {
 public:
  CornerVertices(const ObjGeometry& geometry, const GeneratedNormals& normals, bool has_colors,
                 ImportedMesh& out)
      : geometry_(geometry),
        normals_(normals),
        has_colors_(has_colors),
        out_(out),
        table_(geometry.positions.size() / 3) {
    out.soup.reserve(geometry.positions.size() / 3);  // one vertex per position is the usual case
  }

  void add_corner(const ObjCorner& idx, size_t triangle, size_t k) {
    // A corner's normal is the file's (by index), its group's average (shared), or the face's
    // (its own vertex).
    const bool file_normal = idx.normal >= 0;
    if (!file_normal && !normals_.shared(triangle, k)) {
      out_.corners.push_back(new_vertex(idx, triangle, k));
      return;
    }
    // Indices and entries are below 2^31 (a file of at most kMaxSourceBytes holds fewer), so the
    // top bit tells a generated normal from the file's.
    uint32_t normal =
        file_normal ? uint32_t(idx.normal) : 0x80000000u | normals_.corner_sum[triangle * 3 + k];
    uint64_t key = uint64_t(normal) << 32 | uint32_t(idx.uv + 1);
    uint32_t entry = table_.find_or_add(uint32_t(idx.position), key);
    if (entry == vertex_of_entry_.size()) vertex_of_entry_.push_back(new_vertex(idx, triangle, k));
    out_.corners.push_back(vertex_of_entry_[entry]);
  }

 private:
  uint32_t new_vertex(const ObjCorner& idx, size_t triangle, size_t k) {
    Vec3 normal = idx.normal >= 0 ? Vec3{0, 0, 0} : normals_.of(triangle, k);
    out_.soup.push_back(make_vertex(geometry_, idx, normal, has_colors_));
    return uint32_t(out_.soup.size() - 1);
  }

  const ObjGeometry& geometry_;
  const GeneratedNormals& normals_;
  bool has_colors_;
  ImportedMesh& out_;
  PositionTable table_;
  std::vector<uint32_t> vertex_of_entry_;
};

}  // namespace

BakeStatus import_obj(std::string_view obj_text, const std::string& relative_path,
                      const ImportInputs& inputs, ImportedMesh& out,
                      std::vector<assetlib::MaterialInfo>& material_assets,
                      std::vector<std::string>& warnings) {
  std::string converted;  // only for UTF-16: UTF-8 text is read where it lies
  std::string_view text;
  if (BakeStatus s = utf8_view(obj_text, relative_path, converted, text); !s) return s;
  ObjGeometry geometry;
  std::vector<tinyobj::material_t> materials;
  MtlLibraries reader(relative_path, inputs, warnings);
  if (BakeStatus s = parse_obj(text, relative_path, reader, materials, geometry); !s) return s;
  converted = {};
  std::vector<Triangle> tris;
  uint64_t triangles = 0;  // a face of n corners makes n - 2
  for (const ObjFace& face : geometry.faces) triangles += face.corner_count - 2;
  tris.reserve(size_t(triangles));
  if (BakeStatus s = collect_triangles(geometry, relative_path, tris, warnings); !s) return s;
  if (tris.empty())
    return BakeStatus::failure(BakeError::InvalidSource, relative_path,
                               geometry.free_form > 0
                                   ? "no triangles: its " + std::to_string(geometry.free_form) +
                                         " free-form curves and surfaces (`curv`, `curv2`, `surf`) "
                                         "are not baked (export them as polygons)"
                                   : std::string("no triangles (only points or lines?)"));
  warn_unbaked_elements(geometry, relative_path, warnings);
  // Unparsable numbers ("nan", "inf") read as 0: a mesh of only zero-area triangles is such a
  // file, or nothing a renderer could draw.
  if (std::none_of(tris.begin(), tris.end(),
                   [&](const Triangle& t) { return has_area(geometry, t); })) {
    return BakeStatus::failure(BakeError::InvalidSource, relative_path,
                               "every triangle has zero area (unreadable coordinates?)");
  }

  // Faces without a material (-1) draw with a default material placed after the file's own.
  const int default_material = int(materials.size());
  for (Triangle& t : tris) {
    if (t.material < 0 || t.material >= default_material) t.material = default_material;
  }
  auto by_material = [](const Triangle& a, const Triangle& b) { return a.material < b.material; };
  if (!std::is_sorted(tris.begin(), tris.end(), by_material))  // one material: nothing to move
    std::stable_sort(tris.begin(), tris.end(), by_material);

  bool has_colors = geometry.colors.size() == geometry.positions.size();
  out.has_uvs = std::any_of(tris.begin(), tris.end(), [](const Triangle& t) {
    return t.corners[0].uv >= 0 || t.corners[1].uv >= 0 || t.corners[2].uv >= 0;
  });
  GeneratedNormals normals = generate_normals(geometry, tris);
  CornerVertices vertices(geometry, normals, has_colors, out);
  out.corners.reserve(tris.size() * 3);
  std::vector<int> material_slot(size_t(default_material) + 1, -1);
  for (size_t t = 0; t < tris.size(); ++t) {
    int m = tris[t].material;
    if (material_slot[size_t(m)] < 0) {
      size_t slot = material_assets.size();
      material_slot[size_t(m)] = int(slot);
      assetlib::MaterialInfo& material = material_assets.emplace_back();
      float specular[3] = {0, 0, 0};
      if (m == default_material) {
        material.name = "default";
        material.original_file = relative_path;
        material.roughness_factor = std::sqrt(2.0f / 3.0f);  // tinyobjloader's default Ns of 1
        material.metallic_factor = 0;
      } else {
        const tinyobj::material_t& source = materials[size_t(m)];
        material = convert_mtl_material(source, reader.folder_of(size_t(m)),
                                        reader.stated(size_t(m)), relative_path, inputs, warnings);
        mtl_specular_colour(source, reader.stated(size_t(m)), specular);
      }
      assetlib::MeshMaterial& summary = out.materials.emplace_back(
          material_summary(material, part_name(relative_path, PartKind::Material, slot)));
      std::copy(specular, specular + 3, summary.specular_color);
      out.submeshes.push_back({uint32_t(t * 3), 0, uint32_t(slot)});
    }
    out.submeshes.back().index_count += 3;
    for (size_t k = 0; k < 3; ++k) vertices.add_corner(tris[t].corners[k], t, k);
  }
  return {};
}

}  // namespace baker
