#include "common/mapped_asset.h"

namespace baker {

BakeStatus map_asset(const std::filesystem::path& path, MappedAsset& out) {
  const std::string name = path.string();
  out.view = {};  // never left pointing into a mapping that open() below replaces
  // The head first: it refuses what is not a regular file without blocking, and a header that
  // does not match the file's size, with the same words load_binaryfile uses.
  assetlib::AssetHead head;
  if (assetlib::Status s = assetlib::load_asset_head(name, head); !s)
    return BakeStatus::from_file_call(s, BakeError::InvalidAsset, name);
  if (BakeStatus s = MappedFile::open(path, out.file); !s) return s;
  // Checked again on the mapping: the file may have changed since its head was read.
  if (assetlib::Status s = assetlib::parse_binaryfile(out.file.bytes(), out.view, name); !s)
    return BakeStatus::from_file_call(s, BakeError::InvalidAsset, name);
  return {};
}

}  // namespace baker
