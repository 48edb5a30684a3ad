#include "window/window_app.h"

#include "assets/hot_reload.h"
#include "error.h"
#include "render/mesh_pipeline.h"
#include "render/scene_draws.h"
#include "vk/render_pass.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"
#include "window/glfw_window.h"
#include "window/orbit_camera.h"
#include "window/swapchain.h"

#include <array>
#include <chrono>
#include <memory>

namespace sample {
namespace {

// Two frames in flight: the CPU records one while the GPU renders the other.
constexpr uint32_t kFramesInFlight = 2;

// What one frame in flight owns; reused once its fence has signalled.
struct FrameSlot {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;          // signalled when its submit has finished
  VkSemaphore acquired = VK_NULL_HANDLE;  // signalled when its swapchain image may be drawn to
};

float aspect_of(VkExtent2D extent) {
  return static_cast<float>(extent.width) / static_cast<float>(extent.height);
}

VkRenderPass create_window_render_pass(const VulkanContext& ctx, VkFormat color, VkFormat depth) {
  // The colour transition waits for the acquire semaphore (whose wait stage is colour output),
  // and the depth image, shared by the frames in flight, for the previous frame's depth writes.
  VkSubpassDependency dependency{};
  dependency.srcSubpass = VK_SUBPASS_EXTERNAL;
  dependency.dstSubpass = 0;
  dependency.srcStageMask =
      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependency.srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependency.dstStageMask =
      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT;
  dependency.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                             VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                             VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;

  // Colour ends ready to present: the render pass does the transition, no barrier of our own.
  return create_color_depth_render_pass(ctx, color, depth, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                                        {&dependency, 1}, "vkCreateRenderPass(window)");
}

class WindowRenderer {
 public:
  WindowRenderer(const VulkanContext& ctx, GpuScene& scene, GlfwWindow& window,
                 const WindowOptions& options);
  ~WindowRenderer();
  WindowRenderer(const WindowRenderer&) = delete;
  WindowRenderer& operator=(const WindowRenderer&) = delete;

  FrameTimings run(const WindowOptions& options);

 private:
  void create_frame_slots();
  void apply_input();
  bool hot_reload();
  bool recreate_swapchain();
  bool draw_frame();
  DrawStats record(VkCommandBuffer cmd, uint32_t image) const;
  void submit(const FrameSlot& slot, uint32_t image) const;
  void present(uint32_t image);
  void destroy() noexcept;

  const VulkanContext& ctx_;
  GpuScene& scene_;
  GlfwWindow& window_;
  SceneLayout layout_;
  AnimationOptions animation_;
  HotReload* hot_reload_;
  Swapchain swapchain_;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  std::unique_ptr<MeshPipelines> pipelines_;
  std::unique_ptr<SceneDraws> draws_;
  DrawOptions draw_options_;
  DrawStats last_stats_;
  std::optional<OrbitCamera> camera_;
  std::array<FrameSlot, kFramesInFlight> slots_{};
  uint32_t slot_ = 0;
  bool stale_ = false;  // the swapchain no longer matches the window: rebuild before drawing
};

WindowRenderer::WindowRenderer(const VulkanContext& ctx, GpuScene& scene, GlfwWindow& window,
                               const WindowOptions& options)
    : ctx_(ctx),
      scene_(scene),
      window_(window),
      layout_(options.layout),
      animation_(options.animation),
      hot_reload_(options.hot_reload),
      swapchain_(ctx),
      draw_options_(options.draw) {
  try {
    render_pass_ =
        create_window_render_pass(ctx, swapchain_.color_format(), swapchain_.depth_format());
    // Dynamic viewport: a resize rebuilds the swapchain but keeps these pipelines.
    pipelines_ = std::make_unique<MeshPipelines>(ctx, render_pass_, std::nullopt);
    draws_ = std::make_unique<SceneDraws>(ctx, scene, *pipelines_, layout_, animation_);
    VkExtent2D size = window.framebuffer_extent();
    stale_ = !swapchain_.create(render_pass_, size);
    VkExtent2D framed = stale_ ? size : swapchain_.extent();
    camera_.emplace(draws_->instances().boxes(), framed.height ? aspect_of(framed) : 1.0f);
    create_frame_slots();
  } catch (...) {
    destroy();
    throw;
  }
}

WindowRenderer::~WindowRenderer() { destroy(); }

void WindowRenderer::destroy() noexcept {
  VkDevice device = ctx_.device();
  // Frames may still be in flight, and the swapchain's images being presented.
  vkDeviceWaitIdle(device);
  for (FrameSlot& slot : slots_) {
    if (slot.acquired) vkDestroySemaphore(device, slot.acquired, nullptr);
    if (slot.done) vkDestroyFence(device, slot.done, nullptr);
    if (slot.cmd) vkFreeCommandBuffers(device, ctx_.command_pool(), 1, &slot.cmd);
    slot = {};
  }
  draws_.reset();
  pipelines_.reset();
  if (render_pass_) vkDestroyRenderPass(device, render_pass_, nullptr);
  render_pass_ = VK_NULL_HANDLE;
}

void WindowRenderer::create_frame_slots() {
  for (FrameSlot& slot : slots_) {
    slot.cmd = ctx_.allocate_command_buffer();
    // Signalled: the first wait on each slot must not block.
    slot.done = ctx_.create_fence(true);
    slot.acquired = ctx_.create_semaphore();
  }
}

void WindowRenderer::apply_input() {
  WindowInput input = window_.take_input();
  camera_->rotate(input.drag_x, input.drag_y);
  camera_->zoom(input.scroll);
  if (input.resized) stale_ = true;
}

// True when a reload changed the scene. Called between frames, so nothing is recorded while the
// scene changes; apply() waits for the frames in flight. The orbit camera stays where the user
// put it, even if the scene's bounds moved.
bool WindowRenderer::hot_reload() {
  if (!hot_reload_ || !hot_reload_->poll(scene_)) return false;
  if (!hot_reload_->apply(scene_).scene_changed()) return false;
  draws_ = std::make_unique<SceneDraws>(ctx_, scene_, *pipelines_, layout_, animation_);
  return true;
}

// False while the surface has no area: there is nothing to draw into.
bool WindowRenderer::recreate_swapchain() {
  if (!swapchain_.create(render_pass_, window_.framebuffer_extent())) return false;
  stale_ = false;
  return true;
}

FrameTimings WindowRenderer::run(const WindowOptions& options) {
  using Clock = std::chrono::steady_clock;
  FrameTimings timings;
  // With --reload-wait the window stays open until the first reload, and the frames to present
  // are counted from then.
  bool awaiting_reload = options.reload_wait.has_value();
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         options.reload_wait.value_or(std::chrono::duration<double>::zero()));
  uint32_t counted_from = 0;
  while (!window_.should_close() &&
         (awaiting_reload || !options.frames || timings.frames - counted_from < *options.frames)) {
    window_.poll_events();
    apply_input();
    if (hot_reload() && awaiting_reload) {
      awaiting_reload = false;
      counted_from = timings.frames;
    }
    // The destructor waits for the frames in flight.
    if (awaiting_reload && Clock::now() > deadline)
      throw no_reload_within(options.reload_wait->count());
    // Minimised: no frames (nobody would see them), no swapchain rebuild at zero size.
    if (window_.minimised() || (stale_ && !recreate_swapchain())) {
      window_.wait_events();
      continue;
    }
    Clock::time_point start = Clock::now();
    if (draw_frame()) {
      timings.add_frame(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
  }
  vk_check(vkDeviceWaitIdle(ctx_.device()), "vkDeviceWaitIdle(window)");

  timings.width = swapchain_.extent().width;
  timings.height = swapchain_.extent().height;
  timings.draws = last_stats_.draws;
  timings.triangles = last_stats_.triangles;
  timings.lod_triangles_saved = last_stats_.lod_triangles_saved;
  timings.meshlet_triangles_culled = last_stats_.meshlet_triangles_culled;
  return timings;
}

// False when the swapchain went out of date before anything was drawn; the caller rebuilds it.
bool WindowRenderer::draw_frame() {
  FrameSlot& slot = slots_[slot_];
  ctx_.wait_for(slot.done);
  uint32_t image = 0;
  VkResult acquired = vkAcquireNextImageKHR(ctx_.device(), swapchain_.handle(), UINT64_MAX,
                                            slot.acquired, VK_NULL_HANDLE, &image);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    stale_ = true;
    return false;
  }
  // Suboptimal still gives an image (and signals the semaphore): draw it, rebuild afterwards.
  if (acquired == VK_SUBOPTIMAL_KHR)
    stale_ = true;
  else
    vk_check(acquired, "vkAcquireNextImageKHR");

  // Reset only once an image is certain, or an early return would leave the fence unsignalled
  // and the next wait on this slot would never end.
  vk_check(vkResetFences(ctx_.device(), 1, &slot.done), "vkResetFences(window)");
  vk_check(vkResetCommandBuffer(slot.cmd, 0), "vkResetCommandBuffer(window)");
  last_stats_ = record(slot.cmd, image);
  submit(slot, image);
  present(image);
  slot_ = (slot_ + 1) % kFramesInFlight;
  return true;
}

DrawStats WindowRenderer::record(VkCommandBuffer cmd, uint32_t image) const {
  begin_one_time_commands(cmd, "vkBeginCommandBuffer(window)");
  VkExtent2D extent = swapchain_.extent();
  begin_scene_pass(cmd, render_pass_, swapchain_.framebuffer(image), extent);
  // The pipelines' viewport and scissor are dynamic, so they follow the window's size.
  VkViewport viewport{0, 0, static_cast<float>(extent.width), static_cast<float>(extent.height),
                      0, 1};
  VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  DrawStats stats =
      draws_->record(cmd, camera_->view(aspect_of(extent)), extent.height, draw_options_);
  vkCmdEndRenderPass(cmd);
  vk_check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer(window)");
  return stats;
}

void WindowRenderer::submit(const FrameSlot& slot, uint32_t image) const {
  VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSemaphore rendered = swapchain_.rendered(image);
  VkSubmitInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &slot.acquired;
  info.pWaitDstStageMask = &wait_stage;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &slot.cmd;
  info.signalSemaphoreCount = 1;
  info.pSignalSemaphores = &rendered;
  vk_check(vkQueueSubmit(ctx_.queue(), 1, &info, slot.done), "vkQueueSubmit(window)");
}

void WindowRenderer::present(uint32_t image) {
  VkSemaphore rendered = swapchain_.rendered(image);
  VkSwapchainKHR swapchain = swapchain_.handle();
  VkPresentInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &rendered;
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain;
  info.pImageIndices = &image;
  VkResult result = vkQueuePresentKHR(ctx_.queue(), &info);
  // Out of date or suboptimal: the window changed under us; rebuild before the next frame.
  if (result == VK_ERROR_OUT_OF_DATE_KHR || result == VK_SUBOPTIMAL_KHR)
    stale_ = true;
  else
    vk_check(result, "vkQueuePresentKHR");
}

}  // namespace

FrameTimings run_window(const VulkanContext& ctx, GpuScene& scene, GlfwWindow& window,
                        const WindowOptions& options) {
  WindowRenderer renderer(ctx, scene, window, options);
  return renderer.run(options);
}

}  // namespace sample
