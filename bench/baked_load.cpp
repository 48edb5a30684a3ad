#include "baked_load.h"

#include <assetlib/assetlib.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bench {
namespace {

bool unpack_texture_view(const assetlib::AssetView& view, StagingBuffers& staging) {
  assetlib::TextureInfo info;
  if (!assetlib::read_texture_info(view, info)) return false;
  std::byte* dst = staging.first.get(info.total_size);
  return bool(assetlib::unpack_texture(info, view.blob.data(), view.blob.size(), dst, info.total_size));
}

bool unpack_mesh_view(const assetlib::AssetView& view, StagingBuffers& staging) {
  assetlib::MeshInfo info;
  if (!assetlib::read_mesh_info(view, info)) return false;
  std::byte* vertices = staging.first.get(info.vertex_buffer_size);
  std::byte* indices = staging.second.get(info.index_buffer_size);
  if (!assetlib::unpack_mesh(info, view.blob.data(), view.blob.size(), vertices, info.vertex_buffer_size, indices,
                             info.index_buffer_size)) {
    return false;
  }
  if (info.meshlet_data_size == 0) return true;
  std::byte* meshlets = staging.third.get(info.meshlet_data_size);
  return bool(assetlib::unpack_meshlets(info, view.blob.data(), view.blob.size(), meshlets, info.meshlet_data_size));
}

bool unpack_view(const assetlib::AssetView& view, StagingBuffers& staging) {
  if (assetlib::has_type(view, "TEXI")) return unpack_texture_view(view, staging);
  if (assetlib::has_type(view, "MESH")) return unpack_mesh_view(view, staging);
  return false;
}

}  // namespace

bool load_texture(const std::filesystem::path& path, StagingBuffers& staging) {
  assetlib::AssetFile file;
  return assetlib::load_binaryfile(path.string(), file) && unpack_texture_view(file, staging);
}

bool load_mesh(const std::filesystem::path& path, StagingBuffers& staging) {
  assetlib::AssetFile file;
  return assetlib::load_binaryfile(path.string(), file) && unpack_mesh_view(file, staging);
}

bool load_asset(const std::filesystem::path& path, StagingBuffers& staging) {
  assetlib::AssetFile file;
  return assetlib::load_binaryfile(path.string(), file) && unpack_view(file, staging);
}

bool load_asset_mapped(const std::filesystem::path& path, StagingBuffers& staging) {
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
  bool ok = assetlib::parse_binaryfile({static_cast<const std::byte*>(map), size}, view, path.string()) &&
            unpack_view(view, staging);
  ::munmap(map, size);
  return ok;
}

}  // namespace bench
