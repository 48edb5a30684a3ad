// A 2D VkImage with its own device-local memory and a view of all its levels, and the format
// queries that go with images.
#pragma once

#include "vk/gpu_memory.h"

#include <vulkan/vulkan.h>

#include <string>
#include <utility>

namespace sample {

struct ImageDesc {
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  uint32_t mip_levels = 1;
  VkImageUsageFlags usage = 0;
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  VkComponentMapping components{};  // of the view; identity by default
};

class GpuImage {
 public:
  GpuImage() = default;
  // With an `arena`, the image takes a slice of it instead of an allocation of its own.
  GpuImage(const VulkanContext& ctx, const ImageDesc& desc, const std::string& name,
           GpuMemoryArena* arena = nullptr);
  ~GpuImage() { release(); }
  GpuImage(GpuImage&& other) noexcept { *this = std::move(other); }
  GpuImage& operator=(GpuImage&& other) noexcept;
  GpuImage(const GpuImage&) = delete;
  GpuImage& operator=(const GpuImage&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  const ImageDesc& desc() const { return desc_; }

 private:
  void release() noexcept;

  VkDevice device_ = VK_NULL_HANDLE;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  Allocation memory_;
  ImageDesc desc_;
};

// Whether images of `format` with optimal tiling have every one of `features` on this device.
bool has_format_features(const VulkanContext& ctx, VkFormat format, VkFormatFeatureFlags features);
// The first depth attachment format the device supports, best precision first.
VkFormat choose_depth_format(const VulkanContext& ctx);
// Depth, plus stencil for the combined formats (views and barriers must name both).
VkImageAspectFlags depth_aspect(VkFormat format);

}  // namespace sample
