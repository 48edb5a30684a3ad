#include "baked_assets.h"

#include <assetlib/assetlib.h>

#include <stb/stb_image.h>

#include <lz4.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <optional>

namespace bench {
namespace fs = std::filesystem;

namespace {

// True when `status` is an error; its message (which names the file) then goes to `error`.
bool failed(const assetlib::Status& status, std::string& error) {
  if (!status) error = status.message;
  return !status;
}

// Format and unpacked size of a baked texture, and the size stb_image decodes its source to
// (what the baker holds in memory while baking it).
bool describe_texture(const assetlib::AssetFile& file, BakedAsset& asset, std::string& error) {
  assetlib::TextureInfo info;
  if (failed(assetlib::read_texture_info(file, info), error)) return false;
  asset.format = assetlib::texture_format_name(info.format);
  asset.unpacked_bytes = info.total_size;
  int w = 0, h = 0, comp = 0;
  const std::string source = asset.source.string();
  if (stbi_info(source.c_str(), &w, &h, &comp)) {
    asset.source_bytes_per_channel = stbi_is_hdr(source.c_str())      ? 4
                                     : stbi_is_16_bit(source.c_str()) ? 2
                                                                      : 1;
    asset.decoded_source_bytes =
        uint64_t(w) * uint64_t(h) * 4 * uint64_t(asset.source_bytes_per_channel);
  }
  return true;
}

// Vertex format and unpacked size (vertices, indices, meshlets) of a baked mesh.
bool describe_mesh(const assetlib::AssetFile& file, BakedAsset& asset, std::string& error) {
  assetlib::MeshInfo info;
  if (failed(assetlib::read_mesh_info(file, info), error)) return false;
  asset.format = assetlib::vertex_format_name(info.vertex_format);
  asset.unpacked_bytes = info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size;
  return true;
}

bool describe(BakedAsset& asset, std::string& error) {
  assetlib::AssetFile file;
  if (failed(assetlib::load_binaryfile(asset.baked.string(), file), error)) return false;
  return assetlib::has_type(file, "TEXI") ? describe_texture(file, asset, error)
                                          : describe_mesh(file, asset, error);
}

// The info structs every load here reads into, reused from call to call as an engine's are: a
// warm read_*_info allocates nothing (test_warm_reads.cpp), so what is measured does not either.
struct ReusedInfos {
  assetlib::TextureInfo texture;
  assetlib::MeshInfo mesh;
  assetlib::MaterialInfo material;
  assetlib::PrefabInfo prefab;
  assetlib::SkeletonInfo skeleton;
  assetlib::ClipInfo clip;
};

ReusedInfos& reused_infos() {
  static thread_local ReusedInfos infos;
  return infos;
}

bool unpack_texture_view(const assetlib::AssetView& view, StagingBuffers& staging) {
  assetlib::TextureInfo& info = reused_infos().texture;
  if (!assetlib::read_texture_info(view, info)) return false;
  std::byte* dst = staging.first.get(info.total_size);
  return bool(
      assetlib::unpack_texture(info, view.blob.data(), view.blob.size(), dst, info.total_size));
}

bool unpack_mesh_view(const assetlib::AssetView& view, StagingBuffers& staging) {
  assetlib::MeshInfo& info = reused_infos().mesh;
  if (!assetlib::read_mesh_info(view, info)) return false;
  std::byte* vertices = staging.first.get(info.vertex_buffer_size);
  std::byte* indices = staging.second.get(info.index_buffer_size);
  if (!assetlib::unpack_mesh(info, view.blob.data(), view.blob.size(), vertices,
                             info.vertex_buffer_size, indices, info.index_buffer_size)) {
    return false;
  }
  if (info.meshlet_data_size == 0) return true;
  std::byte* meshlets = staging.third.get(info.meshlet_data_size);
  return bool(assetlib::unpack_meshlets(info, view.blob.data(), view.blob.size(), meshlets,
                                        info.meshlet_data_size));
}

bool unpack_clip_view(const assetlib::AssetView& view, StagingBuffers& staging) {
  assetlib::ClipInfo& info = reused_infos().clip;
  if (!assetlib::read_clip_info(view, info)) return false;
  auto keys = reinterpret_cast<float*>(staging.first.get(info.key_float_count * sizeof(float)));
  return bool(assetlib::unpack_clip(info, view.blob.data(), view.blob.size(), keys,
                                    size_t(info.key_float_count)));
}

// Every asset type the baker writes; another is a failure, so a new type cannot go unmeasured.
bool unpack_view(const assetlib::AssetView& view, StagingBuffers& staging) {
  if (assetlib::has_type(view, "TEXI")) return unpack_texture_view(view, staging);
  if (assetlib::has_type(view, "MESH")) return unpack_mesh_view(view, staging);
  if (assetlib::has_type(view, "CLIP")) return unpack_clip_view(view, staging);
  // Metadata only: loading one is reading it.
  ReusedInfos& infos = reused_infos();
  if (assetlib::has_type(view, "MATL"))
    return bool(assetlib::read_material_info(view, infos.material));
  if (assetlib::has_type(view, "SKEL"))
    return bool(assetlib::read_skeleton_info(view, infos.skeleton));
  return assetlib::has_type(view, "PRFB") && assetlib::read_prefab_info(view, infos.prefab);
}

}  // namespace

bool read_baked_tree(const std::string& label, const std::string& variant,
                     const fs::path& source_root, const fs::path& baked_root, BakedTree& out,
                     std::string& error) {
  assetlib::Manifest manifest;
  if (failed(assetlib::load_manifest((baked_root / "manifest.json").string(), manifest), error))
    return false;
  out = BakedTree{label, variant, source_root, baked_root, {}};
  for (const assetlib::ManifestEntry& e : manifest.assets) {
    // Measured against their source decoders: images and OBJ files baked as one asset each. Parts
    // ("models/a.gltf#mesh/0", "a.png#normal") and metadata-only assets have no source of their
    // own.
    bool whole_source = e.name.find('#') == std::string::npos;
    if (!whole_source || (e.type != "TEXI" && e.type != "MESH")) continue;
    BakedAsset asset;
    asset.name = e.name;
    asset.source = source_root / e.name;
    asset.baked = baked_root / e.path;
    asset.type = e.type;
    asset.file_bytes = e.file_size;
    asset.unpacked_bytes = e.raw_size;
    std::error_code ec;
    asset.source_bytes = fs::file_size(asset.source, ec);
    if (ec) {
      error = asset.source.string() + ": " + ec.message();
      return false;
    }
    if (!describe(asset, error)) return false;
    out.assets.push_back(std::move(asset));
  }
  return true;
}

std::byte* Staging::get(uint64_t size) {
  if (bytes_.size() < size) {
    bytes_.clear();
    bytes_.shrink_to_fit();
    bytes_.resize(size_t(size));  // value-initialised: every page touched once here
  }
  return bytes_.data();
}

bool load_asset(const fs::path& path, StagingBuffers& staging) {
  assetlib::AssetFile file;
  return assetlib::load_binaryfile(path.string(), file) && unpack_view(file, staging);
}

bool load_asset_mapped(const fs::path& path, StagingBuffers& staging) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size <= 0) {
    ::close(fd);
    return false;
  }
  size_t size = size_t(st.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return false;
  assetlib::AssetView view;
  bool ok =
      assetlib::parse_binaryfile({static_cast<const std::byte*>(map), size}, view, path.string()) &&
      unpack_view(view, staging);
  ::munmap(map, size);
  return ok;
}

bool decode_chunk_bare(const std::byte* packed, uint64_t packed_size, std::byte* dst,
                       uint64_t raw_size) {
  if (packed_size == raw_size) {
    std::memcpy(dst, packed, raw_size);
    return true;
  }
  return LZ4_decompress_safe(reinterpret_cast<const char*>(packed), reinterpret_cast<char*>(dst),
                             int(packed_size), int(raw_size)) == int(raw_size);
}

MappedPack::~MappedPack() {
  if (map_) ::munmap(map_, size_);
}

bool MappedPack::open(const fs::path& path, std::string& error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || st.st_size <= 0) {
    if (fd >= 0) ::close(fd);
    error = path.string() + ": cannot open the pack";
    return false;
  }
  size_ = size_t(st.st_size);
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) {
    error = path.string() + ": cannot map the pack";
    return false;
  }
  map_ = map;
  return !failed(
      assetlib::open_pack({static_cast<const std::byte*>(map_), size_}, view, path.string()),
      error);
}

namespace {

bool pack_view(const MappedPack& pack, const std::string& name, assetlib::AssetView& view) {
  std::optional<assetlib::PackEntry> entry = assetlib::find_pack_entry(pack.view, name);
  return entry && assetlib::read_pack_asset(pack.view, *entry, view);
}

}  // namespace

bool load_pack_asset(const MappedPack& pack, const std::string& name, StagingBuffers& staging) {
  assetlib::AssetView view;
  return pack_view(pack, name, view) && unpack_view(view, staging);
}

bool read_pack_info(const MappedPack& pack, const std::string& name) {
  assetlib::AssetView view;
  if (!pack_view(pack, name, view)) return false;
  ReusedInfos& infos = reused_infos();
  return assetlib::has_type(view, "TEXI") ? assetlib::read_texture_info(view, infos.texture).ok()
                                          : assetlib::read_mesh_info(view, infos.mesh).ok();
}

}  // namespace bench
