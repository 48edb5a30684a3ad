// The one render pass shape this sample uses, offscreen and in a window: a colour and a depth
// attachment, both cleared, one subpass.
#pragma once

#include "vk/vulkan_context.h"

#include <vulkan/vulkan.h>

#include <span>

namespace sample {

// Colour ends in `color_final_layout` (TRANSFER_SRC for a readback, PRESENT_SRC for a swapchain),
// so the render pass does the transition; `dependencies` order it against what comes before and
// after. Depth is not stored. `what` names the pass in errors.
VkRenderPass create_color_depth_render_pass(const VulkanContext& ctx, VkFormat color,
                                            VkFormat depth, VkImageLayout color_final_layout,
                                            std::span<const VkSubpassDependency> dependencies,
                                            const char* what);

// A framebuffer of `render_pass` over one colour and one depth view of `extent`.
VkFramebuffer create_color_depth_framebuffer(const VulkanContext& ctx, VkRenderPass render_pass,
                                             VkImageView color, VkImageView depth,
                                             VkExtent2D extent, const char* what);

}  // namespace sample
