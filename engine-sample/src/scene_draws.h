// What every render of the loaded scene shares, offscreen or in a window: the background, the
// depth format, the list of draws and the one function that records them. Both paths use these,
// so the window shows exactly the scene the screenshot does.
#pragma once

#include "camera.h"
#include "gpu_scene.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace sample {

class MeshPipelines;
class TextureBindings;
class VulkanContext;

// Linear values; an sRGB target encodes them on store.
inline constexpr VkClearColorValue kSceneBackground = {{0.02f, 0.025f, 0.035f, 1.0f}};

// Whether images of `format` with optimal tiling have every one of `features` on this device.
bool has_format_features(const VulkanContext& ctx, VkFormat format, VkFormatFeatureFlags features);
// The first depth attachment format the device supports, best precision first.
VkFormat choose_depth_format(const VulkanContext& ctx);
// Depth, plus stencil for the combined formats (views and barriers must name both).
VkImageAspectFlags depth_aspect(VkFormat format);

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

// Records every draw of `list` inside an open render pass compatible with its pipelines. With
// dynamic-viewport pipelines the caller sets viewport and scissor first.
void record_scene_draws(VkCommandBuffer cmd, const SceneDrawList& list, VkPipelineLayout layout,
                        const Mat4& view_proj);

}  // namespace sample
