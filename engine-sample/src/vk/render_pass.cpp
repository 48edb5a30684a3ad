#include "vk/render_pass.h"

#include "vk/vk_check.h"

namespace sample {

VkRenderPass create_color_depth_render_pass(const VulkanContext& ctx, VkFormat color,
                                            VkFormat depth, VkImageLayout color_final_layout,
                                            std::span<const VkSubpassDependency> dependencies,
                                            const char* what) {
  VkAttachmentDescription attachments[2]{};
  attachments[0].format = color;
  attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachments[0].finalLayout = color_final_layout;
  attachments[1] = attachments[0];
  attachments[1].format = depth;
  attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;

  VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pDepthStencilAttachment = &depth_ref;

  VkRenderPassCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  info.attachmentCount = 2;
  info.pAttachments = attachments;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = static_cast<uint32_t>(dependencies.size());
  info.pDependencies = dependencies.data();
  VkRenderPass pass = VK_NULL_HANDLE;
  vk_check(vkCreateRenderPass(ctx.device(), &info, nullptr, &pass), what);
  return pass;
}

VkFramebuffer create_color_depth_framebuffer(const VulkanContext& ctx, VkRenderPass render_pass,
                                             VkImageView color, VkImageView depth,
                                             VkExtent2D extent, const char* what) {
  VkImageView views[2] = {color, depth};
  VkFramebufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  info.renderPass = render_pass;
  info.attachmentCount = 2;
  info.pAttachments = views;
  info.width = extent.width;
  info.height = extent.height;
  info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  vk_check(vkCreateFramebuffer(ctx.device(), &info, nullptr, &framebuffer), what);
  return framebuffer;
}

}  // namespace sample
