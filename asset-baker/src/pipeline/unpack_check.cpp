#include "pipeline/unpack_check.h"

#include <assetlib/clip_asset.h>
#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/prefab_asset.h>
#include <assetlib/skeleton_asset.h>
#include <assetlib/texture_asset.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>
#include <span>
#include <stdexcept>

namespace baker {

namespace {

// Memory running out is the machine's limit, not the file's fault.
BakeError error_for(const assetlib::Status& s) {
  return s.code == assetlib::ErrorCode::OutOfMemory ? BakeError::Internal : BakeError::InvalidAsset;
}

BakeStatus about(const std::string& path, const assetlib::Status& s) {
  return BakeStatus::from_memory_call(s, error_for(s), path);
}

// Chunks never straddle two sections (mip levels; vertex, index and meshlet data), so each section
// unpacks on its own (unpack_texture_mips, unpack_mesh): every section start is a chunk start.
BakeStatus check_section_starts(const std::string& path, std::span<const assetlib::Chunk> chunks,
                                std::span<const uint64_t> starts, const char* what) {
  uint64_t total = chunks.empty() ? 0 : chunks.back().raw_offset + chunks.back().raw_size;
  size_t next = 0;
  for (uint64_t start : starts) {
    while (next < chunks.size() && chunks[next].raw_offset < start) ++next;
    // The chunks are contiguous from 0 (read_*_info checked): `start` is either where chunk `next`
    // begins or the end of the data (an empty last section); otherwise chunk next - 1 spans it.
    bool on_boundary = next < chunks.size() ? chunks[next].raw_offset == start : start == total;
    if (!on_boundary) {
      return BakeStatus::failure(BakeError::InvalidAsset, path,
                                 "chunk " + std::to_string(next - 1) + " straddles two " + what +
                                     " (at unpacked byte " + std::to_string(start) + ")");
    }
  }
  return {};
}

// Sees each chunk's unpacked bytes, in order; a failure stops the unpacking.
using ChunkVisitor =
    std::function<BakeStatus(const assetlib::Chunk&, std::span<const std::byte> unpacked)>;

// Every chunk decompressed into `buffer` (as large as the largest chunk), in order.
BakeStatus unpack_each_chunk(const std::string& path, assetlib::Compression compression,
                             std::span<const assetlib::Chunk> chunks,
                             std::span<const std::byte> blob, const ChunkVisitor& visit = {}) {
  uint64_t largest = 0;
  for (const assetlib::Chunk& c : chunks) largest = std::max(largest, c.raw_size);
  std::vector<std::byte> buffer(largest);
  for (const assetlib::Chunk& c : chunks) {
    assetlib::Status s = assetlib::unpack_chunk(compression, c, blob.data(), blob.size(),
                                                buffer.data(), buffer.size());
    if (!s) return about(path, s);
    if (visit) {
      if (BakeStatus v = visit(c, std::span(buffer).first(size_t(c.raw_size))); !v) return v;
    }
  }
  return {};
}

// A mesh's indices (LOD 0 and the coarser LODs) against its vertex count, as their chunks go by:
// a loader draws with them unchecked (mesh_asset.h). An index may straddle two chunks.
class IndexCheck {
 public:
  IndexCheck(const std::string& path, const assetlib::MeshInfo& info)
      : path_(path),
        begin_(info.vertex_buffer_size),
        end_(info.vertex_buffer_size + info.index_buffer_size),
        index_size_(info.index_size),
        vertex_count_(info.vertex_count) {}

  BakeStatus operator()(const assetlib::Chunk& c, std::span<const std::byte> unpacked) {
    const uint64_t from = std::max(c.raw_offset, begin_);
    const uint64_t to = std::min(c.raw_offset + c.raw_size, end_);
    for (uint64_t at = from; at < to; ++at) {
      pending_[filled_++] = unpacked[size_t(at - c.raw_offset)];
      if (filled_ < index_size_) continue;
      filled_ = 0;
      uint32_t value = 0;
      if (index_size_ == 2) {
        uint16_t v16 = 0;
        std::memcpy(&v16, pending_, 2);
        value = v16;
      } else {
        std::memcpy(&value, pending_, 4);
      }
      if (value >= vertex_count_) {
        return BakeStatus::failure(BakeError::InvalidAsset, path_,
                                   "index " + std::to_string(index_) + " is " +
                                       std::to_string(value) + ", not below the mesh's " +
                                       std::to_string(vertex_count_) + " vertices");
      }
      ++index_;
    }
    return {};
  }

 private:
  const std::string& path_;
  uint64_t begin_, end_;
  uint32_t index_size_, vertex_count_;
  std::byte pending_[4] = {};
  uint32_t filled_ = 0;
  uint64_t index_ = 0;
};

BakeStatus check_material(const std::string& path, const assetlib::AssetView& file,
                          UnpackedAsset& out) {
  assetlib::MaterialInfo info;
  if (assetlib::Status s = assetlib::read_material_info(file, info); !s) return about(path, s);
  for (const assetlib::TextureSlot* slot : {&info.base_color, &info.metallic_roughness,
                                            &info.normal, &info.occlusion, &info.emissive}) {
    if (!slot->texture.empty()) out.references.push_back({slot->texture, "TEXI"});
  }
  return {};
}

BakeStatus check_prefab(const std::string& path, const assetlib::AssetView& file,
                        UnpackedAsset& out) {
  assetlib::PrefabInfo info;
  if (assetlib::Status s = assetlib::read_prefab_info(file, info); !s) return about(path, s);
  const auto nodes = uint32_t(info.nodes.size());
  auto indexing_nodes = [&](const std::string& name, const char* type) {
    AssetReference ref(name, type);
    ref.node_count = nodes;
    return ref;
  };
  for (const assetlib::PrefabNode& node : info.nodes) {
    if (!node.mesh.empty()) {
      AssetReference mesh(node.mesh, "MESH");
      if (!info.legacy) mesh.submesh_count = uint32_t(node.materials.size());
      mesh.skeleton = node.skin;
      out.references.push_back(std::move(mesh));
    }
    for (const std::string& material : node.materials) out.references.push_back({material, "MATL"});
    if (!node.skin.empty()) out.references.push_back(indexing_nodes(node.skin, "SKEL"));
  }
  for (const std::string& clip : info.clips) out.references.push_back(indexing_nodes(clip, "CLIP"));
  return {};
}

BakeStatus check_skeleton(const std::string& path, const assetlib::AssetView& file,
                          UnpackedAsset& out) {
  assetlib::SkeletonInfo info;
  if (assetlib::Status s = assetlib::read_skeleton_info(file, info); !s) return about(path, s);
  out.joint_count = uint32_t(info.joints.size());
  for (const assetlib::SkeletonJoint& joint : info.joints)
    out.nodes_used = std::max(out.nodes_used, uint64_t(int64_t(joint.node) + 1));
  return {};
}

// A clip's keys are checked across its chunks (times increasing, every float finite): unpacked
// whole.
BakeStatus check_clip(const std::string& path, const assetlib::AssetView& file,
                      UnpackedAsset& out) {
  assetlib::ClipInfo info;
  if (assetlib::Status s = assetlib::read_clip_info(file, info); !s) return about(path, s);
  out.raw_size = assetlib::clip_unpacked_size(info);
  for (const assetlib::ClipChannel& channel : info.channels)
    out.nodes_used = std::max(out.nodes_used, uint64_t(channel.node) + 1);
  std::vector<float> keys(info.key_float_count);
  return about(path, assetlib::unpack_clip(info, file.blob.data(), file.blob.size(), keys.data(),
                                           keys.size()));
}

// The skin stream's joint indices are checked against the skeleton's joint count, which needs the
// section whole (a record may straddle two chunks).
BakeStatus check_mesh_skin(const std::string& path, const assetlib::AssetView& file,
                           const assetlib::MeshInfo& info, UnpackedAsset& out) {
  if (info.skin_format == assetlib::SkinFormat::None) return {};
  AssetReference skeleton(info.skeleton, "SKEL");
  skeleton.joint_count = info.skin_joint_count;
  out.references.push_back(std::move(skeleton));
  std::vector<std::byte> skin(info.skin_buffer_size);
  return about(path, assetlib::unpack_mesh_skin(info, file.blob.data(), file.blob.size(),
                                                skin.data(), skin.size()));
}

BakeStatus unpack_view(const std::string& path, const assetlib::AssetView& file,
                       UnpackedAsset& out) {
  out.type.assign(file.type, 4);
  if (assetlib::has_type(file, "TEXI")) {
    assetlib::TextureInfo info;
    if (assetlib::Status s = assetlib::read_texture_info(file, info); !s) return about(path, s);
    out.raw_size = info.total_size;
    std::vector<uint64_t> starts;
    for (const assetlib::TextureMip& mip : info.mips) starts.push_back(mip.offset);
    if (BakeStatus s = check_section_starts(path, info.chunks, starts, "mip levels"); !s) return s;
    return unpack_each_chunk(path, info.compression, info.chunks, file.blob);
  }
  if (assetlib::has_type(file, "MATL")) return check_material(path, file, out);
  if (assetlib::has_type(file, "PRFB")) return check_prefab(path, file, out);
  if (assetlib::has_type(file, "SKEL")) return check_skeleton(path, file, out);
  if (assetlib::has_type(file, "CLIP")) return check_clip(path, file, out);
  assetlib::MeshInfo info;
  if (assetlib::Status s = assetlib::read_mesh_info(file, info); !s) return about(path, s);
  for (const auto& m : info.materials) {
    for (const std::string* ref : {&m.base_color_texture, &m.normal_texture}) {
      if (!ref->empty()) out.references.push_back({*ref, "TEXI"});
    }
    if (!m.material.empty()) out.references.push_back({m.material, "MATL"});
  }
  out.raw_size = assetlib::mesh_unpacked_size(info);
  const uint64_t starts[] = {
      0, info.vertex_buffer_size, info.vertex_buffer_size + info.index_buffer_size,
      info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size};
  if (BakeStatus s = check_section_starts(path, info.chunks, starts,
                                          "sections (vertices, indices, meshlets, skin)");
      !s) {
    return s;
  }
  out.submesh_count = uint32_t(info.submeshes.size());
  out.skeleton = info.skeleton;
  if (BakeStatus s =
          unpack_each_chunk(path, info.compression, info.chunks, file.blob, IndexCheck(path, info));
      !s)
    return s;
  if (BakeStatus s = check_mesh_skin(path, file, info, out); !s) return s;
  if (info.meshlet_data_size == 0) return {};
  // Meshlets are checked against their arrays, which needs the section whole (4-byte aligned).
  std::vector<uint32_t> meshlets(info.meshlet_data_size / 4);
  return about(path, assetlib::unpack_meshlets(info, file.blob.data(), file.blob.size(),
                                               meshlets.data(), info.meshlet_data_size));
}

BakeStatus unpack_streaming(const std::string& path, UnpackedAsset& out) {
  assetlib::AssetFile file;
  if (assetlib::Status s = assetlib::load_binaryfile(path, file); !s) {
    return BakeStatus::from_file_call(s, error_for(s), path);
  }
  return unpack_view(path, file, out);
}

// Running out of memory is reported about `name`, never thrown.
template <typename Check>
BakeStatus out_of_memory_as_failure(const std::string& name, Check&& check) {
  try {
    return check();
  } catch (const std::bad_alloc&) {
    return BakeStatus::failure(BakeError::Internal, name,
                               "out of memory while unpacking (std::bad_alloc)");
  } catch (const std::length_error&) {
    return BakeStatus::failure(BakeError::Internal, name,
                               "out of memory while unpacking (std::length_error)");
  }
}

}  // namespace

BakeStatus unpack_whole_asset(const std::string& path, UnpackedAsset& out) {
  return out_of_memory_as_failure(path, [&] { return unpack_streaming(path, out); });
}

BakeStatus unpack_whole_view(const assetlib::AssetView& asset, const std::string& name,
                             UnpackedAsset& out) {
  return out_of_memory_as_failure(name, [&] { return unpack_view(name, asset, out); });
}

BakeStatus read_unpacked_size(const assetlib::AssetView& asset, const std::string& name,
                              uint64_t& out) {
  out = 0;
  if (assetlib::has_type(asset, "TEXI")) {
    assetlib::TextureInfo info;
    if (assetlib::Status s = assetlib::read_texture_info(asset, info); !s) return about(name, s);
    out = info.total_size;
  } else if (assetlib::has_type(asset, "MESH")) {
    assetlib::MeshInfo info;
    if (assetlib::Status s = assetlib::read_mesh_info(asset, info); !s) return about(name, s);
    out = assetlib::mesh_unpacked_size(info);
  } else if (assetlib::has_type(asset, "CLIP")) {
    assetlib::ClipInfo info;
    if (assetlib::Status s = assetlib::read_clip_info(asset, info); !s) return about(name, s);
    out = assetlib::clip_unpacked_size(info);
  }
  return {};
}

}  // namespace baker
