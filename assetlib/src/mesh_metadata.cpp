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

void read_bounds(JsonReader& reader, const json& b, MeshBounds& bounds) {
  reader.f32_array(b, "origin", bounds.origin, 3);
  reader.f32_array(b, "extents", bounds.extents, 3);
  bounds.radius = reader.f32(b, "radius");
}

void read_materials(JsonReader& reader, const json& meta, std::vector<MeshMaterial>& out) {
  for (const json& m : reader.entries(meta, "materials")) {
    if (!reader.ok()) return;
    MeshMaterial material;
    material.name = reader.string(m, "name");
    reader.f32_array(m, "base_color", material.base_color, 4);
    reader.f32_array(m, "specular_color", material.specular_color, 3);
    material.base_color_texture = reader.string(m, "base_color_texture");
    material.normal_texture = reader.string(m, "normal_texture");
    material.material = reader.optional_string(m, "material", "");
    out.push_back(std::move(material));
  }
}

void read_submeshes(JsonReader& reader, const json& meta, std::vector<Submesh>& out) {
  for (const json& s : reader.entries(meta, "submeshes")) {
    if (!reader.ok()) return;
    Submesh sub;
    sub.first_index = reader.u32(s, "first_index");
    sub.index_count = reader.u32(s, "index_count");
    sub.material = reader.u32(s, "material");
    sub.first_meshlet = reader.u32(s, "first_meshlet");
    sub.meshlet_count = reader.u32(s, "meshlet_count");
    read_bounds(reader, reader.object(s, "bounds"), sub.bounds);
    out.push_back(sub);
  }
}

void read_lods(JsonReader& reader, const json& meta, std::vector<MeshLod>& out) {
  const json& lods = reader.entries(meta, "lods");
  if (lods.size() > 32) reader.fail(ErrorCode::InvalidValue, "more than 32 LODs");
  for (const json& l : lods) {
    if (!reader.ok()) return;
    MeshLod lod;
    lod.error = reader.f32(l, "error");
    for (const json& r : reader.entries(l, "submeshes")) {
      if (!r.is_array() || r.size() != 2 || !r[0].is_number_unsigned() ||
          !r[1].is_number_unsigned() || r[0].get<uint64_t>() > UINT32_MAX ||
          r[1].get<uint64_t>() > UINT32_MAX) {
        reader.fail(ErrorCode::WrongKeyType, "a LOD range must be [first_index, index_count]");
        return;
      }
      lod.submeshes.push_back({r[0].get<uint32_t>(), r[1].get<uint32_t>()});
    }
    out.push_back(std::move(lod));
  }
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
  return meta;
}

void mesh_from_json(JsonReader& reader, const json& meta, MeshInfo& info) {
  info.vertex_format = reader.named(meta, "vertex_format", vertex_format_from_name);
  info.vertex_count = reader.u32(meta, "vertex_count");
  info.vertex_stride = reader.u32(meta, "vertex_stride");
  info.index_count = reader.u32(meta, "index_count");
  info.lod_index_count = reader.u32(meta, "lod_index_count");
  info.index_size = reader.u32(meta, "index_size");
  info.original_file = reader.string(meta, "original_file");
  read_bounds(reader, reader.object(meta, "bounds"), info.bounds);
  read_materials(reader, meta, info.materials);
  read_submeshes(reader, meta, info.submeshes);
  read_lods(reader, meta, info.lods);
  const json& meshlets = reader.object(meta, "meshlets");
  info.meshlet_count = reader.u32(meshlets, "count");
  info.meshlet_vertex_count = reader.u32(meshlets, "vertex_count");
  info.meshlet_triangle_count = reader.u32(meshlets, "triangle_count");
  const json& stats = reader.object(meta, "stats");
  info.stats.acmr_before = reader.f32(stats, "acmr_before");
  info.stats.acmr_after = reader.f32(stats, "acmr_after");
  info.stats.atvr_before = reader.f32(stats, "atvr_before");
  info.stats.atvr_after = reader.f32(stats, "atvr_after");
}

}  // namespace assetlib::detail
