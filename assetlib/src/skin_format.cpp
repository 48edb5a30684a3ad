// The table of skin formats: names, strides and Vulkan attribute descriptions of the skin stream.
#include <assetlib/mesh_asset.h>

#include <cstddef>

namespace assetlib {
namespace {

// VkFormat enum values, so callers need no Vulkan headers to describe vertex input.
constexpr uint32_t kR8G8B8A8_UINT = 41;
constexpr uint32_t kR8G8B8A8_UNORM = 37;
constexpr uint32_t kR16G16B16A16_UINT = 95;
constexpr uint32_t kR16G16B16A16_UNORM = 91;

// Locations after the vertex formats' 0..5, so both streams feed one vertex shader.
constexpr uint32_t kJointsLocation = 6, kWeightsLocation = 7;

struct SkinFormatDesc {
  SkinFormat format;
  const char* name;
  uint32_t stride;
  VertexAttribute attributes[2];  // joints, weights
};

constexpr SkinFormatDesc kSkinFormats[] = {
    {SkinFormat::J8W8,
     "J8W8",
     sizeof(Skin_J8W8),
     {{kJointsLocation, kR8G8B8A8_UINT, offsetof(Skin_J8W8, joints)},
      {kWeightsLocation, kR8G8B8A8_UNORM, offsetof(Skin_J8W8, weights)}}},
    {SkinFormat::J16W16,
     "J16W16",
     sizeof(Skin_J16W16),
     {{kJointsLocation, kR16G16B16A16_UINT, offsetof(Skin_J16W16, joints)},
      {kWeightsLocation, kR16G16B16A16_UNORM, offsetof(Skin_J16W16, weights)}}},
};

const SkinFormatDesc* find(SkinFormat format) {
  for (const SkinFormatDesc& d : kSkinFormats) {
    if (d.format == format) return &d;
  }
  return nullptr;
}

}  // namespace

const char* skin_format_name(SkinFormat format) {
  if (format == SkinFormat::None) return "None";
  const SkinFormatDesc* d = find(format);
  return d ? d->name : "Unknown";
}

SkinFormat skin_format_from_name(std::string_view name) {
  for (const SkinFormatDesc& d : kSkinFormats) {
    if (name == d.name) return d.format;
  }
  return SkinFormat::None;
}

uint32_t skin_format_stride(SkinFormat format) {
  const SkinFormatDesc* d = find(format);
  return d ? d->stride : 0;
}

uint32_t skin_format_attributes(SkinFormat format, VertexAttribute out[2]) {
  const SkinFormatDesc* d = find(format);
  if (!d) return 0;
  out[0] = d->attributes[0];
  out[1] = d->attributes[1];
  return 2;
}

}  // namespace assetlib
