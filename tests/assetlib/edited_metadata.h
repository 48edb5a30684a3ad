// For the metadata-refusal tests: an asset whose JSON metadata is changed by one edit, the blob as
// it was, so each test can name exactly what a reader must refuse.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/texture_asset.h>

#include <nlohmann/json.hpp>

namespace test {

// `file` with its metadata parsed, changed by `edit(nlohmann::json&)` and written back.
template <typename Edit>
assetlib::AssetFile edited(const assetlib::AssetFile& file, Edit edit) {
  nlohmann::json meta = nlohmann::json::parse(file.json);
  edit(meta);
  assetlib::AssetFile out = file;
  out.json = meta.dump();
  return out;
}

// `texture` (a packed one) as writers laid it out before "mip_count": the list of its levels,
// "mips", in the count's place. Readers still take that form.
inline assetlib::AssetFile with_mip_list(const assetlib::AssetFile& texture) {
  assetlib::TextureInfo info;
  if (!assetlib::read_texture_info(texture, info)) return texture;  // the caller's check fails
  return edited(texture, [&](nlohmann::json& meta) {
    meta.erase("mip_count");
    meta["mips"] = nlohmann::json::array();
    for (const assetlib::TextureMip& mip : info.mips) {
      meta["mips"].push_back({{"width", mip.width},
                              {"height", mip.height},
                              {"offset", mip.offset},
                              {"size", mip.size}});
    }
  });
}

}  // namespace test
