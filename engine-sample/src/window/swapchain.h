// The window's swapchain and what rendering into its images needs: per image a view, a
// framebuffer and the semaphore presenting waits on; one depth image they all share. Rebuilt whole
// when the window changes size. Knows the surface only through VulkanContext, not GLFW.
#pragma once

#include "vk/gpu_image.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace sample {

class VulkanContext;

class Swapchain {
 public:
  // Chooses the colour and depth formats; create() makes the swapchain itself.
  explicit Swapchain(const VulkanContext& ctx);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  VkFormat color_format() const { return surface_format_.format; }
  VkFormat depth_format() const { return depth_format_; }

  // (Re)creates the swapchain and per-image objects for `render_pass`, sized to the surface, or
  // to `wanted` where the surface leaves that to the application. Waits for the device to idle
  // first, since the old images may still be in use. Returns false, and keeps the old swapchain,
  // while the surface has no area (a minimised window).
  bool create(VkRenderPass render_pass, VkExtent2D wanted);

  VkSwapchainKHR handle() const { return swapchain_; }
  VkExtent2D extent() const { return extent_; }
  VkFramebuffer framebuffer(uint32_t image) const { return images_[image].framebuffer; }
  // Signalled by the submit that renders `image`, waited on by presenting it. Per image, not per
  // frame in flight: the image is only acquired again once its previous present is under way.
  VkSemaphore rendered(uint32_t image) const { return images_[image].rendered; }

 private:
  struct Image {
    VkImageView view = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    VkSemaphore rendered = VK_NULL_HANDLE;
  };

  void create_swapchain(const VkSurfaceCapabilitiesKHR& caps, VkExtent2D extent);
  void create_images(VkRenderPass render_pass);
  void add_image(VkImage image, VkRenderPass render_pass, uint32_t index);
  void destroy_images() noexcept;

  const VulkanContext& ctx_;
  VkSurfaceFormatKHR surface_format_{};
  VkFormat depth_format_ = VK_FORMAT_UNDEFINED;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkExtent2D extent_{};
  GpuImage depth_;
  std::vector<Image> images_;
};

}  // namespace sample
