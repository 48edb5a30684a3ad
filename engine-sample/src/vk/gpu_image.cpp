#include "vk/gpu_image.h"

#include "error.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <utility>

namespace sample {

GpuImage::GpuImage(const VulkanContext& ctx, const ImageDesc& desc, const std::string& name,
                   GpuMemoryArena* arena)
    : device_(ctx.device()), desc_(desc) {
  try {
    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = desc.format;
    info.extent = {desc.extent.width, desc.extent.height, 1};
    info.mipLevels = desc.mip_levels;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = desc.usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    vk_check(vkCreateImage(device_, &info, nullptr, &image_),
             ("vkCreateImage(" + name + ")").c_str());
    ctx.set_name(VK_OBJECT_TYPE_IMAGE, image_, name);

    VkMemoryRequirements requirements{};
    vkGetImageMemoryRequirements(device_, image_, &requirements);
    memory_ = arena ? arena->allocate(requirements, name)
                    : allocate_memory(ctx, requirements, MemoryUse::GpuOnly, name);
    vk_check(vkBindImageMemory(device_, image_, memory_.memory, memory_.offset),
             "vkBindImageMemory");

    VkImageViewCreateInfo view_info{};
    view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view_info.image = image_;
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = desc.format;
    view_info.components = desc.components;
    view_info.subresourceRange = {desc.aspect, 0, desc.mip_levels, 0, 1};
    vk_check(vkCreateImageView(device_, &view_info, nullptr, &view_),
             ("vkCreateImageView(" + name + ")").c_str());
    ctx.set_name(VK_OBJECT_TYPE_IMAGE_VIEW, view_, name);
  } catch (...) {
    release();
    throw;
  }
}

GpuImage& GpuImage::operator=(GpuImage&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, Allocation{});
    desc_ = other.desc_;
  }
  return *this;
}

void GpuImage::release() noexcept {
  if (!device_) return;
  if (view_) vkDestroyImageView(device_, view_, nullptr);
  if (image_) vkDestroyImage(device_, image_, nullptr);
  if (memory_.memory && memory_.owned) vkFreeMemory(device_, memory_.memory, nullptr);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = {};
  device_ = VK_NULL_HANDLE;
}

bool has_format_features(const VulkanContext& ctx, VkFormat format, VkFormatFeatureFlags features) {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format, &properties);
  return (properties.optimalTilingFeatures & features) == features;
}

VkFormat choose_depth_format(const VulkanContext& ctx) {
  for (VkFormat format :
       {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D24_UNORM_S8_UINT,
        VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D16_UNORM}) {
    if (has_format_features(ctx, format, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) {
      return format;
    }
  }
  throw SampleError("no depth attachment format on this device");
}

VkImageAspectFlags depth_aspect(VkFormat format) {
  bool stencil = format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
  if (stencil) aspect |= VK_IMAGE_ASPECT_STENCIL_BIT;
  return aspect;
}

}  // namespace sample
