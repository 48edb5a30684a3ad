#include "obj_import.h"

#include "source_paths.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <sstream>

namespace baker {
namespace {

using assetlib::ErrorCode;
using assetlib::Status;
using assetlib::Vertex_PNCVT_F32;

// Serves `mtllib` requests through MeshInputs, so only checked paths inside the root are read,
// and remembers which folder each material came from (texture paths are relative to it).
class RootedMaterialReader : public tinyobj::MaterialReader {
 public:
  RootedMaterialReader(const std::string& obj_path, const MeshInputs& inputs, std::vector<std::string>& warnings)
      : obj_path_(obj_path), inputs_(inputs), warnings_(warnings) {}

  bool operator()(const std::string& name, std::vector<tinyobj::material_t>* materials,
                  std::map<std::string, int>* material_map, std::string* warn, std::string* err) override {
    std::string why;
    std::optional<std::string> path = resolve_reference(parent_of(obj_path_), name, &why);
    if (!path) {
      warnings_.push_back(obj_path_ + ": mtllib " + why);
      return false;
    }
    std::optional<std::string> text = inputs_.read_file ? inputs_.read_file(*path) : std::nullopt;
    if (!text) {
      warnings_.push_back(obj_path_ + ": material library '" + *path + "' not found; default material used");
      return false;
    }
    std::istringstream stream(*text);
    tinyobj::LoadMtl(material_map, materials, &stream, warn, err);
    folders_.resize(materials->size(), parent_of(*path));
    return true;
  }

  const std::string& folder_of(size_t material) const { return folders_.at(material); }

 private:
  std::string obj_path_;
  const MeshInputs& inputs_;
  std::vector<std::string>& warnings_;
  std::vector<std::string> folders_;
};

// The logical name of a texture an .mtl names, or "" (with a warning) when it is unusable.
std::string texture_reference(const std::string& folder, const std::string& name, const std::string& obj_path,
                              const MeshInputs& inputs, std::vector<std::string>& warnings) {
  if (name.empty()) return {};
  std::string why;
  std::optional<std::string> path = resolve_reference(folder, name, &why);
  if (!path) {
    warnings.push_back(obj_path + ": texture " + why);
    return {};
  }
  if (!is_utf8(*path)) {  // asset metadata is JSON, which holds only UTF-8: the name could not match
    warnings.push_back(obj_path + ": texture name '" + *path + "' is not valid UTF-8; material left untextured");
    return {};
  }
  if (!inputs.texture_exists || !inputs.texture_exists(*path)) {
    warnings.push_back(obj_path + ": texture '" + *path + "' not found; material left untextured");
    return {};
  }
  return *path;
}

assetlib::MeshMaterial convert_material(const tinyobj::material_t& m, const std::string& folder,
                                        const std::string& obj_path, const MeshInputs& inputs,
                                        std::vector<std::string>& warnings) {
  assetlib::MeshMaterial out;
  out.name = m.name;
  for (int k = 0; k < 3; ++k) {
    out.base_color[k] = std::isfinite(m.diffuse[k]) ? std::clamp(float(m.diffuse[k]), 0.0f, 1.0f) : 1.0f;
    out.specular_color[k] = std::isfinite(m.specular[k]) ? std::clamp(float(m.specular[k]), 0.0f, 1.0f) : 0.0f;
  }
  out.base_color[3] = std::isfinite(m.dissolve) ? std::clamp(float(m.dissolve), 0.0f, 1.0f) : 1.0f;
  out.base_color_texture = texture_reference(folder, m.diffuse_texname, obj_path, inputs, warnings);
  const std::string& normal = m.normal_texname.empty() ? m.bump_texname : m.normal_texname;
  out.normal_texture = texture_reference(folder, normal, obj_path, inputs, warnings);
  return out;
}

struct Triangle {
  int material;             // tinyobj material id, -1 for none
  uint32_t smoothing_group; // 0 = flat
  tinyobj::index_t corners[3];
};

bool in_range(int index, size_t count) { return index >= 0 && size_t(index) < count; }

// Bounds, normals and meshlet cones square coordinates: beyond 1e18 a float overflows, and
// meshoptimizer asserts on the infinities (found by fuzzing). No real model comes near.
constexpr float kMaxCoordinate = 1e18f;

bool reasonable_position(const tinyobj::attrib_t& attrib, int index) {
  const float* p = &attrib.vertices[3 * size_t(index)];
  return std::fabs(p[0]) <= kMaxCoordinate && std::fabs(p[1]) <= kMaxCoordinate && std::fabs(p[2]) <= kMaxCoordinate;
}

// Positions out of range make a face meaningless: an error. A normal or UV index pointing nowhere
// (files that reference attributes they never wrote) is dropped with one warning, and the bake
// generates normals / zero UVs as for a file without them.
Status collect_triangles(const tinyobj::attrib_t& attrib, const std::vector<tinyobj::shape_t>& shapes,
                         const std::string& path, std::vector<Triangle>& out, std::vector<std::string>& warnings) {
  size_t positions = attrib.vertices.size() / 3, normals = attrib.normals.size() / 3,
         uvs = attrib.texcoords.size() / 2;
  bool dropped = false;
  for (const tinyobj::shape_t& shape : shapes) {
    const auto& mesh = shape.mesh;
    size_t at = 0;
    for (size_t f = 0; f < mesh.num_face_vertices.size(); ++f) {
      size_t count = mesh.num_face_vertices[f];
      if (count != 3 || at + 3 > mesh.indices.size()) {
        return Status::error(ErrorCode::InvalidValue, path + ": face " + std::to_string(f) + " of '" +
                                                          shape.name + "' is not a triangle after triangulation");
      }
      Triangle t{f < mesh.material_ids.size() ? mesh.material_ids[f] : -1,
                 f < mesh.smoothing_group_ids.size() ? mesh.smoothing_group_ids[f] : 0, {}};
      for (int k = 0; k < 3; ++k) {
        tinyobj::index_t idx = mesh.indices[at + size_t(k)];
        if (!in_range(idx.vertex_index, positions)) {
          return Status::error(ErrorCode::InvalidValue, path + ": face " + std::to_string(f) + " of '" + shape.name +
                                                            "' uses position " + std::to_string(idx.vertex_index + 1) +
                                                            " of " + std::to_string(positions));
        }
        if (!reasonable_position(attrib, idx.vertex_index)) {
          return Status::error(ErrorCode::InvalidValue, path + ": position " + std::to_string(idx.vertex_index + 1) +
                                                            " is not finite or lies beyond +-1e18");
        }
        if (idx.normal_index != -1 && !in_range(idx.normal_index, normals)) dropped = true, idx.normal_index = -1;
        if (idx.texcoord_index != -1 && !in_range(idx.texcoord_index, uvs)) dropped = true, idx.texcoord_index = -1;
        t.corners[k] = idx;
      }
      out.push_back(t);
      at += count;
    }
  }
  if (dropped) warnings.push_back(path + ": faces reference normals or UVs the file does not have; ignored");
  return {};
}

using Vec3 = std::array<float, 3>;

Vec3 position_of(const tinyobj::attrib_t& a, int i) {
  return {float(a.vertices[3 * size_t(i)]), float(a.vertices[3 * size_t(i) + 1]), float(a.vertices[3 * size_t(i) + 2])};
}
Vec3 sub(Vec3 a, Vec3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 cross(Vec3 a, Vec3 b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }
float dot(Vec3 a, Vec3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 normalize(Vec3 v) {
  float len = std::sqrt(dot(v, v));
  return len > 1e-20f ? Vec3{v[0] / len, v[1] / len, v[2] / len} : Vec3{0, 0, 0};
}

// Normals for corners without one: the face normal for smoothing group 0, otherwise the
// angle-weighted average of the faces sharing the position within the same smoothing group.
// A file that never says `s` is smoothed as one group: scans and sculpts (most files without
// normals) are smooth surfaces, and flat shading would also triple their vertex count.
std::vector<Vec3> generated_normals(const tinyobj::attrib_t& attrib, std::vector<Triangle> tris) {
  if (std::all_of(tris.begin(), tris.end(), [](const Triangle& t) { return t.smoothing_group == 0; })) {
    for (Triangle& t : tris) t.smoothing_group = 1;
  }
  std::map<std::pair<int, uint32_t>, Vec3> smooth;  // (position, group) -> accumulated normal
  std::vector<Vec3> corner_normals(tris.size() * 3);
  for (size_t t = 0; t < tris.size(); ++t) {
    Vec3 p[3];
    for (int k = 0; k < 3; ++k) p[k] = position_of(attrib, tris[t].corners[k].vertex_index);
    Vec3 face = normalize(cross(sub(p[1], p[0]), sub(p[2], p[0])));
    for (int k = 0; k < 3; ++k) {
      corner_normals[t * 3 + size_t(k)] = face;
      if (tris[t].smoothing_group == 0) continue;
      Vec3 e1 = normalize(sub(p[(k + 1) % 3], p[k])), e2 = normalize(sub(p[(k + 2) % 3], p[k]));
      float angle = std::acos(std::clamp(dot(e1, e2), -1.0f, 1.0f));
      Vec3& acc = smooth[{tris[t].corners[k].vertex_index, tris[t].smoothing_group}];
      for (int c = 0; c < 3; ++c) acc[c] += face[c] * angle;
    }
  }
  for (size_t t = 0; t < tris.size(); ++t) {
    if (tris[t].smoothing_group == 0) continue;
    for (int k = 0; k < 3; ++k) {
      Vec3 n = normalize(smooth[{tris[t].corners[k].vertex_index, tris[t].smoothing_group}]);
      if (dot(n, n) > 0) corner_normals[t * 3 + size_t(k)] = n;
    }
  }
  return corner_normals;
}

bool has_area(const tinyobj::attrib_t& attrib, const Triangle& t) {
  Vec3 p0 = position_of(attrib, t.corners[0].vertex_index), p1 = position_of(attrib, t.corners[1].vertex_index),
       p2 = position_of(attrib, t.corners[2].vertex_index);
  Vec3 n = cross(sub(p1, p0), sub(p2, p0));
  return dot(n, n) > 0;
}

Vertex_PNCVT_F32 make_vertex(const tinyobj::attrib_t& a, const tinyobj::index_t& idx, const Vec3& fallback_normal,
                            bool has_colors) {
  Vertex_PNCVT_F32 v{};
  Vec3 p = position_of(a, idx.vertex_index);
  std::copy(p.begin(), p.end(), v.position);
  for (int k = 0; k < 3; ++k) {
    v.normal[k] = idx.normal_index >= 0 ? float(a.normals[3 * size_t(idx.normal_index) + size_t(k)]) : fallback_normal[size_t(k)];
    v.color[k] = has_colors ? float(a.colors[3 * size_t(idx.vertex_index) + size_t(k)]) : 1.0f;
  }
  if (idx.texcoord_index >= 0) {
    v.uv[0] = float(a.texcoords[2 * size_t(idx.texcoord_index)]);
    v.uv[1] = 1.0f - float(a.texcoords[2 * size_t(idx.texcoord_index) + 1]);  // OBJ v=0 is the bottom row
  }
  return v;
}

// tinyobjloader parses face indices with an atoi that wraps: "f 1 2 4294967299" would become a
// valid triangle. Indices of faces, lines and points must fit in an int: checked on the text first.
Status check_index_widths(std::string_view text, const std::string& relative_path) {
  size_t line_number = 0;
  for (size_t start = 0; start < text.size(); ++line_number) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    size_t at = line.find_first_not_of(" \t");
    if (at == std::string_view::npos || line.size() < at + 2 || std::string_view("flp").find(line[at]) == std::string_view::npos ||
        (line[at + 1] != ' ' && line[at + 1] != '\t')) {
      continue;
    }
    for (size_t i = at + 1; i < line.size();) {
      size_t digits = line.find_first_of("0123456789", i);
      if (digits == std::string_view::npos) break;
      size_t stop = std::min(line.find_first_not_of("0123456789", digits), line.size());
      std::string_view number = line.substr(digits, stop - digits);
      number.remove_prefix(std::min(number.find_first_not_of('0'), number.size()));
      if (number.size() > 10 || (number.size() == 10 && number > "2147483647")) {
        return Status::error(ErrorCode::InvalidValue, relative_path + ": line " + std::to_string(line_number + 1) +
                                                          ": index " + std::string(number) + " is beyond 2147483647");
      }
      i = stop;
    }
  }
  return {};
}

}  // namespace

Status import_obj(std::string_view obj_text, const std::string& relative_path, const MeshInputs& inputs,
                  ImportedMesh& out, std::vector<std::string>& warnings) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  if (Status s = check_index_widths(obj_text, relative_path); !s) return s;
  std::string warn, err;
  std::istringstream stream{std::string(obj_text)};
  RootedMaterialReader reader(relative_path, inputs, warnings);
  bool loaded = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &stream, &reader, true, false);
  if (!loaded) {
    return Status::error(ErrorCode::InvalidValue, relative_path + ": OBJ parse failed: " + (err.empty() ? warn : err));
  }
  std::vector<Triangle> tris;
  if (Status s = collect_triangles(attrib, shapes, relative_path, tris, warnings); !s) return s;
  if (tris.empty()) return Status::error(ErrorCode::InvalidValue, relative_path + ": no triangles (only points or lines?)");
  // tinyobjloader reads unparsable numbers ("nan", "inf") as 0: a mesh of only zero-area
  // triangles is such a file, or nothing a renderer could draw.
  if (std::none_of(tris.begin(), tris.end(), [&](const Triangle& t) { return has_area(attrib, t); })) {
    return Status::error(ErrorCode::InvalidValue, relative_path + ": every triangle has zero area (unreadable coordinates?)");
  }

  // Faces without a material (-1) draw with a default material placed after the file's own.
  const int default_material = int(materials.size());
  for (Triangle& t : tris) {
    if (t.material < 0 || t.material >= default_material) t.material = default_material;
  }
  std::stable_sort(tris.begin(), tris.end(), [](const Triangle& a, const Triangle& b) { return a.material < b.material; });

  bool has_colors = attrib.colors.size() == attrib.vertices.size();
  out.has_uvs = std::any_of(tris.begin(), tris.end(), [](const Triangle& t) {
    return t.corners[0].texcoord_index >= 0 || t.corners[1].texcoord_index >= 0 || t.corners[2].texcoord_index >= 0;
  });
  std::vector<Vec3> normals = generated_normals(attrib, tris);
  std::vector<int> material_slot(size_t(default_material) + 1, -1);
  for (size_t t = 0; t < tris.size(); ++t) {
    int m = tris[t].material;
    if (material_slot[size_t(m)] < 0) {
      material_slot[size_t(m)] = int(out.materials.size());
      if (m == default_material) {
        out.materials.emplace_back().name = "default";
      } else {
        out.materials.push_back(convert_material(materials[size_t(m)], reader.folder_of(size_t(m)), relative_path,
                                                 inputs, warnings));
      }
      out.submeshes.push_back({uint32_t(t * 3), 0, uint32_t(material_slot[size_t(m)])});
    }
    out.submeshes.back().index_count += 3;
    for (int k = 0; k < 3; ++k) {
      out.soup.push_back(make_vertex(attrib, tris[t].corners[k], normals[t * 3 + size_t(k)], has_colors));
    }
  }
  return {};
}

}  // namespace baker
