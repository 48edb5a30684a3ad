#include "common/mapped_asset.h"

namespace baker {

BakeStatus map_asset(const std::filesystem::path& path, MappedAsset& out) {
  const std::string name = path.string();
  out.view = {};  // never left pointing into a mapping that open() below replaces
  if (BakeStatus mapped = MappedFile::open(path, out.file); !mapped) {
    // Said in load_binaryfile's words (a missing file, a FIFO, a folder), which the head read
    // gives without blocking; the mapping's own reason when that read succeeds after all.
    assetlib::AssetHead head;
    assetlib::Status s = assetlib::load_asset_head(name, head);
    return s ? mapped : BakeStatus::from_file_call(s, BakeError::InvalidAsset, name);
  }
  if (assetlib::Status s = assetlib::parse_binaryfile(out.file.bytes(), out.view, name); !s)
    return BakeStatus::from_file_call(s, BakeError::InvalidAsset, name);
  return {};
}

}  // namespace baker
