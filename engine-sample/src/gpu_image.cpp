#include "gpu_image.h"

#include "vk_check.h"
#include "vulkan_context.h"

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
    vk_check(vkCreateImage(device_, &info, nullptr, &image_), ("vkCreateImage(" + name + ")").c_str());
    ctx.set_name(VK_OBJECT_TYPE_IMAGE, image_, name);

    VkMemoryRequirements requirements{};
    vkGetImageMemoryRequirements(device_, image_, &requirements);
    memory_ = arena ? arena->allocate(requirements, name)
                    : allocate_memory(ctx, requirements, MemoryUse::GpuOnly, name);
    vk_check(vkBindImageMemory(device_, image_, memory_.memory, memory_.offset), "vkBindImageMemory");

    VkImageViewCreateInfo view_info{};
    view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view_info.image = image_;
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = desc.format;
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

}  // namespace sample
