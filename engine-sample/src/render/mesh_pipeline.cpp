#include "render/mesh_pipeline.h"

#include "render/material_bindings.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <span>
#include <string>
#include <vector>

namespace sample {
namespace {

// SPIR-V compiled by glslc at build time (-mfmt=num) and embedded, so the binary runs from any
// folder with no shader files beside it.
constexpr uint32_t kVertexSpirv[] = {
#include "mesh.vert.spv.inc"
};
constexpr uint32_t kSkinnedVertexSpirv[] = {
#include "mesh_skinned.vert.spv.inc"
};
constexpr uint32_t kFragmentSpirv[] = {
#include "mesh.frag.spv.inc"
};

VkShaderModule create_shader(const VulkanContext& ctx, std::span<const uint32_t> code,
                             const char* name) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = code.size_bytes();
  info.pCode = code.data();
  VkShaderModule module = VK_NULL_HANDLE;
  vk_check(vkCreateShaderModule(ctx.device(), &info, nullptr, &module),
           (std::string("vkCreateShaderModule(") + name + ")").c_str());
  ctx.set_name(VK_OBJECT_TYPE_SHADER_MODULE, module, name);
  return module;
}

VkDescriptorSetLayout create_set_layout(const VulkanContext& ctx,
                                        std::span<const VkDescriptorSetLayoutBinding> bindings) {
  VkDescriptorSetLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  info.bindingCount = static_cast<uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  vk_check(vkCreateDescriptorSetLayout(ctx.device(), &info, nullptr, &layout),
           "vkCreateDescriptorSetLayout");
  return layout;
}

VkDescriptorSetLayout create_scene_set_layout(const VulkanContext& ctx) {
  const VkDescriptorSetLayoutBinding bindings[] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
  return create_set_layout(ctx, bindings);
}

VkDescriptorSetLayout create_material_set_layout(const VulkanContext& ctx) {
  VkDescriptorSetLayoutBinding bindings[kMaterialTextureSlots]{};
  for (uint32_t i = 0; i < kMaterialTextureSlots; ++i) {
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                   nullptr};
  }
  return create_set_layout(ctx, bindings);
}

VkDescriptorSetLayout create_palette_set_layout(const VulkanContext& ctx) {
  const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1,
                                             VK_SHADER_STAGE_VERTEX_BIT, nullptr};
  return create_set_layout(ctx, {&binding, 1});
}

VkPipelineLayout create_pipeline_layout(const VulkanContext& ctx,
                                        std::span<const VkDescriptorSetLayout> set_layouts) {
  VkPushConstantRange range{};
  range.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  range.size = sizeof(PushConstants);
  VkPipelineLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  info.setLayoutCount = static_cast<uint32_t>(set_layouts.size());
  info.pSetLayouts = set_layouts.data();
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  vk_check(vkCreatePipelineLayout(ctx.device(), &info, nullptr, &layout), "vkCreatePipelineLayout");
  return layout;
}

// The vertex layout is data in the baked file, so the pipeline reads it from assetlib rather
// than hard-coding offsets that would silently break when the baker changes formats. mesh.vert
// reads locations 0..5; a tangent a format lacks comes from binding 1, a buffer of zeros read with
// stride 0, and the shader takes a zero tangent as "none". A format without a second UV set reads
// its first at location 5 (docs/format.md): a slot with uv_set 1 samples the first set, as the
// baker's warning for such a mesh says.
// mesh_skinned.vert also reads locations 6 and 7, joints and weights, from the skin stream.
constexpr uint32_t kShaderInputLocations = 6;

std::vector<VkVertexInputAttributeDescription> vertex_attributes(assetlib::VertexFormat format,
                                                                 assetlib::SkinFormat skin) {
  assetlib::VertexAttribute attributes[8];
  uint32_t count = assetlib::vertex_format_attributes(format, attributes);
  std::vector<VkVertexInputAttributeDescription> out;
  bool present[kShaderInputLocations] = {};
  for (uint32_t i = 0; i < count; ++i) {
    if (attributes[i].location >= kShaderInputLocations) continue;
    present[attributes[i].location] = true;
    out.push_back({attributes[i].location, kVertexBinding,
                   static_cast<VkFormat>(attributes[i].vk_format), attributes[i].offset});
  }
  constexpr uint32_t kUv = 3, kSecondUv = 5;
  for (uint32_t i = 0; i < count; ++i) {
    if (attributes[i].location != kUv || present[kSecondUv]) continue;
    present[kSecondUv] = true;
    out.push_back({kSecondUv, kVertexBinding, static_cast<VkFormat>(attributes[i].vk_format),
                   attributes[i].offset});
  }
  for (uint32_t location = 0; location < kShaderInputLocations; ++location) {
    if (!present[location]) {
      out.push_back({location, kZeroBinding, VK_FORMAT_R32G32B32A32_SFLOAT, 0});
    }
  }
  assetlib::VertexAttribute skin_attributes[2];
  uint32_t skin_count = assetlib::skin_format_attributes(skin, skin_attributes);
  for (uint32_t i = 0; i < skin_count; ++i) {
    out.push_back({skin_attributes[i].location, kSkinBinding,
                   static_cast<VkFormat>(skin_attributes[i].vk_format), skin_attributes[i].offset});
  }
  return out;
}

// Viewport and scissor: baked into the pipeline for a fixed extent, dynamic state without one.
// The create infos point into the object itself, so it stays where it was made.
struct ViewportState {
  explicit ViewportState(std::optional<VkExtent2D> extent) : fixed(extent.has_value()) {
    VkExtent2D size = extent.value_or(VkExtent2D{1, 1});
    viewport = {0, 0, static_cast<float>(size.width), static_cast<float>(size.height), 0, 1};
    scissor = {{0, 0}, size};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    info.viewportCount = 1;
    info.pViewports = fixed ? &viewport : nullptr;
    info.scissorCount = 1;
    info.pScissors = fixed ? &scissor : nullptr;
    dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = kDynamicStates;
  }
  ViewportState(const ViewportState&) = delete;
  ViewportState& operator=(const ViewportState&) = delete;

  const VkPipelineDynamicStateCreateInfo* dynamic_info() const {
    return fixed ? nullptr : &dynamic;
  }

  static constexpr VkDynamicState kDynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT,
                                                      VK_DYNAMIC_STATE_SCISSOR};
  bool fixed;
  VkViewport viewport{};
  VkRect2D scissor{};
  VkPipelineViewportStateCreateInfo info{};
  VkPipelineDynamicStateCreateInfo dynamic{};
};

}  // namespace

MeshPipelines::MeshPipelines(const VulkanContext& ctx, VkRenderPass render_pass,
                             std::optional<VkExtent2D> extent)
    : ctx_(ctx), render_pass_(render_pass), extent_(extent) {
  try {
    vertex_shader_ = create_shader(ctx, kVertexSpirv, "mesh.vert");
    skinned_vertex_shader_ = create_shader(ctx, kSkinnedVertexSpirv, "mesh_skinned.vert");
    fragment_shader_ = create_shader(ctx, kFragmentSpirv, "mesh.frag");
    scene_set_layout_ = create_scene_set_layout(ctx);
    material_set_layout_ = create_material_set_layout(ctx);
    palette_set_layout_ = create_palette_set_layout(ctx);
    // One layout for rigid and skinned pipelines, so sets 0 and 1 stay bound across both.
    const VkDescriptorSetLayout sets[] = {scene_set_layout_, material_set_layout_,
                                          palette_set_layout_};
    layout_ = create_pipeline_layout(ctx, sets);
  } catch (...) {
    destroy();
    throw;
  }
}

MeshPipelines::~MeshPipelines() { destroy(); }

void MeshPipelines::destroy() noexcept {
  VkDevice device = ctx_.device();
  for (auto& [key, pipeline] : pipelines_) vkDestroyPipeline(device, pipeline, nullptr);
  pipelines_.clear();
  if (layout_) vkDestroyPipelineLayout(device, layout_, nullptr);
  if (palette_set_layout_) vkDestroyDescriptorSetLayout(device, palette_set_layout_, nullptr);
  if (material_set_layout_) vkDestroyDescriptorSetLayout(device, material_set_layout_, nullptr);
  if (scene_set_layout_) vkDestroyDescriptorSetLayout(device, scene_set_layout_, nullptr);
  if (fragment_shader_) vkDestroyShaderModule(device, fragment_shader_, nullptr);
  if (skinned_vertex_shader_) vkDestroyShaderModule(device, skinned_vertex_shader_, nullptr);
  if (vertex_shader_) vkDestroyShaderModule(device, vertex_shader_, nullptr);
  layout_ = VK_NULL_HANDLE;
  palette_set_layout_ = VK_NULL_HANDLE;
  material_set_layout_ = VK_NULL_HANDLE;
  scene_set_layout_ = VK_NULL_HANDLE;
  fragment_shader_ = VK_NULL_HANDLE;
  skinned_vertex_shader_ = VK_NULL_HANDLE;
  vertex_shader_ = VK_NULL_HANDLE;
}

VkPipeline MeshPipelines::pipeline_for(const PipelineKey& key) {
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return it->second;
  VkPipeline pipeline = build(key);
  pipelines_.emplace(key, pipeline);
  return pipeline;
}

VkPipeline MeshPipelines::build(const PipelineKey& key) const {
  const assetlib::VertexFormat format = key.format;
  const bool skinned = key.skin != assetlib::SkinFormat::None;
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = skinned ? skinned_vertex_shader_ : vertex_shader_;
  stages[0].pName = "main";
  // mesh.vert's (and mesh_skinned.vert's) constant_id 0: whether normal and tangent are
  // octahedral (the *_OCT formats).
  const VkBool32 octahedral =
      format == assetlib::VertexFormat::PNCVT_OCT || format == assetlib::VertexFormat::PNCVVT_OCT;
  const VkSpecializationMapEntry entry{0, 0, sizeof octahedral};
  const VkSpecializationInfo specialization{1, &entry, sizeof octahedral, &octahedral};
  stages[0].pSpecializationInfo = &specialization;
  stages[1] = stages[0];
  stages[1].pSpecializationInfo = nullptr;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fragment_shader_;

  const VkVertexInputBindingDescription bindings[] = {
      {kVertexBinding, assetlib::vertex_format_stride(format), VK_VERTEX_INPUT_RATE_VERTEX},
      {kZeroBinding, 0, VK_VERTEX_INPUT_RATE_VERTEX},
      {kSkinBinding, assetlib::skin_format_stride(key.skin), VK_VERTEX_INPUT_RATE_VERTEX}};
  std::vector<VkVertexInputAttributeDescription> attributes = vertex_attributes(format, key.skin);
  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertex_input.vertexBindingDescriptionCount = skinned ? 3 : 2;
  vertex_input.pVertexBindingDescriptions = bindings;
  vertex_input.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
  vertex_input.pVertexAttributeDescriptions = attributes.data();

  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

  ViewportState viewport(extent_);

  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  // glTF: front faces wind counter-clockwise, unless the node's transform mirrors them.
  raster.cullMode = key.cull_back ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE;
  raster.frontFace = key.mirrored ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;

  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;

  VkPipelineDepthStencilStateCreateInfo depth{};
  depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth.depthTestEnable = VK_TRUE;
  // Blended surfaces are drawn last, back to front, and must not hide what is behind them.
  depth.depthWriteEnable = key.blend ? VK_FALSE : VK_TRUE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;

  VkPipelineColorBlendAttachmentState blend_attachment{};
  if (key.blend) {
    blend_attachment.blendEnable = VK_TRUE;
    blend_attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
    blend_attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend_attachment.colorBlendOp = VK_BLEND_OP_ADD;
    blend_attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend_attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend_attachment.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                    VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;

  VkGraphicsPipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport.info;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = viewport.dynamic_info();
  info.layout = layout_;
  info.renderPass = render_pass_;
  info.subpass = 0;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::string name = std::string("mesh ") + assetlib::vertex_format_name(format);
  if (skinned) name += std::string(" skinned ") + assetlib::skin_format_name(key.skin);
  if (key.blend) name += " blend";
  if (key.cull_back) name += " cull";
  if (key.mirrored) name += " mirrored";
  vk_check(vkCreateGraphicsPipelines(ctx_.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
           ("vkCreateGraphicsPipelines(" + name + ")").c_str());
  ctx_.set_name(VK_OBJECT_TYPE_PIPELINE, pipeline, name);
  return pipeline;
}

}  // namespace sample
