#include "render/screenshot.h"

#include "error.h"

#include <assetlib/asset_file.h>
#include <assetlib/texture_asset.h>

namespace sample {
namespace {

assetlib::TextureFormat texture_format(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_SRGB: return assetlib::TextureFormat::RGBA8_SRGB;
    case VK_FORMAT_R8G8B8A8_UNORM: return assetlib::TextureFormat::RGBA8_UNORM;
    default: return assetlib::TextureFormat::Unknown;
  }
}

}  // namespace

void save_screenshot(const std::string& path, VkFormat format, VkExtent2D extent,
                     std::span<const std::byte> pixels) {
  assetlib::TextureFormat tx_format = texture_format(format);
  if (tx_format == assetlib::TextureFormat::Unknown) {
    throw SampleError(path, "the render target format has no .tx equivalent");
  }
  // One level: a screenshot is looked at, not sampled, so a mip chain would only cost bytes.
  assetlib::TextureInfo info =
      assetlib::make_texture_info(tx_format, extent.width, extent.height, 1);
  info.original_file = "engine-sample screenshot";
  assetlib::AssetFile file;
  if (assetlib::Status s = assetlib::pack_texture(info, pixels.data(), pixels.size(), file); !s) {
    throw SampleError::from_memory_call(path, s);
  }
  if (assetlib::Status s = assetlib::save_binaryfile(path, file); !s) {
    throw SampleError::from_file_call(path, s);
  }
}

}  // namespace sample
