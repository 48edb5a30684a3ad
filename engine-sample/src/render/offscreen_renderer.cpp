#include "render/offscreen_renderer.h"

#include "error.h"
#include "vk/render_pass.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <chrono>
#include <string>

namespace sample {
namespace {

// sRGB first: the shader works in linear light and the screenshot is saved as RGBA8_SRGB, which
// is how it should be displayed. Every device supports one of the two.
VkFormat choose_color_format(const VulkanContext& ctx) {
  VkFormatFeatureFlags needed =
      VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM}) {
    if (has_format_features(ctx, format, needed)) return format;
  }
  throw SampleError("no RGBA8 colour attachment format on this device");
}

}  // namespace

OffscreenRenderer::OffscreenRenderer(const VulkanContext& ctx, const GpuScene& scene,
                                     const RenderOptions& options)
    : ctx_(ctx),
      scene_(scene),
      layout_(options.layout),
      animation_(options.animation),
      camera_name_(options.camera),
      extent_{options.width, options.height},
      draw_options_(options.draw) {
  const VkPhysicalDeviceLimits& limits = ctx.properties().limits;
  if (extent_.width == 0 || extent_.height == 0 || extent_.width > limits.maxFramebufferWidth ||
      extent_.height > limits.maxFramebufferHeight) {
    throw SampleError("render size " + std::to_string(extent_.width) + "x" +
                      std::to_string(extent_.height) + " is outside this device's limits");
  }
  try {
    color_format_ = choose_color_format(ctx);
    depth_format_ = choose_depth_format(ctx);
    create_targets();
    create_render_pass();
    create_framebuffer();
    pipelines_ = std::make_unique<MeshPipelines>(ctx, render_pass_, extent_);
    rebuild_scene();
    cmd_ = ctx.allocate_command_buffer();
    fence_ = ctx.create_fence(false);
  } catch (...) {
    destroy();
    throw;
  }
}

OffscreenRenderer::~OffscreenRenderer() { destroy(); }

void OffscreenRenderer::rebuild_scene() {
  // The scene as every render path draws it, seen from the chosen camera.
  draws_ = std::make_unique<SceneDraws>(ctx_, scene_, *pipelines_, layout_, animation_);
  float aspect = static_cast<float>(extent_.width) / static_cast<float>(extent_.height);
  camera_ = choose_camera(draws_->instances(), camera_name_, aspect);
}

void OffscreenRenderer::destroy() noexcept {
  VkDevice device = ctx_.device();
  if (fence_) vkDestroyFence(device, fence_, nullptr);
  if (cmd_) vkFreeCommandBuffers(device, ctx_.command_pool(), 1, &cmd_);
  draws_.reset();
  pipelines_.reset();
  if (framebuffer_) vkDestroyFramebuffer(device, framebuffer_, nullptr);
  if (render_pass_) vkDestroyRenderPass(device, render_pass_, nullptr);
  fence_ = VK_NULL_HANDLE;
  cmd_ = VK_NULL_HANDLE;
  framebuffer_ = VK_NULL_HANDLE;
  render_pass_ = VK_NULL_HANDLE;
}

void OffscreenRenderer::create_targets() {
  color_ = GpuImage(ctx_,
                    {color_format_, extent_, 1,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                     VK_IMAGE_ASPECT_COLOR_BIT},
                    "colour target");
  depth_ = GpuImage(ctx_,
                    {depth_format_, extent_, 1, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                     depth_aspect(depth_format_)},
                    "depth target");
  VkDeviceSize bytes = VkDeviceSize{extent_.width} * extent_.height * 4;
  readback_ = GpuBuffer(ctx_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                        "screenshot readback");
}

void OffscreenRenderer::create_render_pass() {
  VkSubpassDependency dependencies[2]{};
  // In: the previous frame's readback copy and depth writes finish before this frame clears.
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask =
      VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependencies[0].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[0].dstStageMask =
      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT;
  dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                                  VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                  VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  // Out: colour writes are visible to the readback copy.
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;

  // Colour ends ready for the readback copy, so no barrier of our own is needed before it.
  render_pass_ = create_color_depth_render_pass(ctx_, color_format_, depth_format_,
                                                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dependencies,
                                                "vkCreateRenderPass");
}

void OffscreenRenderer::create_framebuffer() {
  framebuffer_ = create_color_depth_framebuffer(ctx_, render_pass_, color_.view(), depth_.view(),
                                                extent_, "vkCreateFramebuffer");
}

void OffscreenRenderer::record_readback(VkCommandBuffer cmd) const {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent_.width, extent_.height, 1};
  vkCmdCopyImageToBuffer(cmd, color_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         readback_.handle(), 1, &region);
  // The CPU reads the buffer after the fence; the barrier makes the copy's writes visible to it.
  VkBufferMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = readback_.handle();
  barrier.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                       nullptr, 1, &barrier, 0, nullptr);
}

DrawStats OffscreenRenderer::record_frame(VkCommandBuffer cmd, bool read_back) const {
  begin_one_time_commands(cmd, "vkBeginCommandBuffer(frame)");
  begin_scene_pass(cmd, render_pass_, framebuffer_, extent_);
  DrawStats stats = draws_->record(cmd, camera_.view, extent_.height, draw_options_);
  vkCmdEndRenderPass(cmd);
  if (read_back) record_readback(cmd);
  vk_check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer(frame)");
  return stats;
}

FrameTimings OffscreenRenderer::render_frames(uint32_t count) {
  FrameTimings timings;
  timings.width = extent_.width;
  timings.height = extent_.height;
  for (uint32_t frame = 0; frame < count; ++frame) {
    auto start = std::chrono::steady_clock::now();
    vk_check(vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer(frame)");
    DrawStats stats = record_frame(cmd_, frame + 1 == count);
    timings.draws = stats.draws;
    timings.triangles = stats.triangles;
    timings.lod_triangles_saved = stats.lod_triangles_saved;
    timings.meshlet_triangles_culled = stats.meshlet_triangles_culled;
    vk_check(vkResetFences(ctx_.device(), 1, &fence_), "vkResetFences");
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd_;
    vk_check(vkQueueSubmit(ctx_.queue(), 1, &submit, fence_), "vkQueueSubmit(frame)");
    ctx_.wait_for(fence_);
    auto elapsed = std::chrono::steady_clock::now() - start;
    timings.add_frame(std::chrono::duration<double, std::milli>(elapsed).count());
  }
  readback_.invalidate(0, readback_.size());
  return timings;
}

std::span<const std::byte> OffscreenRenderer::pixels() const {
  return {readback_.mapped(), static_cast<size_t>(readback_.size())};
}

}  // namespace sample
