#include "mesh_metadata.h"

namespace assetlib::detail {
namespace {

json bounds_to_json(const MeshBounds& b) {
  return {{"origin", {b.origin[0], b.origin[1], b.origin[2]}},
          {"extents", {b.extents[0], b.extents[1], b.extents[2]}},
          {"radius", b.radius}};
}

json material_to_json(const MeshMaterial& m) {
  return {{"name", m.name},
          {"base_color", {m.base_color[0], m.base_color[1], m.base_color[2], m.base_color[3]}},
          {"specular_color", {m.specular_color[0], m.specular_color[1], m.specular_color[2]}},
          {"base_color_texture", m.base_color_texture},
          {"normal_texture", m.normal_texture},
          {"material", m.material}};
}

json submesh_to_json(const Submesh& s) {
  return {{"first_index", s.first_index},     {"index_count", s.index_count},
          {"material", s.material},           {"bounds", bounds_to_json(s.bounds)},
          {"first_meshlet", s.first_meshlet}, {"meshlet_count", s.meshlet_count}};
}

json lod_to_json(const MeshLod& lod) {
  json ranges = json::array();
  for (const IndexRange& r : lod.submeshes) ranges.push_back({r.first_index, r.index_count});
  return {{"error", lod.error}, {"submeshes", ranges}};
}

// The keys read from each object of MESH metadata but the top level (mesh_metadata.h), in the
// order mesh_to_json writes them.
constexpr KeySet kBoundsKeys{"extents", "origin", "radius"};
constexpr KeySet kMaterialKeys{"base_color", "base_color_texture", "material",
                               "name",       "normal_texture",     "specular_color"};
constexpr KeySet kSubmeshKeys{"bounds",      "first_index", "first_meshlet",
                              "index_count", "material",    "meshlet_count"};
constexpr KeySet kLodKeys{"error", "submeshes"};
constexpr KeySet kMeshletKeys{"count", "triangle_count", "vertex_count"};
constexpr KeySet kStatsKeys{"acmr_after", "acmr_before", "atvr_after", "atvr_before"};
constexpr KeySet kSkinKeys{"format", "joint_count", "skeleton", "stride"};

void read_bounds(JsonReader& reader, JsonValue b, MeshBounds& bounds) {
  Members<kBoundsKeys> m(reader, b);
  reader.f32_array(m["origin"], bounds.origin, 3);
  reader.f32_array(m["extents"], bounds.extents, 3);
  bounds.radius = reader.f32(m["radius"]);
  // A culling test against a negative radius or extent drops what is in view.
  if (reader.ok() && (bounds.radius < 0 || bounds.extents[0] < 0 || bounds.extents[1] < 0 ||
                      bounds.extents[2] < 0))
    reader.fail(ErrorCode::InvalidValue, "bounds: radius and extents must not be negative");
}

// Entry `index` of `entries`: the one already there when there is one (reused with its memory:
// the caller assigns every field), else a new one. Grows only with what was read, so a hostile
// count costs nothing ahead of its entries.
template <typename T>
T& entry_at(std::vector<T>& entries, size_t index) {
  if (index == entries.size()) entries.emplace_back();
  return entries[index];
}

void read_materials(JsonReader& reader, const Member& materials, std::vector<MeshMaterial>& out) {
  size_t count = 0;
  for (JsonValue entry : reader.entries(materials)) {
    if (!reader.ok()) return;
    Members<kMaterialKeys> m(reader, entry);
    MeshMaterial& material = entry_at(out, count++);
    material.name = reader.string(m["name"]);
    reader.f32_array(m["base_color"], material.base_color, 4);
    reader.f32_array(m["specular_color"], material.specular_color, 3);
    material.base_color_texture = reader.string(m["base_color_texture"]);
    material.normal_texture = reader.string(m["normal_texture"]);
    material.material = reader.optional_string(m["material"], "");
  }
  out.resize(count);
}

void read_submeshes(JsonReader& reader, const Member& submeshes, std::vector<Submesh>& out) {
  out.clear();
  for (JsonValue entry : reader.entries(submeshes)) {
    if (!reader.ok()) return;
    Members<kSubmeshKeys> m(reader, entry);
    Submesh sub;
    sub.first_index = reader.u32(m["first_index"]);
    sub.index_count = reader.u32(m["index_count"]);
    sub.material = reader.u32(m["material"]);
    sub.first_meshlet = reader.u32(m["first_meshlet"]);
    sub.meshlet_count = reader.u32(m["meshlet_count"]);
    read_bounds(reader, reader.object(m["bounds"]), sub.bounds);
    out.push_back(sub);
  }
}

// [first_index, index_count], each an unsigned 32-bit integer.
bool read_range(JsonValue r, IndexRange& range) {
  simdjson::dom::array values;
  if (!get_array(r, values) || values.size() != 2) return false;
  uint64_t v[2];
  size_t k = 0;
  for (JsonValue value : values) {
    if (!get_u64(value, v[k]) || v[k] > UINT32_MAX) return false;
    ++k;
  }
  range = {uint32_t(v[0]), uint32_t(v[1])};
  return true;
}

void read_lods(JsonReader& reader, const Member& member, std::vector<MeshLod>& out) {
  JsonArray lods = reader.entries(member);
  if (lods.size() > 32) reader.fail(ErrorCode::InvalidValue, "more than 32 LODs");
  size_t count = 0;
  for (JsonValue l : lods) {
    if (!reader.ok()) return;
    Members<kLodKeys> m(reader, l);
    MeshLod& lod = entry_at(out, count++);
    lod.error = reader.f32(m["error"]);
    lod.submeshes.clear();
    for (JsonValue r : reader.entries(m["submeshes"])) {
      IndexRange range;
      if (!read_range(r, range)) {
        reader.fail(ErrorCode::WrongKeyType, "a LOD range must be [first_index, index_count]");
        return;
      }
      lod.submeshes.push_back(range);
    }
  }
  out.resize(count);
}

// The optional "skin" key (absent: a rigid mesh). Consistency is checked by mesh_asset.cpp.
void read_skin(JsonReader& reader, const Member& member, MeshInfo& info) {
  info.skin_format = SkinFormat::None;
  info.skin_stride = 0;
  info.skin_joint_count = 0;
  info.skeleton.clear();
  if (!reader.ok() || !member.found()) return;
  Members<kSkinKeys> skin(reader, reader.object(member));
  info.skin_format = reader.named(skin["format"], skin_format_from_name);
  info.skin_stride = reader.u32(skin["stride"]);
  info.skin_joint_count = reader.u32(skin["joint_count"]);
  info.skeleton = reader.string(skin["skeleton"]);
}

}  // namespace

json mesh_to_json(const MeshInfo& info) {
  json meta;
  meta["vertex_format"] = vertex_format_name(info.vertex_format);
  meta["vertex_count"] = info.vertex_count;
  meta["vertex_stride"] = info.vertex_stride;
  meta["index_count"] = info.index_count;
  meta["lod_index_count"] = info.lod_index_count;
  meta["index_size"] = info.index_size;
  meta["original_file"] = info.original_file;
  meta["bounds"] = bounds_to_json(info.bounds);
  json materials = json::array(), submeshes = json::array(), lods = json::array();
  for (const MeshMaterial& m : info.materials) materials.push_back(material_to_json(m));
  for (const Submesh& s : info.submeshes) submeshes.push_back(submesh_to_json(s));
  for (const MeshLod& l : info.lods) lods.push_back(lod_to_json(l));
  meta["materials"] = std::move(materials);
  meta["submeshes"] = std::move(submeshes);
  meta["lods"] = std::move(lods);
  meta["meshlets"] = {{"count", info.meshlet_count},
                      {"vertex_count", info.meshlet_vertex_count},
                      {"triangle_count", info.meshlet_triangle_count}};
  const MeshStats& st = info.stats;
  meta["stats"] = {{"acmr_before", st.acmr_before},
                   {"acmr_after", st.acmr_after},
                   {"atvr_before", st.atvr_before},
                   {"atvr_after", st.atvr_after}};
  if (info.skin_format != SkinFormat::None) {
    meta["skin"] = {{"format", skin_format_name(info.skin_format)},
                    {"stride", info.skin_stride},
                    {"joint_count", info.skin_joint_count},
                    {"skeleton", info.skeleton}};
  }
  return meta;
}

void mesh_from_json(JsonReader& reader, const MeshMembers& m, MeshInfo& info) {
  info.vertex_format = reader.named(m["vertex_format"], vertex_format_from_name);
  info.vertex_count = reader.u32(m["vertex_count"]);
  info.vertex_stride = reader.u32(m["vertex_stride"]);
  info.index_count = reader.u32(m["index_count"]);
  info.lod_index_count = reader.u32(m["lod_index_count"]);
  info.index_size = reader.u32(m["index_size"]);
  info.original_file = reader.string(m["original_file"]);
  read_bounds(reader, reader.object(m["bounds"]), info.bounds);
  read_materials(reader, m["materials"], info.materials);
  read_submeshes(reader, m["submeshes"], info.submeshes);
  read_lods(reader, m["lods"], info.lods);
  Members<kMeshletKeys> meshlets(reader, reader.object(m["meshlets"]));
  info.meshlet_count = reader.u32(meshlets["count"]);
  info.meshlet_vertex_count = reader.u32(meshlets["vertex_count"]);
  info.meshlet_triangle_count = reader.u32(meshlets["triangle_count"]);
  Members<kStatsKeys> stats(reader, reader.object(m["stats"]));
  info.stats.acmr_before = reader.f32(stats["acmr_before"]);
  info.stats.acmr_after = reader.f32(stats["acmr_after"]);
  info.stats.atvr_before = reader.f32(stats["atvr_before"]);
  info.stats.atvr_after = reader.f32(stats["atvr_after"]);
  read_skin(reader, m["skin"], info);
}

}  // namespace assetlib::detail
