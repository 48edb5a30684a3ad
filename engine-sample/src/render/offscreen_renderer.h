// Draws the loaded scene into an offscreen colour + depth target and reads the image back.
// Headless by construction: no surface, no swapchain, so it runs on lavapipe in CI.
#pragma once

#include "assets/gpu_scene.h"
#include "assets/load_report.h"
#include "render/camera.h"
#include "render/mesh_pipeline.h"
#include "render/scene_draws.h"
#include "vk/gpu_buffer.h"
#include "vk/gpu_image.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sample {

class VulkanContext;

struct RenderOptions {
  uint32_t width = 1280;
  uint32_t height = 720;
  SceneLayout layout = SceneLayout::Grid;
  std::string camera;  // a camera node's name; empty: frame the scene
  DrawOptions draw;
  AnimationOptions animation;  // --animate, --time: the clip that poses the prefabs
};

class OffscreenRenderer {
 public:
  OffscreenRenderer(const VulkanContext& ctx, const GpuScene& scene, const RenderOptions& options);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  // Renders `count` frames, each recorded, submitted and waited for, and times them. The last
  // frame is also copied into the readback buffer.
  FrameTimings render_frames(uint32_t count);

  // After a hot reload changed the scene (HotReload::apply): the draws built again from what it
  // now holds, and the camera chosen again, as at construction.
  void rebuild_scene();

  // Which camera the frames are drawn from (camera.h's description).
  const std::string& camera_description() const { return camera_.description; }
  // Which clip posed the prefabs (SceneDraws::pose_description); empty without clip or skins.
  const std::string& pose_description() const { return draws_->pose_description(); }

  // The last frame: tightly packed rows of 4-byte texels in color_format().
  std::span<const std::byte> pixels() const;
  VkFormat color_format() const { return color_format_; }
  VkExtent2D extent() const { return extent_; }

 private:
  void create_targets();
  void create_render_pass();
  void create_framebuffer();
  DrawStats record_frame(VkCommandBuffer cmd, bool read_back) const;
  void record_readback(VkCommandBuffer cmd) const;
  void destroy() noexcept;

  const VulkanContext& ctx_;
  const GpuScene& scene_;
  SceneLayout layout_;
  AnimationOptions animation_;
  std::string camera_name_;
  VkExtent2D extent_;
  VkFormat color_format_ = VK_FORMAT_UNDEFINED;
  VkFormat depth_format_ = VK_FORMAT_UNDEFINED;
  GpuImage color_;
  GpuImage depth_;
  GpuBuffer readback_;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  std::unique_ptr<MeshPipelines> pipelines_;
  std::unique_ptr<SceneDraws> draws_;
  ChosenCamera camera_;
  DrawOptions draw_options_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace sample
