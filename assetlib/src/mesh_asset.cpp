// Mesh assets: metadata <-> MeshInfo, and packing/unpacking of vertex and index buffers.
#include <assetlib/mesh_asset.h>

#include "chunked_blob.h"
#include "metadata.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace assetlib {
namespace {

using detail::json;

// Far beyond any real mesh (2^28 vertices of 44 bytes = 11 GiB); larger counts are corrupt files.
constexpr uint32_t kMaxCount = 1u << 28;

std::string counts_error(const char* context, const char* what, uint64_t got, uint64_t want) {
  return std::string(context) + ": " + what + " holds " + std::to_string(got) + " bytes, " +
         std::to_string(want) + " expected";
}

// Derives stride and buffer sizes from format and counts, and checks them.
Status complete_layout(MeshInfo& info, const char* context) {
  auto invalid = [&](const std::string& what) {
    return Status::error(ErrorCode::InvalidValue, std::string(context) + ": " + what);
  };
  info.vertex_stride = vertex_format_stride(info.vertex_format);
  if (info.vertex_stride == 0) return invalid("unknown vertex format");
  if (info.index_size != 2 && info.index_size != 4) return invalid("index_size must be 2 or 4");
  if (info.vertex_count > kMaxCount || info.index_count > kMaxCount) {
    return invalid("vertex or index count above " + std::to_string(kMaxCount));
  }
  if (info.index_count % 3 != 0) return invalid("index_count is not a multiple of 3");
  if (info.index_size == 2 && info.vertex_count > 65536) {
    return invalid("16-bit indices cannot address " + std::to_string(info.vertex_count) +
                   " vertices");
  }
  info.vertex_buffer_size = uint64_t(info.vertex_count) * info.vertex_stride;
  info.index_buffer_size = uint64_t(info.index_count) * info.index_size;
  return {};
}

template <typename Index>
bool indices_in_range(const void* indices, uint32_t count, uint32_t vertex_count) {
  const Index* p = static_cast<const Index*>(indices);
  return std::all_of(p, p + count, [&](Index i) { return i < vertex_count; });
}

// Box and sphere around the positions of `count` vertices, the i-th being vertex_at(i).
template <typename VertexAt>
MeshBounds bounds_of(const std::byte* vertices, uint32_t stride, size_t count, VertexAt vertex_at) {
  MeshBounds bounds;
  if (count == 0) return bounds;
  auto position = [&](size_t i, float p[3]) {
    std::memcpy(p, vertices + size_t(vertex_at(i)) * stride, sizeof(float) * 3);
  };
  float lo[3], hi[3];
  position(0, lo);
  position(0, hi);
  for (size_t i = 1; i < count; ++i) {
    float p[3];
    position(i, p);
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[k]);
      hi[k] = std::max(hi[k], p[k]);
    }
  }
  for (int k = 0; k < 3; ++k) {
    bounds.origin[k] = (lo[k] + hi[k]) * 0.5f;
    bounds.extents[k] = (hi[k] - lo[k]) * 0.5f;
  }
  float r2 = 0;
  for (size_t i = 0; i < count; ++i) {
    float p[3];
    position(i, p);
    float d2 = 0;
    for (int k = 0; k < 3; ++k) d2 += (p[k] - bounds.origin[k]) * (p[k] - bounds.origin[k]);
    r2 = std::max(r2, d2);
  }
  bounds.radius = std::sqrt(r2);
  return bounds;
}

// NaN or infinite positions would poison bounds and culling; they are never valid geometry.
bool positions_finite(const void* vertices, uint32_t vertex_count, uint32_t stride) {
  for (uint32_t i = 0; i < vertex_count; ++i) {
    float p[3];
    std::memcpy(p, static_cast<const std::byte*>(vertices) + size_t(i) * stride, sizeof p);
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return false;
  }
  return true;
}

MeshBounds submesh_bounds(const MeshInfo& info, const Submesh& sub, const void* vertices,
                          const void* indices) {
  auto base = static_cast<const std::byte*>(vertices);
  auto i16 = static_cast<const uint16_t*>(indices) + sub.first_index;
  auto i32 = static_cast<const uint32_t*>(indices) + sub.first_index;
  return info.index_size == 2
             ? bounds_of(base, info.vertex_stride, sub.index_count, [&](size_t i) { return i16[i]; })
             : bounds_of(base, info.vertex_stride, sub.index_count, [&](size_t i) { return i32[i]; });
}

json bounds_to_json(const MeshBounds& b) {
  return {{"origin", {b.origin[0], b.origin[1], b.origin[2]}},
          {"extents", {b.extents[0], b.extents[1], b.extents[2]}},
          {"radius", b.radius}};
}

const json& object_at(detail::JsonReader& reader, const json& obj, const char* key) {
  static const json empty = json::object();
  if (!reader.ok()) return empty;
  auto it = obj.find(key);
  if (it == obj.end()) {
    reader.fail(ErrorCode::MissingKey, std::string("missing key '") + key + "'");
    return empty;
  }
  if (!it->is_object()) {
    reader.fail(ErrorCode::WrongKeyType, std::string("key '") + key + "' must be an object");
    return empty;
  }
  return *it;
}

void read_bounds(detail::JsonReader& reader, const json& b, MeshBounds& bounds) {
  reader.f32_array(b, "origin", bounds.origin, 3);
  reader.f32_array(b, "extents", bounds.extents, 3);
  bounds.radius = reader.f32(b, "radius");
}

json material_to_json(const MeshMaterial& m) {
  return {{"name", m.name},
          {"base_color", {m.base_color[0], m.base_color[1], m.base_color[2], m.base_color[3]}},
          {"specular_color", {m.specular_color[0], m.specular_color[1], m.specular_color[2]}},
          {"base_color_texture", m.base_color_texture},
          {"normal_texture", m.normal_texture}};
}

void read_materials(detail::JsonReader& reader, const json& meta, std::vector<MeshMaterial>& out) {
  for (const json& m : reader.array(meta, "materials")) {
    MeshMaterial material;
    material.name = reader.string(m, "name");
    reader.f32_array(m, "base_color", material.base_color, 4);
    reader.f32_array(m, "specular_color", material.specular_color, 3);
    material.base_color_texture = reader.string(m, "base_color_texture");
    material.normal_texture = reader.string(m, "normal_texture");
    if (!reader.ok()) return;
    out.push_back(std::move(material));
  }
}

void read_submeshes(detail::JsonReader& reader, const json& meta, std::vector<Submesh>& out) {
  for (const json& s : reader.array(meta, "submeshes")) {
    Submesh sub;
    sub.first_index = reader.u32(s, "first_index");
    sub.index_count = reader.u32(s, "index_count");
    sub.material = reader.u32(s, "material");
    read_bounds(reader, object_at(reader, s, "bounds"), sub.bounds);
    if (!reader.ok()) return;
    out.push_back(sub);
  }
}

// Submeshes must tile the index buffer in order, in whole triangles, each naming a material.
Status check_submeshes(const MeshInfo& info, const char* context) {
  uint32_t next = 0;
  for (size_t i = 0; i < info.submeshes.size(); ++i) {
    const Submesh& sub = info.submeshes[i];
    if (sub.first_index != next || sub.index_count % 3 != 0 ||
        sub.index_count > info.index_count - next || sub.material >= info.materials.size()) {
      return Status::error(ErrorCode::InvalidValue, std::string(context) + ": submesh " +
                                                        std::to_string(i) +
                                                        " has a bad index range or material");
    }
    next += sub.index_count;
  }
  if (next != info.index_count) {
    return Status::error(ErrorCode::InvalidValue,
                         std::string(context) + ": submeshes do not cover every index");
  }
  return {};
}

}  // namespace

MeshBounds compute_mesh_bounds(const void* vertices, uint32_t vertex_count, uint32_t stride) {
  return bounds_of(static_cast<const std::byte*>(vertices), stride, vertex_count,
                   [](size_t i) { return i; });
}

Status read_mesh_info(const AssetView& file, MeshInfo& info) {
  json meta;
  if (Status s = detail::parse_metadata(file, "MESH", meta); !s) return s;
  detail::JsonReader reader("MESH metadata");
  MeshInfo out;
  std::string format = reader.string(meta, "vertex_format");
  if (reader.ok()) {
    out.vertex_format = vertex_format_from_name(format);
    if (out.vertex_format == VertexFormat::Unknown) {
      reader.fail(ErrorCode::InvalidValue, "unknown vertex format '" + format + "'");
    }
  }
  out.vertex_count = reader.u32(meta, "vertex_count");
  uint32_t stride = reader.u32(meta, "vertex_stride");
  out.index_count = reader.u32(meta, "index_count");
  out.index_size = reader.u32(meta, "index_size");
  out.original_file = reader.string(meta, "original_file");
  read_bounds(reader, object_at(reader, meta, "bounds"), out.bounds);
  read_materials(reader, meta, out.materials);
  read_submeshes(reader, meta, out.submeshes);
  if (!reader.ok()) return reader.status();
  if (Status s = complete_layout(out, "MESH metadata"); !s) return s;
  if (Status s = check_submeshes(out, "MESH metadata"); !s) return s;
  if (stride != out.vertex_stride) {
    return Status::error(ErrorCode::InvalidValue,
                         "MESH metadata: vertex_stride " + std::to_string(stride) + " but " +
                             format + " vertices are " + std::to_string(out.vertex_stride) +
                             " bytes");
  }
  detail::read_chunk_table(reader, meta, out.vertex_buffer_size + out.index_buffer_size,
                           file.blob.size(), out.compression, out.chunks);
  if (!reader.ok()) return reader.status();
  info = std::move(out);
  return {};
}

Status pack_mesh(const MeshInfo& info_in, const void* vertices, size_t vertices_size,
                 const void* indices, size_t indices_size, AssetFile& out,
                 const PackOptions& options) {
  MeshInfo info = info_in;
  if (Status s = complete_layout(info, "pack_mesh"); !s) return s;
  if (vertices_size != info.vertex_buffer_size) {
    return Status::error(ErrorCode::InvalidArgument,
                         counts_error("pack_mesh", "vertex data", vertices_size,
                                      info.vertex_buffer_size));
  }
  if (indices_size != info.index_buffer_size) {
    return Status::error(ErrorCode::InvalidArgument,
                         counts_error("pack_mesh", "index data", indices_size,
                                      info.index_buffer_size));
  }
  bool in_range = info.index_size == 2
                      ? indices_in_range<uint16_t>(indices, info.index_count, info.vertex_count)
                      : indices_in_range<uint32_t>(indices, info.index_count, info.vertex_count);
  if (!in_range) {
    return Status::error(ErrorCode::InvalidArgument, "pack_mesh: an index is >= vertex_count");
  }
  if (!positions_finite(vertices, info.vertex_count, info.vertex_stride)) {
    return Status::error(ErrorCode::InvalidArgument, "pack_mesh: a vertex position is not finite");
  }
  info.bounds = compute_mesh_bounds(vertices, info.vertex_count, info.vertex_stride);
  if (info.materials.empty()) {
    info.materials.emplace_back();
    info.materials.back().name = "default";
  }
  if (info.submeshes.empty()) info.submeshes.push_back(Submesh{0, info.index_count, 0, {}});
  if (Status s = check_submeshes(info, "pack_mesh"); !s) return s;
  for (Submesh& sub : info.submeshes) sub.bounds = submesh_bounds(info, sub, vertices, indices);

  const detail::RawSection sections[] = {
      {static_cast<const std::byte*>(vertices), info.vertex_buffer_size},
      {static_cast<const std::byte*>(indices), info.index_buffer_size}};
  std::vector<std::byte> blob;
  std::vector<Chunk> chunks;
  if (Status s = detail::pack_sections(sections, options, blob, chunks); !s) return s;

  json meta;
  meta["vertex_format"] = vertex_format_name(info.vertex_format);
  meta["vertex_count"] = info.vertex_count;
  meta["vertex_stride"] = info.vertex_stride;
  meta["index_count"] = info.index_count;
  meta["index_size"] = info.index_size;
  meta["original_file"] = info.original_file;
  meta["bounds"] = bounds_to_json(info.bounds);
  json materials = json::array();
  for (const MeshMaterial& m : info.materials) materials.push_back(material_to_json(m));
  meta["materials"] = std::move(materials);
  json submeshes = json::array();
  for (const Submesh& sub : info.submeshes) {
    submeshes.push_back({{"first_index", sub.first_index},
                         {"index_count", sub.index_count},
                         {"material", sub.material},
                         {"bounds", bounds_to_json(sub.bounds)}});
  }
  meta["submeshes"] = std::move(submeshes);
  detail::write_chunk_table(meta, options.compression, chunks);
  detail::finish_asset(out, "MESH", meta, std::move(blob));
  return {};
}

Status unpack_mesh(const MeshInfo& info, const void* src, size_t src_size, void* vertex_dst,
                   size_t vertex_dst_size, void* index_dst, size_t index_dst_size) {
  uint64_t vb = info.vertex_buffer_size;
  if (Status s = detail::unpack_range(info.compression, info.chunks, 0, vb, src, src_size,
                                      vertex_dst, vertex_dst_size);
      !s) {
    return s;
  }
  return detail::unpack_range(info.compression, info.chunks, vb, vb + info.index_buffer_size, src,
                              src_size, index_dst, index_dst_size);
}

}  // namespace assetlib
