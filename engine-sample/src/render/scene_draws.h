// What every render of the loaded scene shares, offscreen or in a window: the list of draws, the
// start of its render pass (the background) and the one function that records the draws. Both
// paths use these, so the window shows exactly the scene the screenshot does.
#pragma once

#include "assets/gpu_scene.h"
#include "render/camera.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace sample {

class MeshPipelines;
class TextureBindings;

// One vkCmdDrawIndexed: a submesh with its material.
struct SceneDraw {
  const GpuMesh* mesh = nullptr;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorSet texture = VK_NULL_HANDLE;
  uint32_t first_index = 0;
  uint32_t index_count = 0;
  float base_color[4] = {1, 1, 1, 1};
  Placement placement;
};

struct SceneDrawList {
  std::vector<SceneDraw> draws;
  std::vector<Box> boxes;  // each mesh where it is drawn: what a camera has to frame
  uint64_t triangles() const;
};

// Places the meshes and resolves every submesh's pipeline and texture once, so a frame only
// replays the list. The pipelines belong to the render pass the list will be recorded in.
SceneDrawList build_scene_draws(const GpuScene& scene, MeshPipelines& pipelines,
                                TextureBindings& textures, SceneLayout layout);

// Begins `render_pass` (a colour and a depth attachment) on `framebuffer`, clearing colour to the
// scene's background and depth to the far plane.
void begin_scene_pass(VkCommandBuffer cmd, VkRenderPass render_pass, VkFramebuffer framebuffer,
                      VkExtent2D extent);

// Records every draw of `list` inside an open render pass compatible with its pipelines. With
// dynamic-viewport pipelines the caller sets viewport and scissor first.
void record_scene_draws(VkCommandBuffer cmd, const SceneDrawList& list, VkPipelineLayout layout,
                        const Mat4& view_proj);

}  // namespace sample
