// The one graphics pipeline the sample needs, per vertex format: vertex input straight from
// assetlib's vertex_format_attributes(), a lit textured shader, depth test, no blending.
#pragma once

#include "render/camera.h"

#include <assetlib/mesh_asset.h>
#include <vulkan/vulkan.h>

#include <map>
#include <optional>

namespace sample {

class VulkanContext;

// Matches the push_constant block of shaders/mesh.vert and mesh.frag.
struct PushConstants {
  Mat4 view_proj;
  float offset[4];      // xyz: mesh placement; w: its scale
  float base_color[4];  // material colour
  float light[4];       // xyz: direction the light travels; w: ambient
};
static_assert(sizeof(PushConstants) == 112, "must match the GLSL block and fit 128 bytes");

class MeshPipelines {
 public:
  // With an `extent`, viewport and scissor are baked into the pipelines (a target that never
  // changes size); without one they are dynamic state, so a window can resize without new
  // pipelines, and the recorder sets them before drawing.
  MeshPipelines(const VulkanContext& ctx, VkRenderPass render_pass,
                std::optional<VkExtent2D> extent);
  ~MeshPipelines();
  MeshPipelines(const MeshPipelines&) = delete;
  MeshPipelines& operator=(const MeshPipelines&) = delete;

  // Set 0: binding 0 is the material's base colour texture.
  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  VkPipelineLayout layout() const { return layout_; }
  // Built on first use: scenes rarely mix vertex formats, so most runs build one.
  VkPipeline pipeline_for(assetlib::VertexFormat format);

 private:
  VkPipeline build(assetlib::VertexFormat format) const;
  void destroy() noexcept;

  const VulkanContext& ctx_;
  VkRenderPass render_pass_;
  std::optional<VkExtent2D> extent_;
  VkShaderModule vertex_shader_ = VK_NULL_HANDLE;
  VkShaderModule fragment_shader_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::map<assetlib::VertexFormat, VkPipeline> pipelines_;
};

}  // namespace sample
