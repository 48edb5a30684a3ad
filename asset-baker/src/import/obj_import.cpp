#include "import/obj_import.h"

#include "common/asset_names.h"
#include "common/source_paths.h"
#include "common/vec3.h"
#include "import/mtl_materials.h"
#include "import/obj_lines.h"
#include "import/position_table.h"
#include "import/text_encoding.h"
#include "mesh/polygon_triangulation.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

namespace baker {
namespace {

struct Triangle {
  int material;              // tinyobj material id, -1 for none
  uint32_t smoothing_group;  // 0 = flat
  tinyobj::index_t corners[3];
};

bool in_range(int index, size_t count) { return index >= 0 && size_t(index) < count; }

bool reasonable_obj_position(const tinyobj::attrib_t& attrib, int index) {
  return reasonable_position(&attrib.vertices[3 * size_t(index)]);
}

Vec3 position_of(const tinyobj::attrib_t& a, int i) {
  return {float(a.vertices[3 * size_t(i)]), float(a.vertices[3 * size_t(i) + 1]),
          float(a.vertices[3 * size_t(i) + 2])};
}

// What collect_triangles found worth one warning each, with the first face it concerns.
struct FaceNotes {
  bool dropped_attributes = false;
  size_t crossing_polygons = 0;
  std::string first_crossing;
};

void warn_face_notes(const FaceNotes& notes, const std::string& path,
                     std::vector<std::string>& warnings) {
  if (notes.dropped_attributes)
    warnings.push_back(path + ": faces reference normals or UVs the file does not have; ignored");
  if (notes.crossing_polygons > 0) {
    warnings.push_back(path + ": " + std::to_string(notes.crossing_polygons) +
                       " polygon(s) whose outline crosses itself; their triangles cannot cover it "
                       "exactly (first: " +
                       notes.first_crossing + ")");
  }
}

// Positions out of range make a face meaningless: an error. A normal or UV index pointing nowhere
// (files that reference attributes they never wrote) is dropped with one warning, and the bake
// generates normals / zero UVs as for a file without them. Polygons are cut into triangles here
// (polygon_triangulation.h).
BakeStatus collect_triangles(const tinyobj::attrib_t& attrib,
                             const std::vector<tinyobj::shape_t>& shapes,
                             const std::vector<uint32_t>& face_corners, const std::string& path,
                             std::vector<Triangle>& out, std::vector<std::string>& warnings) {
  size_t positions = attrib.vertices.size() / 3, normals = attrib.normals.size() / 3,
         uvs = attrib.texcoords.size() / 2;
  FaceNotes notes;
  std::vector<Vec3> outline;
  std::vector<uint32_t> corners;
  size_t face_in_file = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    const auto& mesh = shape.mesh;
    size_t count = 0;
    for (size_t f = 0, at = 0; f < mesh.num_face_vertices.size();
         ++f, ++face_in_file, at += count) {
      auto face_name = [&] { return "face " + std::to_string(f + 1) + " of '" + shape.name + "'"; };
      // tinyobjloader keeps a face's corner count in a byte: the prescan's count, which it must
      // agree with modulo 256, is the real one.
      if (face_in_file >= face_corners.size() ||
          face_corners[face_in_file] % 256 != mesh.num_face_vertices[f] ||
          at + face_corners[face_in_file] > mesh.indices.size()) {
        return BakeStatus::failure(BakeError::InvalidSource, path,
                                   face_name() + " does not have the corners its line lists");
      }
      count = face_corners[face_in_file];
      outline.clear();
      for (size_t k = 0; k < count; ++k) {
        const tinyobj::index_t& idx = mesh.indices[at + k];
        if (!in_range(idx.vertex_index, positions)) {
          return BakeStatus::failure(BakeError::InvalidSource, path,
                                     face_name() + " uses position " +
                                         std::to_string(idx.vertex_index + 1) + " of " +
                                         std::to_string(positions));
        }
        if (!reasonable_obj_position(attrib, idx.vertex_index)) {
          return BakeStatus::failure(BakeError::InvalidSource, path,
                                     "position " + std::to_string(idx.vertex_index + 1) +
                                         " is not finite or lies beyond +-1e18");
        }
        outline.push_back(position_of(attrib, idx.vertex_index));
      }
      corners.clear();
      if (!triangulate_polygon(outline, corners) && notes.crossing_polygons++ == 0)
        notes.first_crossing = face_name();
      Triangle t{f < mesh.material_ids.size() ? mesh.material_ids[f] : -1,
                 f < mesh.smoothing_group_ids.size() ? mesh.smoothing_group_ids[f] : 0,
                 {}};
      for (size_t c = 0; c < corners.size(); ++c) {
        tinyobj::index_t idx = mesh.indices[at + corners[c]];
        if (idx.normal_index != -1 && !in_range(idx.normal_index, normals))
          notes.dropped_attributes = true, idx.normal_index = -1;
        if (idx.texcoord_index != -1 && !in_range(idx.texcoord_index, uvs))
          notes.dropped_attributes = true, idx.texcoord_index = -1;
        t.corners[c % 3] = idx;
        if (c % 3 == 2) out.push_back(t);
      }
    }
  }
  warn_face_notes(notes, path, warnings);
  return {};
}

Vec3 normalize(const Vec3& v) { return normalized_or(v, Vec3{0, 0, 0}); }

bool lacks_normal(const Triangle& t) {
  return t.corners[0].normal_index < 0 || t.corners[1].normal_index < 0 ||
         t.corners[2].normal_index < 0;
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
GeneratedNormals generate_normals(const tinyobj::attrib_t& attrib,
                                  const std::vector<Triangle>& tris) {
  GeneratedNormals out;
  if (std::none_of(tris.begin(), tris.end(), lacks_normal)) return out;
  const bool one_group = std::all_of(tris.begin(), tris.end(),
                                     [](const Triangle& t) { return t.smoothing_group == 0; });
  PositionTable sums(attrib.vertices.size() / 3);
  out.corner_sum.assign(tris.size() * 3, GeneratedNormals::kFace);
  out.face.resize(tris.size());
  for (size_t t = 0; t < tris.size(); ++t) {
    Vec3 p[3];
    for (int k = 0; k < 3; ++k) p[k] = position_of(attrib, tris[t].corners[k].vertex_index);
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
      float angle = std::acos(std::clamp(dot(e1, e2), -1.0f, 1.0f));
      uint32_t sum = sums.find_or_add(uint32_t(tris[t].corners[k].vertex_index), group);
      if (sum == out.smooth.size()) out.smooth.push_back({0, 0, 0});
      out.corner_sum[t * 3 + size_t(k)] = sum;
      for (int c = 0; c < 3; ++c) out.smooth[sum][c] += face[c] * angle;
    }
  }
  for (Vec3& n : out.smooth) n = normalize(n);
  return out;
}

bool has_area(const tinyobj::attrib_t& attrib, const Triangle& t) {
  Vec3 p0 = position_of(attrib, t.corners[0].vertex_index),
       p1 = position_of(attrib, t.corners[1].vertex_index),
       p2 = position_of(attrib, t.corners[2].vertex_index);
  Vec3 n = cross(p1 - p0, p2 - p0);
  return dot(n, n) > 0;
}

MeshVertex make_vertex(const tinyobj::attrib_t& a, const tinyobj::index_t& idx,
                       const Vec3& fallback_normal, bool has_colors) {
  MeshVertex v{};
  Vec3 p = position_of(a, idx.vertex_index);
  std::copy(p.begin(), p.end(), v.position);
  for (int k = 0; k < 3; ++k) {
    v.normal[k] = idx.normal_index >= 0 ? float(a.normals[3 * size_t(idx.normal_index) + size_t(k)])
                                        : fallback_normal[size_t(k)];
    v.color[k] = has_colors ? float(a.colors[3 * size_t(idx.vertex_index) + size_t(k)]) : 1.0f;
  }
  if (idx.texcoord_index >= 0) {
    v.uv[0] = float(a.texcoords[2 * size_t(idx.texcoord_index)]);
    v.uv[1] =
        1.0f - float(a.texcoords[2 * size_t(idx.texcoord_index) + 1]);  // OBJ v=0 is the bottom row
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
  CornerVertices(const tinyobj::attrib_t& attrib, const GeneratedNormals& normals, bool has_colors,
                 ImportedMesh& out)
      : attrib_(attrib),
        normals_(normals),
        has_colors_(has_colors),
        out_(out),
        table_(attrib.vertices.size() / 3) {
    out.soup.reserve(attrib.vertices.size() / 3);  // one vertex per position is the usual case
  }

  void add_corner(const tinyobj::index_t& idx, size_t triangle, size_t k) {
    // A corner's normal is the file's (by index), its group's average (shared), or the face's
    // (its own vertex).
    const bool file_normal = idx.normal_index >= 0;
    if (!file_normal && !normals_.shared(triangle, k)) {
      out_.corners.push_back(new_vertex(idx, triangle, k));
      return;
    }
    // Indices and entries are below 2^31 (a file of at most kMaxSourceBytes holds fewer), so the
    // top bit tells a generated normal from the file's.
    uint32_t normal = file_normal ? uint32_t(idx.normal_index)
                                  : 0x80000000u | normals_.corner_sum[triangle * 3 + k];
    uint64_t key = uint64_t(normal) << 32 | uint32_t(idx.texcoord_index + 1);
    uint32_t entry = table_.find_or_add(uint32_t(idx.vertex_index), key);
    if (entry == vertex_of_entry_.size()) vertex_of_entry_.push_back(new_vertex(idx, triangle, k));
    out_.corners.push_back(vertex_of_entry_[entry]);
  }

 private:
  uint32_t new_vertex(const tinyobj::index_t& idx, size_t triangle, size_t k) {
    Vec3 normal = idx.normal_index >= 0 ? Vec3{0, 0, 0} : normals_.of(triangle, k);
    out_.soup.push_back(make_vertex(attrib_, idx, normal, has_colors_));
    return uint32_t(out_.soup.size() - 1);
  }

  const tinyobj::attrib_t& attrib_;
  const GeneratedNormals& normals_;
  bool has_colors_;
  ImportedMesh& out_;
  PositionTable table_;
  std::vector<uint32_t> vertex_of_entry_;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The first run of digits in `text` whose value (leading zeros aside) is over 2^31 - 1, without
// its leading zeros; empty when there is none. Byte loops: find_first_of calls memchr on its set
// for every byte, which made this check most of the prescan's time.
std::string_view index_beyond_int(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    if (!is_digit(text[i])) {
      ++i;
      continue;
    }
    while (i < text.size() && text[i] == '0') ++i;
    size_t start = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    std::string_view number = text.substr(start, i - start);
    if (number.size() > 10 || (number.size() == 10 && number > "2147483647")) return number;
  }
  return {};
}

// The runs of characters other than space and tab in `text`: what tinyobjloader reads as corners.
uint64_t count_words(std::string_view text) {
  uint64_t words = 0;
  bool in_word = false;
  for (char c : text) {
    bool blank = is_blank(c);
    words += !blank && !in_word;
    in_word = !blank;
  }
  return words;
}

// The one pass over the text before tinyobjloader, on the lines as tinyobjloader splits them (at
// '\n', '\r' or "\r\n"; a NUL ends what it reads of a line):
// - tinyobjloader parses face indices with an atoi that wraps: "f 1 2 4294967299" would become a
//   valid triangle. Indices of faces, lines and points must fit in an int.
// - the baker's ear clipping is quadratic in a face's corners: the corner limit and the
//   triangulation budget (obj_import.h). A corner is what tinyobjloader reads as one: a run of
//   characters other than space and tab. `face_corners` gets each face's count, in file order
//   (the faces of 3 or more corners: tinyobjloader drops the others), since tinyobjloader keeps
//   it in a byte.
// - it copies every `t` (subdivision tag) line read so far into each group it closes, and a tag
//   line may ask for 3 x 8192 values: quadratic and amplified memory for data the baker never
//   reads. Those lines are turned into comments (`text` is the baker's own copy).
BakeStatus prescan_obj(std::string& text, const std::string& relative_path,
                       std::vector<uint32_t>& face_corners) {
  const uint64_t budget =
      kTriangulationBudgetBase + kTriangulationBudgetPerByte * uint64_t(text.size());
  uint64_t work = 0;  // corners squared of the faces over 4 corners so far
  size_t line_number = 0;
  ObjLines lines(text);
  for (std::string_view line; lines.next(line); ++line_number) {
    size_t line_start = size_t(line.data() - text.data());
    line = line.substr(0, line.find('\0'));
    size_t at = line.find_first_not_of(" \t");
    if (at == std::string_view::npos || line.size() < at + 2 ||
        (line[at + 1] != ' ' && line[at + 1] != '\t')) {
      continue;
    }
    if (line[at] == 't') {
      text[line_start + at] = '#';
      continue;
    }
    if (line[at] != 'f' && line[at] != 'l' && line[at] != 'p') continue;
    if (std::string_view number = index_beyond_int(line.substr(at + 1)); !number.empty()) {
      return BakeStatus::failure(BakeError::LimitExceeded, relative_path,
                                 "line " + std::to_string(line_number + 1) + ": index " +
                                     std::string(number) + " is beyond 2147483647");
    }
    if (line[at] != 'f') continue;
    const uint64_t corners = count_words(line.substr(at + 1));
    if (corners > kMaxPolygonCorners) {
      return BakeStatus::failure(BakeError::LimitExceeded, relative_path,
                                 "line " + std::to_string(line_number + 1) + ": a face of " +
                                     std::to_string(corners) + " corners is over the " +
                                     std::to_string(kMaxPolygonCorners) +
                                     "-corner limit (triangulate it when exporting)");
    }
    if (corners >= 3) face_corners.push_back(uint32_t(corners));  // tinyobjloader drops the rest
    if (corners > 4) work += corners * corners;
    if (work > budget) {
      return BakeStatus::failure(
          BakeError::LimitExceeded, relative_path,
          "line " + std::to_string(line_number + 1) +
              ": the faces of more than 4 corners up to here need " + std::to_string(work) +
              " corners squared of triangulation, over the budget of " + std::to_string(budget) +
              " for a file of this size (2^24 + 64 per byte; triangulate them when exporting)");
    }
  }
  return {};
}

}  // namespace

BakeStatus import_obj(std::string_view obj_text, const std::string& relative_path,
                      const ImportInputs& inputs, ImportedMesh& out,
                      std::vector<assetlib::MaterialInfo>& material_assets,
                      std::vector<std::string>& warnings) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string utf8;
  if (BakeStatus s = utf8_text(obj_text, relative_path, utf8); !s) return s;
  std::string text = escape_mtllib_lines(std::move(utf8));
  std::vector<uint32_t> face_corners;
  if (BakeStatus s = prescan_obj(text, relative_path, face_corners); !s) return s;
  std::string warn, err;
  std::istringstream stream(std::move(text));
  MtlLibraries reader(relative_path, inputs, warnings);
  bool loaded = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &stream, &reader,
                                 /*triangulate=*/false, /*default_vcols_fallback=*/false);
  if (!loaded) {
    return BakeStatus::failure(BakeError::InvalidSource, relative_path,
                               "OBJ parse failed: " + (err.empty() ? warn : err));
  }
  std::vector<Triangle> tris;
  uint64_t triangles = 0;  // a face of n corners makes n - 2 (the prescan counted corners)
  for (uint32_t corners : face_corners) triangles += corners - 2;
  tris.reserve(size_t(triangles));
  if (BakeStatus s = collect_triangles(attrib, shapes, face_corners, relative_path, tris, warnings);
      !s)
    return s;
  if (tris.empty())
    return BakeStatus::failure(BakeError::InvalidSource, relative_path,
                               "no triangles (only points or lines?)");
  // tinyobjloader reads unparsable numbers ("nan", "inf") as 0: a mesh of only zero-area
  // triangles is such a file, or nothing a renderer could draw.
  if (std::none_of(tris.begin(), tris.end(),
                   [&](const Triangle& t) { return has_area(attrib, t); })) {
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

  bool has_colors = attrib.colors.size() == attrib.vertices.size();
  out.has_uvs = std::any_of(tris.begin(), tris.end(), [](const Triangle& t) {
    return t.corners[0].texcoord_index >= 0 || t.corners[1].texcoord_index >= 0 ||
           t.corners[2].texcoord_index >= 0;
  });
  GeneratedNormals normals = generate_normals(attrib, tris);
  CornerVertices vertices(attrib, normals, has_colors, out);
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
                                        reader.states_roughness(size_t(m)), relative_path, inputs,
                                        warnings);
        for (int k = 0; k < 3; ++k) {
          specular[k] = std::isfinite(source.specular[k])
                            ? std::clamp(float(source.specular[k]), 0.0f, 1.0f)
                            : 0.0f;
        }
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
