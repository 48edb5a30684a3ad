#include "render/scene_draws.h"

#include "assets/texture_bindings.h"
#include "render/mesh_pipeline.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace sample {
namespace {

// Linear values; an sRGB target encodes them on store.
constexpr VkClearColorValue kSceneBackground = {{0.02f, 0.025f, 0.035f, 1.0f}};

// A key light from above, left and in front of the camera, plus some ambient.
constexpr float kLight[4] = {0.33f, -0.80f, -0.50f, 0.25f};

VkIndexType index_type(const assetlib::MeshInfo& info) {
  return info.index_size == 2 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
}

SceneDraw make_draw(const GpuMesh& mesh, const assetlib::Submesh& sub,
                    const assetlib::MeshMaterial& material, VkPipeline pipeline,
                    TextureBindings& textures, const Placement& placement) {
  std::string user = "mesh '" + mesh.name + "' material '" + material.name + "'";
  textures.check(material.normal_texture, user, "normal_texture");
  SceneDraw draw;
  draw.mesh = &mesh;
  draw.pipeline = pipeline;
  draw.texture = textures.for_texture(material.base_color_texture, user);
  draw.first_index = sub.first_index;
  draw.index_count = sub.index_count;
  std::copy(std::begin(material.base_color), std::end(material.base_color), draw.base_color);
  draw.placement = placement;
  return draw;
}

}  // namespace

uint64_t SceneDrawList::triangles() const {
  uint64_t total = 0;
  for (const SceneDraw& draw : draws) total += draw.index_count / 3;
  return total;
}

SceneDrawList build_scene_draws(const GpuScene& scene, MeshPipelines& pipelines,
                                TextureBindings& textures, SceneLayout layout) {
  SceneDrawList list;
  std::vector<Placement> placements = place_meshes(scene.meshes, layout);
  list.boxes = placed_boxes(scene.meshes, placements);
  if (scene.meshes.empty()) std::fprintf(stderr, "warning: no meshes to draw\n");

  const assetlib::MeshMaterial fallback_material;
  for (size_t i = 0; i < scene.meshes.size(); ++i) {
    const GpuMesh& mesh = scene.meshes[i];
    VkPipeline pipeline = pipelines.pipeline_for(mesh.info.vertex_format);
    for (const assetlib::Submesh& sub : mesh.info.submeshes) {
      if (sub.index_count == 0) continue;
      const assetlib::MeshMaterial& material = sub.material < mesh.info.materials.size()
                                                   ? mesh.info.materials[sub.material]
                                                   : fallback_material;
      list.draws.push_back(make_draw(mesh, sub, material, pipeline, textures, placements[i]));
    }
  }
  return list;
}

void begin_scene_pass(VkCommandBuffer cmd, VkRenderPass render_pass, VkFramebuffer framebuffer,
                      VkExtent2D extent) {
  VkClearValue clears[2]{};
  clears[0].color = kSceneBackground;
  clears[1].depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo pass{};
  pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  pass.renderPass = render_pass;
  pass.framebuffer = framebuffer;
  pass.renderArea = {{0, 0}, extent};
  pass.clearValueCount = 2;
  pass.pClearValues = clears;
  vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
}

void record_scene_draws(VkCommandBuffer cmd, const SceneDrawList& list, VkPipelineLayout layout,
                        const Mat4& view_proj) {
  VkPipeline bound_pipeline = VK_NULL_HANDLE;
  const GpuMesh* bound_mesh = nullptr;
  for (const SceneDraw& draw : list.draws) {
    if (draw.pipeline != bound_pipeline) {
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, draw.pipeline);
      bound_pipeline = draw.pipeline;
    }
    if (draw.mesh != bound_mesh) {
      VkBuffer vertices = draw.mesh->vertices.handle();
      VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
      vkCmdBindIndexBuffer(cmd, draw.mesh->indices.handle(), 0, index_type(draw.mesh->info));
      bound_mesh = draw.mesh;
    }
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &draw.texture, 0,
                            nullptr);
    PushConstants push{};
    push.view_proj = view_proj;
    push.offset[0] = draw.placement.offset.x;
    push.offset[1] = draw.placement.offset.y;
    push.offset[2] = draw.placement.offset.z;
    push.offset[3] = draw.placement.scale;
    std::copy(std::begin(draw.base_color), std::end(draw.base_color), push.base_color);
    std::copy(std::begin(kLight), std::end(kLight), push.light);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof push, &push);
    vkCmdDrawIndexed(cmd, draw.index_count, 1, draw.first_index, 0, 0);
  }
}

}  // namespace sample
