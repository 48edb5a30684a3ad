// Mesh assets: layout and consistency of MeshInfo, and packing/unpacking of the blob sections
// (vertices, indices of every LOD, meshlet data, skin stream).
#include <assetlib/mesh_asset.h>
#include <assetlib/skeleton_asset.h>

#include "chunked_blob.h"
#include "legacy_vkguide.h"
#include "mesh_bounds.h"
#include "mesh_metadata.h"
#include "no_throw.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace assetlib {
namespace {

using detail::json;

// Far beyond any real mesh (2^28 vertices of 60 bytes = 15 GiB); larger counts are corrupt files.
constexpr uint32_t kMaxCount = 1u << 28;
// meshoptimizer's limits for meshlets that mesh shaders can take.
constexpr uint32_t kMaxMeshletVertices = 64, kMaxMeshletTriangles = 124;

Status invalid(const char* context, const std::string& what) {
  return Status::error(ErrorCode::InvalidValue, std::string(context) + ": " + what);
}

uint64_t align4(uint64_t n) { return (n + 3) & ~uint64_t(3); }

// J8W8 indexes at most 256 joints; J16W16 a whole skeleton.
uint32_t max_skin_joints(SkinFormat format) {
  return format == SkinFormat::J8W8 ? 256 : format == SkinFormat::J16W16 ? kMaxJoints : 0;
}

// Derives the skin stream's stride and size; a rigid mesh has no joints and no skeleton.
Status complete_skin_layout(MeshInfo& info, const char* context) {
  info.skin_stride = skin_format_stride(info.skin_format);
  info.skin_buffer_size = uint64_t(info.vertex_count) * info.skin_stride;
  if (info.skin_format == SkinFormat::None) {
    if (info.skin_joint_count != 0 || !info.skeleton.empty())
      return invalid(context, "a mesh without a skin format has skin joints or a skeleton");
    return {};
  }
  if (info.skin_stride == 0) return invalid(context, "unknown skin format");
  uint32_t max = max_skin_joints(info.skin_format);
  if (info.skin_joint_count == 0 || info.skin_joint_count > max) {
    return invalid(context, std::string("skin joint_count ") +
                                std::to_string(info.skin_joint_count) + " is outside 1.." +
                                std::to_string(max) + " for " + skin_format_name(info.skin_format));
  }
  return {};
}

// Derives stride and section sizes from format and counts, and checks them.
Status complete_layout(MeshInfo& info, const char* context) {
  info.vertex_stride = vertex_format_stride(info.vertex_format);
  if (info.vertex_stride == 0) return invalid(context, "unknown vertex format");
  if (info.index_size != 2 && info.index_size != 4)
    return invalid(context, "index_size must be 2 or 4");
  if (info.vertex_count > kMaxCount || info.index_count > kMaxCount ||
      info.lod_index_count > kMaxCount || info.meshlet_count > kMaxCount ||
      info.meshlet_vertex_count > kMaxCount || info.meshlet_triangle_count > kMaxCount) {
    return invalid(context, "a count is above " + std::to_string(kMaxCount));
  }
  if (info.index_count % 3 != 0 || info.lod_index_count % 3 != 0) {
    return invalid(context, "index counts must be multiples of 3");
  }
  if (info.index_size == 2 && info.vertex_count > 65536) {
    return invalid(context, "16-bit indices cannot address " + std::to_string(info.vertex_count) +
                                " vertices");
  }
  info.vertex_buffer_size = uint64_t(info.vertex_count) * info.vertex_stride;
  info.index_buffer_size = (uint64_t(info.index_count) + info.lod_index_count) * info.index_size;
  info.meshlet_data_size = uint64_t(info.meshlet_count) * sizeof(Meshlet) +
                           uint64_t(info.meshlet_vertex_count) * sizeof(uint32_t) +
                           align4(uint64_t(info.meshlet_triangle_count) * 3);
  return complete_skin_layout(info, context);
}

// [first, first + count) lies within [begin, end), without overflow.
bool inside(uint64_t first, uint64_t count, uint64_t begin, uint64_t end) {
  return first >= begin && first <= end && count <= end - first;
}

// Submeshes tile LOD 0 in order, whole triangles, each naming a material and its own meshlets;
// each LOD has one range per submesh inside the LOD part of the index buffer.
Status check_ranges(const MeshInfo& info, const char* context) {
  uint32_t next = 0, next_meshlet = 0;
  for (size_t i = 0; i < info.submeshes.size(); ++i) {
    const Submesh& sub = info.submeshes[i];
    if (sub.first_index != next || sub.index_count % 3 != 0 ||
        !inside(sub.first_index, sub.index_count, 0, info.index_count) ||
        sub.material >= info.materials.size() || sub.first_meshlet != next_meshlet ||
        !inside(sub.first_meshlet, sub.meshlet_count, 0, info.meshlet_count)) {
      return invalid(context, "submesh " + std::to_string(i) +
                                  " has a bad index range, material or meshlet range");
    }
    next += sub.index_count;
    next_meshlet += sub.meshlet_count;
  }
  if (next != info.index_count || next_meshlet != info.meshlet_count) {
    return invalid(context, "submeshes do not cover every index and meshlet");
  }
  uint64_t lod_begin = info.index_count,
           lod_end = uint64_t(info.index_count) + info.lod_index_count;
  for (size_t l = 0; l < info.lods.size(); ++l) {
    if (info.lods[l].submeshes.size() != info.submeshes.size()) {
      return invalid(context, "LOD " + std::to_string(l + 1) + " needs one range per submesh");
    }
    // An engine picks levels by comparing errors: a negative one would always win.
    if (!(info.lods[l].error >= 0) || !std::isfinite(info.lods[l].error))
      return invalid(context, "LOD " + std::to_string(l + 1) + " has a negative error");
    for (const IndexRange& r : info.lods[l].submeshes) {
      if (r.index_count % 3 != 0 || !inside(r.first_index, r.index_count, lod_begin, lod_end)) {
        return invalid(context,
                       "LOD " + std::to_string(l + 1) + " has a range outside the LOD indices");
      }
    }
  }
  return {};
}

// The position of the first of `count` indices at `bytes` that is not below `limit`, or `count`.
// A branch-free maximum first: a valid mesh is one pass. Reads need no alignment.
template <typename Index>
uint64_t first_index_not_below(const std::byte* bytes, uint64_t count, uint32_t limit) {
  auto at = [&](uint64_t i) {
    Index v;
    std::memcpy(&v, bytes + i * sizeof(Index), sizeof(Index));
    return v;
  };
  Index largest = 0;
  for (uint64_t i = 0; i < count; ++i) largest = std::max(largest, at(i));
  if (largest < limit) return count;
  uint64_t i = 0;
  while (at(i) < limit) ++i;
  return i;
}

// first_index_not_below over the whole index buffer of `info` (LODs included).
uint64_t first_bad_index(const MeshInfo& info, const void* indices) {
  const auto* bytes = static_cast<const std::byte*>(indices);
  const uint64_t count = uint64_t(info.index_count) + info.lod_index_count;
  return info.index_size == 2 ? first_index_not_below<uint16_t>(bytes, count, info.vertex_count)
                              : first_index_not_below<uint32_t>(bytes, count, info.vertex_count);
}

// Every joint index of the skin stream (vertex_count records) is below skin_joint_count.
template <typename Record>
bool skin_joints_below(const std::byte* skin, uint32_t vertex_count, uint32_t limit) {
  for (uint32_t v = 0; v < vertex_count; ++v) {
    Record r;
    std::memcpy(&r, skin + size_t(v) * sizeof(Record), sizeof r);
    for (auto j : r.joints) {
      if (j >= limit) return false;
    }
  }
  return true;
}

bool skin_joints_in_range(const MeshInfo& info, const void* skin) {
  auto bytes = static_cast<const std::byte*>(skin);
  return info.skin_format == SkinFormat::J8W8
             ? skin_joints_below<Skin_J8W8>(bytes, info.vertex_count, info.skin_joint_count)
             : skin_joints_below<Skin_J16W16>(bytes, info.vertex_count, info.skin_joint_count);
}

bool indices_in_range(const MeshInfo& info, const void* indices) {
  return first_bad_index(info, indices) == uint64_t(info.index_count) + info.lod_index_count;
}

// Every meshlet stays inside its arrays and limits, and names only existing vertices.
bool meshlets_valid(const MeshInfo& info, MeshletView view) {
  for (uint32_t m = 0; m < info.meshlet_count; ++m) {
    const Meshlet& ml = view.meshlets[m];
    if (ml.vertex_count > kMaxMeshletVertices || ml.triangle_count > kMaxMeshletTriangles ||
        !inside(ml.vertex_offset, ml.vertex_count, 0, info.meshlet_vertex_count) ||
        !inside(ml.triangle_offset, uint64_t(ml.triangle_count) * 3, 0,
                uint64_t(info.meshlet_triangle_count) * 3)) {
      return false;
    }
    for (uint32_t t = 0; t < ml.triangle_count * 3; ++t) {
      if (view.triangles[ml.triangle_offset + t] >= ml.vertex_count) return false;
    }
  }
  const auto* vertices = reinterpret_cast<const std::byte*>(view.vertices);
  return first_index_not_below<uint32_t>(vertices, info.meshlet_vertex_count, info.vertex_count) ==
         info.meshlet_vertex_count;
}

// The meshlet section as one contiguous buffer: structs, vertex indices, triangle bytes (padded).
std::vector<std::byte> meshlet_section(const MeshInfo& info, const MeshletData& data) {
  std::vector<std::byte> bytes(info.meshlet_data_size, std::byte{0});
  size_t at = 0;
  auto put = [&](const void* src, size_t size) {
    if (size) std::memcpy(bytes.data() + at, src, size);
    at += size;
  };
  put(data.meshlets.data(), data.meshlets.size() * sizeof(Meshlet));
  put(data.vertices.data(), data.vertices.size() * sizeof(uint32_t));
  put(data.triangles.data(), data.triangles.size());
  return bytes;
}

// The skin stream matches the skin layout and indexes only the skeleton's joints.
Status check_pack_skin(const MeshInfo& info, const void* skin, size_t skin_size) {
  if (skin_size != info.skin_buffer_size || (skin_size > 0 && !skin)) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack_mesh: skin data holds " + std::to_string(skin_size) + " bytes, " +
                             std::to_string(info.skin_buffer_size) + " expected");
  }
  if (info.skin_format != SkinFormat::None && !skin_joints_in_range(info, skin)) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack_mesh: a skin joint index is >= skin_joint_count " +
                             std::to_string(info.skin_joint_count));
  }
  return {};
}

Status check_pack_inputs(const MeshInfo& info, const void* vertices, size_t vertices_size,
                         const void* indices, size_t indices_size, const MeshletData* meshlets) {
  auto wrong = [](const char* what, uint64_t got, uint64_t want) {
    return Status::error(ErrorCode::InvalidArgument, std::string("pack_mesh: ") + what + " holds " +
                                                         std::to_string(got) + " bytes, " +
                                                         std::to_string(want) + " expected");
  };
  if (vertices_size != info.vertex_buffer_size)
    return wrong("vertex data", vertices_size, info.vertex_buffer_size);
  if (indices_size != info.index_buffer_size)
    return wrong("index data", indices_size, info.index_buffer_size);
  if (!indices_in_range(info, indices)) {
    return Status::error(ErrorCode::InvalidArgument, "pack_mesh: an index is >= vertex_count");
  }
  if (!detail::positions_finite(vertices, info.vertex_count, info.vertex_stride)) {
    return Status::error(ErrorCode::InvalidArgument, "pack_mesh: a vertex position is not finite");
  }
  if ((info.meshlet_count || meshlets) &&
      (!meshlets || meshlets->meshlets.size() != info.meshlet_count ||
       meshlets->vertices.size() != info.meshlet_vertex_count ||
       meshlets->triangles.size() != uint64_t(info.meshlet_triangle_count) * 3)) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack_mesh: meshlet data does not match the meshlet counts");
  }
  return {};
}

// `info` as a default MeshInfo that keeps its memory. The entries of materials and lods stay, for
// mesh_from_json to reuse in place (vkguide::read_mesh starts from a default MeshInfo).
void reset_keeping_memory(MeshInfo& info) {
  MeshInfo fresh;
  fresh.materials.swap(info.materials);
  fresh.lods.swap(info.lods);
  fresh.submeshes.swap(info.submeshes);
  fresh.chunks.swap(info.chunks);
  fresh.original_file.swap(info.original_file);
  fresh.skeleton.swap(info.skeleton);
  fresh.submeshes.clear();
  fresh.chunks.clear();
  fresh.original_file.clear();
  fresh.skeleton.clear();
  info = std::move(fresh);
}

size_t bytes_held(const MeshInfo& info) {
  size_t bytes = info.materials.capacity() * sizeof(MeshMaterial) +
                 info.submeshes.capacity() * sizeof(Submesh) +
                 info.lods.capacity() * sizeof(MeshLod) + info.chunks.capacity() * sizeof(Chunk) +
                 info.original_file.capacity() + info.skeleton.capacity();
  if (bytes > detail::kReusedInfoBytes) return bytes;  // too much already: no need to walk
  for (const MeshMaterial& m : info.materials) {
    bytes += m.name.capacity() + m.base_color_texture.capacity() + m.normal_texture.capacity() +
             m.material.capacity();
  }
  for (const MeshLod& lod : info.lods) bytes += lod.submeshes.capacity() * sizeof(IndexRange);
  return bytes;
}

// Fills `out` (reset first) from parsed MESH metadata; `blob_size`: the blob's length in the file.
Status read_mesh(detail::JsonValue meta, uint64_t blob_size, MeshInfo& out) {
  reset_keeping_memory(out);
  detail::JsonReader reader("MESH metadata");
  detail::MeshMembers m(reader, meta);
  // Legacy metadata has no "vertex_count": only then is it worth looking for vkguide's keys.
  const bool legacy = !m["vertex_count"].found() && detail::vkguide::is_mesh(meta);
  if (legacy) {
    detail::vkguide::read_mesh(reader, meta, out);
  } else {
    detail::mesh_from_json(reader, m, out);
  }
  if (!reader.ok()) return reader.status();
  uint32_t stride = out.vertex_stride, skin_stride = out.skin_stride;
  if (Status s = complete_layout(out, "MESH metadata"); !s) return s;
  // What the caller will allocate to unpack it: checked before the chunk table is even read.
  if (Status s = detail::check_unpacked_size(mesh_unpacked_size(out), "MESH metadata"); !s)
    return s;
  if (stride != out.vertex_stride) {
    return invalid("MESH metadata", "vertex_stride " + std::to_string(stride) + " but " +
                                        vertex_format_name(out.vertex_format) + " vertices are " +
                                        std::to_string(out.vertex_stride) + " bytes");
  }
  if (skin_stride != out.skin_stride) {
    return invalid("MESH metadata", "skin stride " + std::to_string(skin_stride) + " but " +
                                        skin_format_name(out.skin_format) + " records are " +
                                        std::to_string(out.skin_stride) + " bytes");
  }
  if (Status s = check_ranges(out, "MESH metadata"); !s) return s;
  if (legacy) {
    detail::vkguide::read_chunks(reader, out.compression,
                                 {out.vertex_buffer_size, out.index_buffer_size}, blob_size,
                                 out.chunks);
  } else {
    detail::read_chunk_table(reader, m["compression"], m["chunks"], mesh_unpacked_size(out),
                             blob_size, out.compression, out.chunks);
  }
  return reader.status();
}

// Allocates nothing once this thread's parser and scratch info, and `info`, have grown.
Status read_mesh_info_throwing(const AssetView& file, MeshInfo& info) {
  detail::ParsedJson meta;
  if (Status s = detail::parse_metadata(file, "MESH", meta); !s) return s;
  return detail::read_reusing(info, bytes_held, [&](MeshInfo& out) {
    return read_mesh(meta.root(), file.blob.size(), out);
  });
}

Status pack_mesh_throwing(const MeshInfo& info_in, const void* vertices, size_t vertices_size,
                          const void* indices, size_t indices_size, AssetFile& out,
                          const PackOptions& options, const MeshletData* meshlets, const void* skin,
                          size_t skin_size) {
  MeshInfo info = info_in;
  if (info.vertex_format == VertexFormat::P32N8C8V16_VKGUIDE) {
    return invalid("pack_mesh", "P32N8C8V16_VKGUIDE is a read-only legacy vertex format");
  }
  if (Status s = complete_layout(info, "pack_mesh"); !s) return s;
  if (Status s = detail::check_unpacked_size(mesh_unpacked_size(info), "pack_mesh"); !s) return s;
  if (Status s = check_pack_inputs(info, vertices, vertices_size, indices, indices_size, meshlets);
      !s)
    return s;
  if (Status s = check_pack_skin(info, skin, skin_size); !s) return s;
  if (info.materials.empty()) {
    info.materials.emplace_back();
    info.materials.back().name = "default";
  }
  if (info.submeshes.empty()) {
    info.submeshes.push_back(Submesh{0, info.index_count, 0, {}, 0, info.meshlet_count});
  }
  if (Status s = check_ranges(info, "pack_mesh"); !s) return s;
  std::vector<std::byte> meshlet_bytes =
      meshlets ? meshlet_section(info, *meshlets) : std::vector<std::byte>();
  if (info.meshlet_count && !meshlets_valid(info, meshlet_view(info, meshlet_bytes.data()))) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack_mesh: a meshlet lies outside its arrays or limits");
  }
  info.bounds = compute_mesh_bounds(vertices, info.vertex_count, info.vertex_stride);
  // Finite positions can still be so far apart that the box or sphere overflows a float.
  if (!std::isfinite(info.bounds.radius)) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack_mesh: positions too large: the bounds overflow a float");
  }
  for (Submesh& sub : info.submeshes) {
    sub.bounds = detail::indexed_bounds(vertices, info.vertex_stride, indices, info.index_size,
                                        sub.first_index, sub.index_count);
  }

  const detail::RawSection sections[] = {
      {static_cast<const std::byte*>(vertices), info.vertex_buffer_size},
      {static_cast<const std::byte*>(indices), info.index_buffer_size},
      {meshlet_bytes.data(), info.meshlet_data_size},
      {static_cast<const std::byte*>(skin), info.skin_buffer_size}};
  std::vector<std::byte> blob;
  std::vector<Chunk> chunks;
  if (Status s = detail::pack_sections(sections, options, blob, chunks); !s) return s;
  json meta = detail::mesh_to_json(info);
  detail::write_chunk_table(meta, options.compression, chunks);
  return detail::finish_asset(out, "MESH", meta, std::move(blob), "pack_mesh");
}

}  // namespace

Status read_mesh_info(const AssetView& file, MeshInfo& info) {
  return detail::no_throw("MESH metadata", [&] { return read_mesh_info_throwing(file, info); });
}

Status pack_mesh(const MeshInfo& info, const void* vertices, size_t vertices_size,
                 const void* indices, size_t indices_size, AssetFile& out,
                 const PackOptions& options, const MeshletData* meshlets, const void* skin,
                 size_t skin_size) {
  return detail::no_throw("pack_mesh", [&] {
    return pack_mesh_throwing(info, vertices, vertices_size, indices, indices_size, out, options,
                              meshlets, skin, skin_size);
  });
}

Status unpack_mesh(const MeshInfo& info, const void* src, size_t src_size, void* vertex_dst,
                   size_t vertex_dst_size, void* index_dst, size_t index_dst_size) {
  // Allocates nothing but error messages (a legacy LZ4 mesh: also its decoding buffer).
  return detail::no_throw("unpack_mesh", [&] {
    // A legacy vkguide LZ4 mesh: one block for both buffers.
    if (info.compression == Compression::LegacyLZ4) {
      return detail::vkguide::unpack_mesh_whole(info, src, src_size, vertex_dst, vertex_dst_size,
                                                index_dst, index_dst_size);
    }
    // Both destinations are checked before either is written (mesh_unpack_jobs); the serial
    // unpack_jobs allocates nothing.
    UnpackJob jobs[2];
    std::span<const std::byte> blob(static_cast<const std::byte*>(src), src_size);
    if (Status s = mesh_unpack_jobs(info, blob, vertex_dst, vertex_dst_size, index_dst,
                                    index_dst_size, jobs[0], jobs[1]);
        !s) {
      return s;
    }
    return unpack_jobs(jobs);
  });
}

Status unpack_meshlets(const MeshInfo& info, const void* src, size_t src_size, void* dst,
                       size_t dst_size) {
  // Allocates nothing but error messages.
  return detail::no_throw("unpack_meshlets", [&] {
    uint64_t begin = info.vertex_buffer_size + info.index_buffer_size;
    if (reinterpret_cast<uintptr_t>(dst) % alignof(Meshlet) != 0) {
      return Status::error(ErrorCode::InvalidArgument,
                           "unpack_meshlets: destination must be 4-byte aligned");
    }
    if (Status s =
            detail::unpack_range(info.compression, info.chunks, begin,
                                 begin + info.meshlet_data_size, src, src_size, dst, dst_size);
        !s) {
      return s;
    }
    if (!meshlets_valid(info, meshlet_view(info, dst))) {
      return Status::error(ErrorCode::InvalidValue,
                           "meshlet data: a meshlet lies outside its arrays or limits");
    }
    return Status{};
  });
}

Status check_mesh_indices(const MeshInfo& info, const void* indices, size_t size) {
  return detail::no_throw("check_mesh_indices", [&]() -> Status {
    if (info.index_size != 2 && info.index_size != 4) {
      return Status::error(ErrorCode::InvalidArgument,
                           "check_mesh_indices: index_size " + std::to_string(info.index_size) +
                               " (2 or 4: an info from read_mesh_info)");
    }
    if (size < info.index_buffer_size) {
      return Status::error(ErrorCode::DestinationTooSmall,
                           "check_mesh_indices: " + std::to_string(size) + " bytes given, the " +
                               "index buffer has " + std::to_string(info.index_buffer_size));
    }
    const uint64_t at = first_bad_index(info, indices);
    if (at == uint64_t(info.index_count) + info.lod_index_count) return {};
    uint32_t value = 0;
    const auto* bytes = static_cast<const std::byte*>(indices) + at * info.index_size;
    if (info.index_size == 2) {
      uint16_t v16 = 0;
      std::memcpy(&v16, bytes, 2);
      value = v16;
    } else {
      std::memcpy(&value, bytes, 4);
    }
    return invalid("check_mesh_indices", "index " + std::to_string(at) + " is " +
                                             std::to_string(value) + ", not below the mesh's " +
                                             std::to_string(info.vertex_count) + " vertices");
  });
}

Status unpack_mesh_skin(const MeshInfo& info, const void* src, size_t src_size, void* dst,
                        size_t dst_size) {
  // Allocates nothing but error messages.
  return detail::no_throw("unpack_mesh_skin", [&] {
    if (info.skin_format == SkinFormat::None) {
      return Status::error(ErrorCode::InvalidArgument, "unpack_mesh_skin: the mesh has no skin");
    }
    uint64_t begin = info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size;
    if (Status s =
            detail::unpack_range(info.compression, info.chunks, begin,
                                 begin + info.skin_buffer_size, src, src_size, dst, dst_size);
        !s) {
      return s;
    }
    if (!skin_joints_in_range(info, dst)) {
      return Status::error(ErrorCode::InvalidValue,
                           "skin data: a joint index is >= the skeleton's " +
                               std::to_string(info.skin_joint_count) + " joints");
    }
    return Status{};
  });
}

MeshletView meshlet_view(const MeshInfo& info, const void* meshlet_data) {
  auto base = static_cast<const std::byte*>(meshlet_data);
  MeshletView view;
  view.meshlets = reinterpret_cast<const Meshlet*>(base);
  view.vertices =
      reinterpret_cast<const uint32_t*>(base + size_t(info.meshlet_count) * sizeof(Meshlet));
  view.triangles = reinterpret_cast<const uint8_t*>(view.vertices + info.meshlet_vertex_count);
  return view;
}

}  // namespace assetlib
