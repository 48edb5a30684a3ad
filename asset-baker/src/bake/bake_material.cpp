#include "bake/bake_material.h"

namespace baker {

BakeStatus bake_material(const assetlib::MaterialInfo& material, const std::string& source,
                         assetlib::AssetFile& out) {
  return BakeStatus::from_memory_call(assetlib::pack_material(material, out),
                                      BakeError::InvalidSource, source);
}

}  // namespace baker
