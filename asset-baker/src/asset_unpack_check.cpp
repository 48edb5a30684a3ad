#include "asset_unpack_check.h"

#include <assetlib/mesh_asset.h>
#include <assetlib/texture_asset.h>

namespace baker {

using assetlib::Status;

Status unpack_whole_asset(const std::string& path, UnpackedAsset& out) {
  assetlib::AssetFile file;
  if (Status s = assetlib::load_binaryfile(path, file); !s) return s;
  out.type.assign(file.type, 4);
  if (assetlib::has_type(file, "TEXI")) {
    assetlib::TextureInfo info;
    if (Status s = assetlib::read_texture_info(file, info); !s) return s;
    std::vector<std::byte> pixels(info.total_size);
    out.raw_size = info.total_size;
    return assetlib::unpack_texture(info, file.blob.data(), file.blob.size(), pixels.data(), pixels.size());
  }
  assetlib::MeshInfo info;
  if (Status s = assetlib::read_mesh_info(file, info); !s) return s;
  for (const auto& m : info.materials) {
    for (const std::string* ref : {&m.base_color_texture, &m.normal_texture}) {
      if (!ref->empty()) out.texture_refs.push_back(*ref);
    }
  }
  std::vector<std::byte> vb(info.vertex_buffer_size), ib(info.index_buffer_size);
  std::vector<uint32_t> meshlets(info.meshlet_data_size / 4);
  out.raw_size = assetlib::mesh_unpacked_size(info);
  if (Status s = assetlib::unpack_mesh(info, file.blob.data(), file.blob.size(), vb.data(), vb.size(), ib.data(),
                                       ib.size());
      !s) {
    return s;
  }
  return assetlib::unpack_meshlets(info, file.blob.data(), file.blob.size(), meshlets.data(), info.meshlet_data_size);
}

}  // namespace baker
