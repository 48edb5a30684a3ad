#include "import/gltf_meshes.h"

#include "common/vec3.h"
#include "import/gltf_draco.h"
#include "import/gltf_materials.h"
#include "import/gltf_morph.h"
#include "import/gltf_vertex_skin.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace baker {
namespace {

const char* const kReadAttributes[] = {"POSITION",   "NORMAL",     "TANGENT",
                                       "TEXCOORD_0", "TEXCOORD_1", "COLOR_0"};

// The vertex attributes of one primitive, as floats.
struct PrimitiveData {
  uint32_t vertex_count = 0;
  VertexAttributes attributes;
  std::vector<uint32_t> indices;  // as stored, before the mode is applied
  bool skin_attributes = false;   // JOINTS_n / WEIGHTS_n, read or not
};

// Whether glTF allows an attribute of this name to have `components` values per element (glTF
// 2.0, 3.7.2.1). Checked on every source of values, the accessor or its Draco-decoded stand-in.
bool allows_components(const std::string& name, uint32_t components) {
  if (name == "POSITION" || name == "NORMAL") return components == 3;
  if (name == "TANGENT") return components == 4;
  if (name == "COLOR_0") return components == 3 || components == 4;
  if (is_skin_attribute(name)) return components == 4;
  return components == 2;  // TEXCOORD_n
}

// COLOR_0 holds floats, or normalized unsigned bytes or shorts (glTF 2.0, 3.7.2.1): plain integers
// (0..255 read as colours up to 255) are refused. Floats outside 0..1 are clamped, as every vertex
// format stores them, counted for one warning.
void check_color(GltfData& data, std::shared_ptr<const AccessorValues>& values,
                 const std::string& path, GltfMeshNotes& notes) {
  if (!float_or_normalized_unsigned(*values)) {
    throw GltfError(path,
                    "COLOR_0 must be floats or normalized unsigned bytes or shorts, not "
                    "componentType " +
                        std::to_string(values->component_type) +
                        (values->normalized ? " (normalized)" : ""));
  }
  auto in_range = [](float f) { return f >= 0.0f && f <= 1.0f; };
  if (std::all_of(values->values.begin(), values->values.end(), in_range)) return;
  for (float& f : copy_to_change(data, values, path).values) {
    if (in_range(f)) continue;
    f = std::clamp(f, 0.0f, 1.0f);
    ++notes.clamped_colors;
  }
}

PrimitiveData read_primitive(GltfData& data, const Json& p, const std::string& path, bool skinned,
                             const std::vector<float>& morph_weights, GltfMeshNotes& notes) {
  const Json& doc = data.document().json;
  PrimitiveData out;
  std::string ap = json_path(path, "attributes");
  const Json& attributes = object_or_empty(p, path, "attributes");
  const Json& draco = object_or_empty(object_or_empty(p, path, "extensions"),
                                      json_path(path, "extensions"), "KHR_draco_mesh_compression");
  DracoPrimitive decoded;
  if (!draco.empty()) decoded = decode_draco(data, p, draco, path);
  for (auto it = attributes.begin(); it != attributes.end(); ++it) {
    const std::string& name = it.key();
    bool skin_attribute = is_skin_attribute(name);
    out.skin_attributes = out.skin_attributes || skin_attribute;
    if (skin_attribute ? !skinned
                       : std::find(std::begin(kReadAttributes), std::end(kReadAttributes), name) ==
                             std::end(kReadAttributes)) {
      if (!skin_attribute) notes.ignored_attributes.insert(name);
      continue;
    }
    std::string path_of = json_path(ap, name);
    uint32_t accessor = index_value(it.value(), path_of, array_size(doc, "accessors"), "accessor");
    auto from_draco = decoded.attributes.find(name);
    std::shared_ptr<const AccessorValues> values =
        from_draco != decoded.attributes.end()
            ? std::make_shared<const AccessorValues>(std::move(from_draco->second))
            : data.shared_floats(accessor, path_of, {"VEC2", "VEC3", "VEC4"});
    if (!allows_components(name, values->components)) {
      std::string where = json_path("accessors", accessor);
      throw GltfError(path_of, "accessor " + std::to_string(accessor) + " of type '" +
                                   string_or(doc["accessors"][accessor], where, "type", "") +
                                   "' cannot hold it");
    }
    if (skin_attribute) check_skin_component_type(name, *values, path_of);
    if (name == "COLOR_0") check_color(data, values, path_of, notes);
    out.attributes[name] = std::move(values);
  }
  // glTF 2.0, 3.7.2.1: without normals (flat ones are made), the tangents MUST be ignored.
  if (!out.attributes.count("NORMAL")) out.attributes.erase("TANGENT");
  auto position = out.attributes.find("POSITION");
  if (position == out.attributes.end()) throw GltfError(ap, "has no POSITION");
  out.vertex_count = position->second->count;
  for (const auto& [name, values] : out.attributes) {
    if (values->count != out.vertex_count) {
      throw GltfError(json_path(ap, name), "has " + std::to_string(values->count) +
                                               " elements, POSITION " +
                                               std::to_string(out.vertex_count));
    }
  }
  // The scans below and append_primitive's map of its vertices: O(vertices) per primitive, also
  // when primitives share one decoded accessor (a hostile file of many primitives would not).
  data.spend(uint64_t(out.vertex_count) * sizeof(uint32_t), ap);
  // After the counts are checked: a target's deltas are one per vertex of every attribute.
  apply_morph_targets(data, p, path, morph_weights, !draco.empty(), out.vertex_count,
                      out.attributes, notes.unapplied_morph_attributes);
  for (uint32_t v = 0; v < out.vertex_count; ++v) {
    if (!reasonable_position(position->second->element(v)))
      throw GltfError(json_path(ap, "POSITION"),
                      "position " + std::to_string(v) + " is not finite or lies beyond +-1e18");
  }
  // A NaN or infinite normal, UV, colour, tangent or weight reaches the renderer as black or
  // missing pixels, and equals nothing when vertices are merged: refused as positions are.
  for (const auto& [name, values] : out.attributes) {
    auto bad = std::find_if(values->values.begin(), values->values.end(),
                            [](float f) { return !std::isfinite(f); });
    if (bad != values->values.end()) {
      size_t vertex = size_t(bad - values->values.begin()) / values->components;
      throw GltfError(json_path(ap, name), "vertex " + std::to_string(vertex) + " is not finite");
    }
  }
  if (!draco.empty()) {
    out.indices = std::move(decoded.indices);
  } else if (std::optional<uint32_t> indices =
                 index_or_none(p, path, "indices", array_size(doc, "accessors"), "accessor")) {
    out.indices = data.indices(*indices, json_path(path, "indices"));
  } else {
    out.indices.resize(out.vertex_count);
    for (uint32_t i = 0; i < out.vertex_count; ++i) out.indices[i] = i;
  }
  for (uint32_t i : out.indices) {
    if (i >= out.vertex_count) {
      throw GltfError(json_path(path, "indices"), "index " + std::to_string(i) + " is not below " +
                                                      std::to_string(out.vertex_count) +
                                                      " vertices");
    }
  }
  return out;
}

// The corners of the triangles of `mode` over `indices`, as a triangle list (glTF 2.0, 3.7.2.1).
// The corners `n` indices of `mode` make: 3 per triangle of a strip or fan, the indices of a list.
uint64_t corner_count(uint64_t n, uint64_t mode) { return mode == 4 ? n : n < 3 ? 0 : 3 * (n - 2); }

std::vector<uint32_t> triangle_list(const std::vector<uint32_t>& indices, uint64_t mode,
                                    const std::string& path, const char* what) {
  std::vector<uint32_t> out;
  size_t n = indices.size();
  out.reserve(corner_count(n, mode));
  if (mode == 4) {
    if (n % 3 != 0) throw GltfError(path, std::to_string(n) + what + " are not whole triangles");
    return indices;
  }
  for (size_t i = 0; n >= 3 && i < n - 2; ++i) {
    if (mode == 5) {  // strip: every other triangle flipped, so all keep the first one's winding
      out.insert(out.end(), {indices[i], indices[i + 1 + i % 2], indices[i + 2 - i % 2]});
    } else {  // fan
      out.insert(out.end(), {indices[i + 1], indices[i + 2], indices[0]});
    }
  }
  return out;
}

// The attributes a vertex is made of, looked up once per primitive rather than per corner.
struct VertexStreams {
  const AccessorValues* position;
  const AccessorValues *normal, *tangent, *uv0, *uv1, *color;
  explicit VertexStreams(const PrimitiveData& p)
      : position(p.attributes.at("POSITION").get()),
        normal(find(p, "NORMAL")),
        tangent(find(p, "TANGENT")),
        uv0(find(p, "TEXCOORD_0")),
        uv1(find(p, "TEXCOORD_1")),
        color(find(p, "COLOR_0")) {}
  static const AccessorValues* find(const PrimitiveData& p, const char* name) {
    auto it = p.attributes.find(name);
    return it == p.attributes.end() ? nullptr : it->second.get();
  }
};

// Whether vertex `v` has a NORMAL with a direction (finite: checked when read).
bool has_normal(const VertexStreams& s, uint32_t v) {
  if (!s.normal) return false;
  const float* n = s.normal->element(v);
  return std::max({std::fabs(n[0]), std::fabs(n[1]), std::fabs(n[2])}) > 0;  // dot() underflows
}

// The unit normal of triangle `t` of `corners`, or +Z when it has no area.
Vec3 face_normal(const VertexStreams& s, const std::vector<uint32_t>& corners, size_t t) {
  Vec3 a = to_vec3(s.position->element(corners[t]));
  Vec3 b = to_vec3(s.position->element(corners[t + 1]));
  Vec3 c = to_vec3(s.position->element(corners[t + 2]));
  return normalized_or(cross(b - a, c - a), {0, 0, 1});
}

// The vertex `v` of `s`; `flat_normal` stands in for a NORMAL the primitive lacks or that has no
// length.
MeshVertex make_vertex(const VertexStreams& s, uint32_t v, const Vec3& flat_normal,
                       const std::vector<QuantizedInfluences>& skin) {
  MeshVertex out{};
  if (!skin.empty()) {
    std::copy_n(skin[v].joints, 4, out.joints);
    std::copy_n(skin[v].weights, 4, out.weights);
  }
  std::copy_n(s.position->element(v), 3, out.position);
  std::fill_n(out.color, 3, 1.0f);
  auto copy = [&](const AccessorValues* stream, float* dst, uint32_t n) {
    if (stream) std::copy_n(stream->element(v), std::min(n, stream->components), dst);
  };
  const Vec3 normal = has_normal(s, v) ? unit_normal(to_vec3(s.normal->element(v))) : flat_normal;
  std::copy(normal.begin(), normal.end(), out.normal);
  copy(s.tangent, out.tangent, 4);
  if (s.tangent) out.tangent[3] = out.tangent[3] < 0 ? -1.0f : 1.0f;  // w: handedness, +1 or -1
  copy(s.uv0, out.uv, 2);
  copy(s.uv1, out.uv1, 2);
  copy(s.color, out.color, 3);
  return out;
}

// Appends a primitive's triangles to `out`: each vertex its corners use once (primitives often
// share one large vertex accessor, and a hostile one may be huge), its corners into them; or,
// without normals, a vertex per corner with its face's flat normal (glTF 2.0, 3.7.2.1). A NORMAL
// of no length (zero in the file, or cancelled by a morph target) gets the normal of the first
// face using the vertex, counted in `zero_normals`.
void append_primitive(const PrimitiveData& p, const std::vector<uint32_t>& corners,
                      const std::vector<QuantizedInfluences>& skin, ImportedMesh& out,
                      uint64_t& zero_normals) {
  const VertexStreams streams(p);
  if (streams.normal) {
    std::vector<uint32_t> appended(p.vertex_count, ~0u);  // source vertex -> index in out.soup
    for (size_t i = 0; i < corners.size(); ++i) {
      const uint32_t c = corners[i];
      if (appended[c] == ~0u) {
        appended[c] = uint32_t(out.soup.size());
        Vec3 fallback{};
        if (!has_normal(streams, c))
          fallback = face_normal(streams, corners, i - i % 3), ++zero_normals;
        out.soup.push_back(make_vertex(streams, c, fallback, skin));
        out.authored_tangents.push_back(streams.tangent != nullptr);
      }
      out.corners.push_back(appended[c]);
    }
    return;
  }
  for (size_t t = 0; t < corners.size(); t += 3) {
    const Vec3 flat = face_normal(streams, corners, t);
    for (size_t k = 0; k < 3; ++k) {
      out.corners.push_back(uint32_t(out.soup.size()));
      out.soup.push_back(make_vertex(streams, corners[t + k], flat, skin));
      out.authored_tangents.push_back(false);  // no NORMAL: the TANGENT was dropped
    }
  }
}

// The default weights of the mesh's morph targets (empty without targets), noting the mesh as
// morphed.
std::vector<float> mesh_morph_weights(const Json& mesh, uint32_t index, const std::string& path,
                                      GltfMeshNotes& notes) {
  const size_t targets = morph_target_count(mesh, path);
  if (targets == 0) return {};  // `weights` without targets (invalid glTF) weigh nothing
  notes.morphed.push_back(index);
  return morph_weights(mesh, path, targets);
}

const char* mode_name(uint64_t mode) {
  static const char* names[] = {"points", "lines", "line loops", "line strips"};
  return mode < 4 ? names[mode] : "an unknown mode";
}

}  // namespace

std::optional<ImportedMesh> import_gltf_mesh(GltfData& data, uint32_t index,
                                             const std::vector<assetlib::MaterialInfo>& materials,
                                             const std::vector<std::string>& material_names,
                                             const GltfMeshSkin* skin, GltfMeshNotes& notes,
                                             std::vector<std::string>& warnings) {
  const Json& doc = data.document().json;
  const std::string& source = data.document().source;
  std::string path = json_path("meshes", index);
  const Json& mesh = doc["meshes"][index];
  const Json& primitives = array_or_empty(mesh, path, "primitives");
  if (primitives.empty()) throw GltfError(json_path(path, "primitives"), "is required");
  // Every primitive is read first, then appended material by material: each material's
  // triangles become one submesh, and the vertices are written once, where they stay.
  struct Primitive {
    PrimitiveData data;
    std::vector<uint32_t> corners;          // triangle list, into data's vertices
    std::vector<QuantizedInfluences> skin;  // per vertex of data, for a skinned mesh
  };
  SkinCounts skin_counts;
  bool skin_attributes = false;
  std::vector<Primitive> read;
  std::map<uint32_t, std::vector<size_t>> by_material;  // material -> primitives in `read`
  bool all_tangents = true, any_tangents = false, any_uvs = false, any_uv1 = false,
       dropped_alpha = false;
  const uint32_t default_material = uint32_t(materials.size() - 1);
  const std::vector<float> weights = mesh_morph_weights(mesh, index, path, notes);
  for (size_t i = 0; i < primitives.size(); ++i) {
    std::string pp = json_path(json_path(path, "primitives"), i);
    const Json& p = primitives[i];
    uint64_t mode = uint_or(p, pp, "mode", 4);
    if (mode < 4 || mode > 6) {
      warnings.push_back(source + ": " + pp + ": " + mode_name(mode) + " are not baked; skipped");
      continue;
    }
    uint32_t material = index_or_none(p, pp, "material", materials.size() - 1, "material")
                            .value_or(default_material);
    Primitive& primitive = read.emplace_back();
    primitive.data = read_primitive(data, p, pp, skin != nullptr, weights, notes);
    for (uint32_t set : {0u, 1u}) {
      const std::string attribute = "TEXCOORD_" + std::to_string(set);
      if (samples_uv_set(materials[material], set) && !primitive.data.attributes.count(attribute)) {
        warnings.push_back(source + ": " + pp + ": its material samples " + attribute +
                           ", which the primitive does not have; it reads UV (0, 0) there");
      }
    }
    skin_attributes = skin_attributes || primitive.data.skin_attributes;
    if (skin) {
      data.spend(uint64_t(primitive.data.vertex_count) * sizeof(QuantizedInfluences), pp);
      primitive.skin = vertex_skins(primitive.data.attributes, primitive.data.vertex_count, *skin,
                                    pp, skin_counts);
    }
    // A strip or fan of a few zero-filled indices makes 3 corners of each, and each corner may
    // become a vertex (flat normals, tangent generation): all of it comes out of the budget,
    // before any of it is made.
    data.spend(
        corner_count(primitive.data.indices.size(), mode) * (sizeof(uint32_t) + sizeof(MeshVertex)),
        pp);
    // Without `indices` the vertices are drawn in order: a count that is no whole number of
    // triangles is POSITION's.
    const bool indexed = p.contains("indices");
    primitive.corners =
        triangle_list(primitive.data.indices, mode,
                      indexed ? json_path(pp, "indices") : json_path(pp, "attributes.POSITION"),
                      indexed ? " indices" : " vertices (no indices)");
    primitive.data.indices = {};
    const auto& attributes = primitive.data.attributes;
    all_tangents = all_tangents && attributes.count("TANGENT");
    any_tangents = any_tangents || attributes.count("TANGENT");
    any_uvs = any_uvs || attributes.count("TEXCOORD_0");
    any_uv1 = any_uv1 || attributes.count("TEXCOORD_1");
    auto color = attributes.find("COLOR_0");
    if (color != attributes.end() && color->second->components == 4) {
      for (uint32_t v = 0; v < color->second->count && !dropped_alpha; ++v)
        dropped_alpha = color->second->element(v)[3] < 1.0f;
    }
    by_material[material].push_back(read.size() - 1);
  }
  if (dropped_alpha) notes.dropped_alpha.push_back(index);
  ImportedMesh out;
  // Reserved once for all primitives: reserving each primitive's share as it is appended grows
  // the vectors to the exact size every time, a copy of everything so far per primitive
  // (quadratic: 16000 primitives of one mesh took 22 s). The vertices at most: a primitive with
  // normals appends each vertex its corners use once, one without a vertex per corner; what the
  // decode budget charged, never twice that as growing by doubling would.
  size_t corner_total = 0, vertex_bound = 0;
  for (const Primitive& primitive : read) {
    const size_t corners = primitive.corners.size();
    corner_total += corners;
    vertex_bound += primitive.data.attributes.count("NORMAL")
                        ? std::min<size_t>(corners, primitive.data.vertex_count)
                        : corners;
  }
  out.corners.reserve(corner_total);
  out.soup.reserve(vertex_bound);
  out.authored_tangents.reserve(vertex_bound);
  for (const auto& [material, members] : by_material) {
    const uint32_t first = uint32_t(out.corners.size());
    for (size_t r : members)
      append_primitive(read[r].data, read[r].corners, read[r].skin, out, notes.zero_normals);
    if (out.corners.size() == first) continue;
    out.submeshes.push_back(
        {first, uint32_t(out.corners.size() - first), uint32_t(out.materials.size())});
    out.materials.push_back(material_summary(materials[material], material_names[material]));
    out.uses_uv1 = out.uses_uv1 || samples_uv_set(materials[material], 1);
  }
  if (out.corners.empty()) {
    warnings.push_back(source + ": " + path + " has no triangles; not baked");
    return std::nullopt;
  }
  // Generated tangents follow the UV set the normal maps sample; maps on both sets in one mesh get
  // set 0's frames, said so.
  std::set<uint32_t> normal_sets;
  for (const auto& [material, members] : by_material) {
    if (!materials[material].normal.texture.empty())
      normal_sets.insert(materials[material].normal.uv_set);
  }
  if (normal_sets.size() == 1) out.tangent_uv_set = *normal_sets.begin();
  if (normal_sets.size() > 1 && !all_tangents) {
    warnings.push_back(source + ": " + path +
                       ": its normal maps sample both TEXCOORD_0 and TEXCOORD_1; generated "
                       "tangents follow TEXCOORD_0");
  }
  out.has_uvs = out.tangent_uv_set == 1 ? any_uv1 : any_uvs;
  out.has_tangents = all_tangents;
  if (all_tangents || !any_tangents) out.authored_tangents = {};
  if (skin_attributes && !skin) notes.unskinned.push_back(index);
  if (skin) {
    out.skin_format = skin->format;
    out.skin_joint_count = skin->joint_count;
    out.skeleton = skin->skeleton;
    warn_skin_counts(skin_counts, source + ": " + path, warnings);
  }
  return out;
}

}  // namespace baker
