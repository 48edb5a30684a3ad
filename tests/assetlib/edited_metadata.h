// For the metadata-refusal tests: an asset whose JSON metadata is changed by one edit, the blob as
// it was, so each test can name exactly what a reader must refuse.
#pragma once

#include <assetlib/asset_file.h>

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

}  // namespace test
