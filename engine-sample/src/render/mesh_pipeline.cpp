#include "render/mesh_pipeline.h"

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

VkDescriptorSetLayout create_set_layout(const VulkanContext& ctx) {
  VkDescriptorSetLayoutBinding binding{};
  binding.binding = 0;
  binding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  binding.descriptorCount = 1;
  binding.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
  VkDescriptorSetLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  info.bindingCount = 1;
  info.pBindings = &binding;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  vk_check(vkCreateDescriptorSetLayout(ctx.device(), &info, nullptr, &layout),
           "vkCreateDescriptorSetLayout");
  return layout;
}

VkPipelineLayout create_pipeline_layout(const VulkanContext& ctx,
                                        VkDescriptorSetLayout set_layout) {
  VkPushConstantRange range{};
  range.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  range.size = sizeof(PushConstants);
  VkPipelineLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  vk_check(vkCreatePipelineLayout(ctx.device(), &info, nullptr, &layout), "vkCreatePipelineLayout");
  return layout;
}

// The vertex layout is data in the baked file, so the pipeline reads it from assetlib rather
// than hard-coding offsets that would silently break when the baker changes formats. Only the
// inputs mesh.vert declares are described: the tangent (location 4) serves normal mapping, which
// this sample does not do, and an unconsumed attribute is a validation warning.
constexpr uint32_t kShaderInputLocations = 4;  // position, normal, colour, uv

std::vector<VkVertexInputAttributeDescription> vertex_attributes(assetlib::VertexFormat format) {
  assetlib::VertexAttribute attributes[8];
  uint32_t count = assetlib::vertex_format_attributes(format, attributes);
  std::vector<VkVertexInputAttributeDescription> out;
  for (uint32_t i = 0; i < count; ++i) {
    if (attributes[i].location >= kShaderInputLocations) continue;
    out.push_back({attributes[i].location, 0, static_cast<VkFormat>(attributes[i].vk_format),
                   attributes[i].offset});
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
    fragment_shader_ = create_shader(ctx, kFragmentSpirv, "mesh.frag");
    set_layout_ = create_set_layout(ctx);
    layout_ = create_pipeline_layout(ctx, set_layout_);
  } catch (...) {
    destroy();
    throw;
  }
}

MeshPipelines::~MeshPipelines() { destroy(); }

void MeshPipelines::destroy() noexcept {
  VkDevice device = ctx_.device();
  for (auto& [format, pipeline] : pipelines_) vkDestroyPipeline(device, pipeline, nullptr);
  pipelines_.clear();
  if (layout_) vkDestroyPipelineLayout(device, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device, set_layout_, nullptr);
  if (fragment_shader_) vkDestroyShaderModule(device, fragment_shader_, nullptr);
  if (vertex_shader_) vkDestroyShaderModule(device, vertex_shader_, nullptr);
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  fragment_shader_ = VK_NULL_HANDLE;
  vertex_shader_ = VK_NULL_HANDLE;
}

VkPipeline MeshPipelines::pipeline_for(assetlib::VertexFormat format) {
  auto it = pipelines_.find(format);
  if (it != pipelines_.end()) return it->second;
  VkPipeline pipeline = build(format);
  pipelines_.emplace(format, pipeline);
  return pipeline;
}

VkPipeline MeshPipelines::build(assetlib::VertexFormat format) const {
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex_shader_;
  stages[0].pName = "main";
  // mesh.vert's constant_id 0: whether the normal is octahedral (the *_OCT formats).
  const VkBool32 octahedral =
      format == assetlib::VertexFormat::PNCVT_OCT || format == assetlib::VertexFormat::PNCVVT_OCT;
  const VkSpecializationMapEntry entry{0, 0, sizeof octahedral};
  const VkSpecializationInfo specialization{1, &entry, sizeof octahedral, &octahedral};
  stages[0].pSpecializationInfo = &specialization;
  stages[1] = stages[0];
  stages[1].pSpecializationInfo = nullptr;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fragment_shader_;

  VkVertexInputBindingDescription binding{0, assetlib::vertex_format_stride(format),
                                          VK_VERTEX_INPUT_RATE_VERTEX};
  std::vector<VkVertexInputAttributeDescription> attributes = vertex_attributes(format);
  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertex_input.vertexBindingDescriptionCount = 1;
  vertex_input.pVertexBindingDescriptions = &binding;
  vertex_input.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
  vertex_input.pVertexAttributeDescriptions = attributes.data();

  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

  ViewportState viewport(extent_);

  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  // No culling: source models do not agree on a winding order, and depth hides back faces.
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;

  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;

  VkPipelineDepthStencilStateCreateInfo depth{};
  depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth.depthTestEnable = VK_TRUE;
  depth.depthWriteEnable = VK_TRUE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;

  VkPipelineColorBlendAttachmentState blend_attachment{};
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
  std::string what =
      std::string("vkCreateGraphicsPipelines(") + assetlib::vertex_format_name(format) + ")";
  vk_check(vkCreateGraphicsPipelines(ctx_.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
           what.c_str());
  ctx_.set_name(VK_OBJECT_TYPE_PIPELINE, pipeline,
                std::string("mesh ") + assetlib::vertex_format_name(format));
  return pipeline;
}

}  // namespace sample
