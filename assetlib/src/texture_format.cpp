// The table of texture formats: names, Vulkan equivalents and sizes.
#include <assetlib/texture_asset.h>

#include "mip_chain.h"

#include <algorithm>

namespace assetlib {
namespace {

struct FormatDesc {
  TextureFormat format;
  const char* name;
  uint32_t vk_format;        // VkFormat enum value
  uint32_t block_size;       // texels per block side (1 = uncompressed)
  uint32_t bytes_per_block;  // bytes per texel when block_size is 1
};

constexpr FormatDesc kFormats[] = {
    {TextureFormat::RGBA8_UNORM, "RGBA8_UNORM", 37 /* VK_FORMAT_R8G8B8A8_UNORM */, 1, 4},
    {TextureFormat::RGBA8_SRGB, "RGBA8_SRGB", 43 /* VK_FORMAT_R8G8B8A8_SRGB */, 1, 4},
    {TextureFormat::RGBA16_UNORM, "RGBA16_UNORM", 91 /* VK_FORMAT_R16G16B16A16_UNORM */, 1, 8},
    {TextureFormat::RGBA16_SFLOAT, "RGBA16_SFLOAT", 97 /* VK_FORMAT_R16G16B16A16_SFLOAT */, 1, 8},
    {TextureFormat::BC1_RGB_UNORM, "BC1_RGB_UNORM", 131 /* VK_FORMAT_BC1_RGB_UNORM_BLOCK */, 4, 8},
    {TextureFormat::BC1_RGB_SRGB, "BC1_RGB_SRGB", 132 /* VK_FORMAT_BC1_RGB_SRGB_BLOCK */, 4, 8},
    {TextureFormat::BC3_UNORM, "BC3_UNORM", 137 /* VK_FORMAT_BC3_UNORM_BLOCK */, 4, 16},
    {TextureFormat::BC3_SRGB, "BC3_SRGB", 138 /* VK_FORMAT_BC3_SRGB_BLOCK */, 4, 16},
    {TextureFormat::BC4_UNORM, "BC4_UNORM", 139 /* VK_FORMAT_BC4_UNORM_BLOCK */, 4, 8},
    {TextureFormat::BC5_UNORM, "BC5_UNORM", 141 /* VK_FORMAT_BC5_UNORM_BLOCK */, 4, 16},
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

uint32_t texture_block_size(TextureFormat format) {
  const FormatDesc* d = find(format);
  return d ? d->block_size : 1;
}

uint64_t texture_level_size(TextureFormat format, uint32_t width, uint32_t height) {
  const FormatDesc* d = find(format);
  if (!d) return 0;
  uint64_t blocks_x = (uint64_t(width) + d->block_size - 1) / d->block_size;
  uint64_t blocks_y = (uint64_t(height) + d->block_size - 1) / d->block_size;
  return blocks_x * blocks_y * d->bytes_per_block;
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
  info.total_size = detail::lay_out_mip_chain(format, width, height, mip_count, info.mips);
  return info;
}

namespace detail {

uint64_t lay_out_mip_chain(TextureFormat format, uint32_t width, uint32_t height, uint32_t count,
                           std::vector<TextureMip>& mips) {
  uint64_t offset = 0;
  for (uint32_t level = 0; level < count; ++level) {
    TextureMip mip;
    mip.width = mip_side(width, level);
    mip.height = mip_side(height, level);
    mip.offset = offset;
    mip.size = texture_level_size(format, mip.width, mip.height);
    offset += mip.size;
    mips.push_back(mip);
  }
  return offset;
}

}  // namespace detail

}  // namespace assetlib
