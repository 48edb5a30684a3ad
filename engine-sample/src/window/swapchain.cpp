#include "window/swapchain.h"

#include "error.h"
#include "vk/render_pass.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <algorithm>
#include <string>

namespace sample {
namespace {

// An sRGB format, so the shader's linear output is encoded on store exactly as in the headless
// RGBA8_SRGB target and the window looks like the screenshot. Failing that, whatever comes first.
VkSurfaceFormatKHR choose_surface_format(const VulkanContext& ctx) {
  uint32_t count = 0;
  vk_check(
      vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical_device(), ctx.surface(), &count, nullptr),
      "vkGetPhysicalDeviceSurfaceFormatsKHR");
  std::vector<VkSurfaceFormatKHR> formats(count);
  vk_check(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical_device(), ctx.surface(), &count,
                                                formats.data()),
           "vkGetPhysicalDeviceSurfaceFormatsKHR");
  if (formats.empty()) throw SampleError("--window: the surface offers no formats");
  for (const VkSurfaceFormatKHR& f : formats) {
    bool srgb = f.format == VK_FORMAT_B8G8R8A8_SRGB || f.format == VK_FORMAT_R8G8B8A8_SRGB;
    if (srgb && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
  }
  return formats.front();
}

VkSurfaceCapabilitiesKHR surface_capabilities(const VulkanContext& ctx) {
  VkSurfaceCapabilitiesKHR caps{};
  vk_check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx.physical_device(), ctx.surface(), &caps),
           "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  return caps;
}

// The surface dictates the size unless it reports the special value 0xFFFFFFFF.
VkExtent2D choose_extent(const VkSurfaceCapabilitiesKHR& caps, VkExtent2D wanted) {
  if (caps.currentExtent.width != UINT32_MAX) return caps.currentExtent;
  return {std::clamp(wanted.width, caps.minImageExtent.width, caps.maxImageExtent.width),
          std::clamp(wanted.height, caps.minImageExtent.height, caps.maxImageExtent.height)};
}

// One more than the minimum, so the CPU can record the next frame while one image is displayed
// and another queued; maxImageCount 0 means no upper bound.
uint32_t choose_image_count(const VkSurfaceCapabilitiesKHR& caps) {
  uint32_t count = caps.minImageCount + 1;
  return caps.maxImageCount ? std::min(count, caps.maxImageCount) : count;
}

VkCompositeAlphaFlagBitsKHR choose_composite_alpha(const VkSurfaceCapabilitiesKHR& caps) {
  for (VkCompositeAlphaFlagBitsKHR mode :
       {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
        VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR}) {
    if (caps.supportedCompositeAlpha & mode) return mode;
  }
  return VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
}

std::vector<VkImage> swapchain_images(VkDevice device, VkSwapchainKHR swapchain) {
  uint32_t count = 0;
  vk_check(vkGetSwapchainImagesKHR(device, swapchain, &count, nullptr), "vkGetSwapchainImagesKHR");
  std::vector<VkImage> images(count);
  vk_check(vkGetSwapchainImagesKHR(device, swapchain, &count, images.data()),
           "vkGetSwapchainImagesKHR");
  return images;
}

}  // namespace

Swapchain::Swapchain(const VulkanContext& ctx)
    : ctx_(ctx),
      surface_format_(choose_surface_format(ctx)),
      depth_format_(choose_depth_format(ctx)) {}

Swapchain::~Swapchain() {
  destroy_images();
  if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
}

bool Swapchain::create(VkRenderPass render_pass, VkExtent2D wanted) {
  VkSurfaceCapabilitiesKHR caps = surface_capabilities(ctx_);
  VkExtent2D extent = choose_extent(caps, wanted);
  if (extent.width == 0 || extent.height == 0) return false;
  vk_check(vkDeviceWaitIdle(ctx_.device()), "vkDeviceWaitIdle(swapchain)");
  destroy_images();
  create_swapchain(caps, extent);
  create_images(render_pass);
  return true;
}

void Swapchain::create_swapchain(const VkSurfaceCapabilitiesKHR& caps, VkExtent2D extent) {
  VkSwapchainCreateInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
  info.surface = ctx_.surface();
  info.minImageCount = choose_image_count(caps);
  info.imageFormat = surface_format_.format;
  info.imageColorSpace = surface_format_.colorSpace;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  // One queue renders and presents, so the images need no sharing between families.
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = choose_composite_alpha(caps);
  // FIFO is the one mode every implementation has; it paces frames to the display.
  info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
  info.clipped = VK_TRUE;
  // Handing over the old swapchain lets the driver reuse its resources while it retires.
  info.oldSwapchain = swapchain_;
  VkSwapchainKHR created = VK_NULL_HANDLE;
  vk_check(vkCreateSwapchainKHR(ctx_.device(), &info, nullptr, &created), "vkCreateSwapchainKHR");
  if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
  swapchain_ = created;
  extent_ = extent;
}

void Swapchain::create_images(VkRenderPass render_pass) {
  depth_ = GpuImage(ctx_,
                    {depth_format_, extent_, 1, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                     depth_aspect(depth_format_)},
                    "window depth");
  std::vector<VkImage> images = swapchain_images(ctx_.device(), swapchain_);
  for (uint32_t i = 0; i < images.size(); ++i) add_image(images[i], render_pass, i);
}

// Each object goes straight into images_, so if a later one fails, destroy_images() (run by the
// next create() or ~Swapchain) still finds and frees it.
void Swapchain::add_image(VkImage image, VkRenderPass render_pass, uint32_t index) {
  std::string name = "swapchain image " + std::to_string(index);
  Image& out = images_.emplace_back();
  VkImageViewCreateInfo view_info{};
  view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  view_info.image = image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = surface_format_.format;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vk_check(vkCreateImageView(ctx_.device(), &view_info, nullptr, &out.view),
           "vkCreateImageView(swapchain)");
  ctx_.set_name(VK_OBJECT_TYPE_IMAGE_VIEW, out.view, name);

  out.framebuffer = create_color_depth_framebuffer(ctx_, render_pass, out.view, depth_.view(),
                                                   extent_, "vkCreateFramebuffer(swapchain)");

  out.rendered = ctx_.create_semaphore();
  ctx_.set_name(VK_OBJECT_TYPE_SEMAPHORE, out.rendered, name + " rendered");
}

void Swapchain::destroy_images() noexcept {
  VkDevice device = ctx_.device();
  for (const Image& image : images_) {
    if (image.rendered) vkDestroySemaphore(device, image.rendered, nullptr);
    if (image.framebuffer) vkDestroyFramebuffer(device, image.framebuffer, nullptr);
    if (image.view) vkDestroyImageView(device, image.view, nullptr);
  }
  images_.clear();
  depth_ = GpuImage();
}

}  // namespace sample
