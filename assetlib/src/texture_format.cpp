// The table of texture formats: names, Vulkan equivalents and sizes.
#include <assetlib/texture_asset.h>

#include <algorithm>

namespace assetlib {
namespace {

struct FormatDesc {
  TextureFormat format;
  const char* name;
  uint32_t vk_format;        // VkFormat enum value
  uint32_t bytes_per_texel;
};

constexpr FormatDesc kFormats[] = {
    {TextureFormat::RGBA8_UNORM, "RGBA8_UNORM", 37 /* VK_FORMAT_R8G8B8A8_UNORM */, 4},
    {TextureFormat::RGBA8_SRGB, "RGBA8_SRGB", 43 /* VK_FORMAT_R8G8B8A8_SRGB */, 4},
    {TextureFormat::RGBA16_UNORM, "RGBA16_UNORM", 91 /* VK_FORMAT_R16G16B16A16_UNORM */, 8},
    {TextureFormat::RGBA16_SFLOAT, "RGBA16_SFLOAT", 97 /* VK_FORMAT_R16G16B16A16_SFLOAT */, 8},
};

const FormatDesc* find(TextureFormat format) {
  for (const FormatDesc& d : kFormats) {
    if (d.format == format) return &d;
  }
  return nullptr;
}

}  // namespace

const char* texture_format_name(TextureFormat format) {
  const FormatDesc* d = find(format);
  return d ? d->name : "Unknown";
}

uint32_t texture_format_vk(TextureFormat format) {
  const FormatDesc* d = find(format);
  return d ? d->vk_format : 0;
}

TextureFormat texture_format_from_name(std::string_view name) {
  for (const FormatDesc& d : kFormats) {
    if (name == d.name) return d.format;
  }
  return TextureFormat::Unknown;
}

uint64_t texture_level_size(TextureFormat format, uint32_t width, uint32_t height) {
  const FormatDesc* d = find(format);
  return d ? uint64_t(width) * height * d->bytes_per_texel : 0;
}

uint32_t texture_full_mip_count(uint32_t width, uint32_t height) {
  uint32_t count = 1;
  for (uint32_t size = std::max(width, height); size > 1; size /= 2) ++count;
  return count;
}

TextureInfo make_texture_info(TextureFormat format, uint32_t width, uint32_t height,
                              uint32_t mip_count) {
  TextureInfo info;
  info.format = format;
  info.width = width;
  info.height = height;
  mip_count = std::clamp(mip_count, 1u, texture_full_mip_count(width, height));
  for (uint32_t level = 0; level < mip_count; ++level) {
    TextureMip mip;
    mip.width = std::max(1u, width >> level);
    mip.height = std::max(1u, height >> level);
    mip.offset = info.total_size;
    mip.size = texture_level_size(format, mip.width, mip.height);
    info.total_size += mip.size;
    info.mips.push_back(mip);
  }
  return info;
}

}  // namespace assetlib
