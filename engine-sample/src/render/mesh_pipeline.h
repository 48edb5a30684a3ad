// The sample's graphics pipelines: one shader pair (metallic-roughness PBR, shaders/mesh.*), a
// pipeline per vertex format and material state (blending, culling), vertex input straight from
// assetlib's vertex_format_attributes(); skinned meshes get the same with mesh_skinned.vert and
// their skin stream as a second vertex buffer (skin_format_attributes()).
#pragma once

#include "render/scene_math.h"

#include <assetlib/mesh_asset.h>
#include <vulkan/vulkan.h>

#include <map>
#include <optional>

namespace sample {

class VulkanContext;

// Matches the push_constant block of shaders/mesh.vert and mesh.frag.
struct PushConstants {
  Mat4 view_proj;
  float eye[4];        // xyz: camera position in the world
  float light[4];      // xyz: direction the light travels; w: ambient intensity
  uint32_t transform;  // index into the scene set's transforms
  uint32_t material;   // index into the scene set's material factors
  uint32_t pad[2];
};
static_assert(sizeof(PushConstants) == 112, "must match the GLSL block and fit 128 bytes");

// One world transform as mesh.vert reads it (std430).
struct DrawTransform {
  Mat4 model;
  Mat4 normal;  // inverse transpose of model's upper 3x3; m[15]: -1 when model mirrors, else 1
};

// What besides the vertex format decides a pipeline: the material's alpha and side settings,
// whether the transform mirrors (which turns the triangles' winding around), and for a skinned
// draw the format of its skin stream.
struct PipelineKey {
  assetlib::VertexFormat format = assetlib::VertexFormat::Unknown;
  bool blend = false;                                      // alpha blending, no depth writes
  bool cull_back = false;                                  // single-sided material
  bool mirrored = false;                                   // front faces wind clockwise
  assetlib::SkinFormat skin = assetlib::SkinFormat::None;  // None: rigid (mesh.vert)
  auto operator<=>(const PipelineKey&) const = default;
};

// Vertex buffer bindings of every pipeline: 0 the mesh's vertices, 1 a zero buffer (stride 0) for
// the inputs a format lacks, 2 a skinned mesh's skin stream.
inline constexpr uint32_t kVertexBinding = 0;
inline constexpr uint32_t kZeroBinding = 1;
inline constexpr uint32_t kSkinBinding = 2;

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

  // Set 0, bound once per frame: binding 0 the transforms (DrawTransform[]), binding 1 the
  // material factors (MaterialParams[]), both storage buffers.
  VkDescriptorSetLayout scene_set_layout() const { return scene_set_layout_; }
  // Set 1, per material: bindings 0..4 its texture slots (MaterialBindings' order).
  VkDescriptorSetLayout material_set_layout() const { return material_set_layout_; }
  // Set 2, skinned draws only: binding 0 the joint matrices (mat4[], column-major), a dynamic
  // storage buffer whose offset selects the draw's palette. Rigid pipelines never read it.
  VkDescriptorSetLayout palette_set_layout() const { return palette_set_layout_; }
  VkPipelineLayout layout() const { return layout_; }
  // Built on first use: a scene uses a handful of combinations.
  VkPipeline pipeline_for(const PipelineKey& key);

 private:
  VkPipeline build(const PipelineKey& key) const;
  void destroy() noexcept;

  const VulkanContext& ctx_;
  VkRenderPass render_pass_;
  std::optional<VkExtent2D> extent_;
  VkShaderModule vertex_shader_ = VK_NULL_HANDLE;
  VkShaderModule skinned_vertex_shader_ = VK_NULL_HANDLE;
  VkShaderModule fragment_shader_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout scene_set_layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout material_set_layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout palette_set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::map<PipelineKey, VkPipeline> pipelines_;
};

}  // namespace sample
