#include "render/scene_draws.h"

#include "render/mesh_pipeline.h"
#include "vk/descriptor_sets.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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

// The index range to draw for `draw`: the coarsest level of detail whose simplification error,
// projected at the submesh's distance, stays within the allowed pixels.
assetlib::IndexRange choose_lod(const SceneDraw& draw, const CameraView& camera, uint32_t height,
                                const DrawOptions& options) {
  const assetlib::MeshInfo& info = draw.mesh->info;
  const assetlib::Submesh& sub = info.submeshes[draw.submesh];
  assetlib::IndexRange range{sub.first_index, sub.index_count};
  // A LOD's error, like its bounds, is of the bind pose: no measure of a posed skinned mesh.
  if (!options.lods || draw.skinned) return range;
  // The nearest point of the submesh's bounds sets the scale; each level is simplified from the
  // one before, so the errors add up.
  float distance = std::max(length(draw.centre - camera.eye) - draw.radius, 1e-6f);
  float pixels_per_unit = camera.focal * static_cast<float>(height) * 0.5f / distance;
  float error = 0;
  for (const assetlib::MeshLod& lod : info.lods) {
    error += lod.error;
    if (error * draw.size * pixels_per_unit > options.lod_pixel_error) break;
    if (draw.submesh < lod.submeshes.size() && lod.submeshes[draw.submesh].index_count > 0) {
      range = lod.submeshes[draw.submesh];
    }
  }
  return range;
}

// The view's six planes (x, y, z, w: inside where dot(xyz, p) + w >= 0), from a Vulkan
// view-projection (depth 0..1).
struct Frustum {
  float planes[6][4];
};

Frustum frustum_of(const Mat4& m) {
  auto row = [&](int r, int c) { return m.m[c * 4 + r]; };
  Frustum f{};
  for (int c = 0; c < 4; ++c) {
    f.planes[0][c] = row(3, c) + row(0, c);  // left
    f.planes[1][c] = row(3, c) - row(0, c);  // right
    f.planes[2][c] = row(3, c) + row(1, c);  // top or bottom
    f.planes[3][c] = row(3, c) - row(1, c);
    f.planes[4][c] = row(2, c);              // near (z >= 0)
    f.planes[5][c] = row(3, c) - row(2, c);  // far
  }
  return f;
}

bool sphere_visible(const Frustum& f, Vec3 centre, float radius) {
  for (const auto& p : f.planes) {
    float length_xyz = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    if (p[0] * centre.x + p[1] * centre.y + p[2] * centre.z + p[3] < -radius * length_xyz) {
      return false;
    }
  }
  return true;
}

// Whether meshlet `m` of `draw` can be seen: inside the view, and (with cone culling) not facing
// away from the eye (meshoptimizer's test, in the world).
bool meshlet_visible(const SceneDraw& draw, const GpuMeshlet& m, const Frustum& frustum, Vec3 eye) {
  Vec3 centre = transform_point(draw.world, to_vec3(m.center));
  if (!sphere_visible(frustum, centre, m.radius * draw.scale)) return false;
  if (!draw.cone_culling || m.cone_cutoff >= 1) return true;
  Vec3 apex = transform_point(draw.world, to_vec3(m.cone_apex));
  Vec3 axis = transform_point(draw.world, to_vec3(m.cone_axis)) - column(draw.world, 3);
  float axis_length = length(axis), to_apex_length = length(apex - eye);
  if (axis_length <= 0 || to_apex_length <= 0) return true;
  return dot(apex - eye, axis) < m.cone_cutoff * axis_length * to_apex_length;
}

// Opaque and alpha-tested draws in list order (grouped by mesh and pipeline as built), then the
// blended ones back to front from `eye`.
std::vector<const SceneDraw*> draw_order(const std::vector<SceneDraw>& draws, Vec3 eye) {
  std::vector<const SceneDraw*> order;
  std::vector<const SceneDraw*> blended;
  for (const SceneDraw& draw : draws) (draw.blend ? blended : order).push_back(&draw);
  std::stable_sort(blended.begin(), blended.end(), [eye](const SceneDraw* a, const SceneDraw* b) {
    return length(a->centre - eye) > length(b->centre - eye);
  });
  order.insert(order.end(), blended.begin(), blended.end());
  return order;
}

// A mesh instance drawn by mesh_skinned.vert: posed joints, and a skin stream to read.
bool is_skinned(const MeshInstance& instance) {
  return instance.joints && instance.mesh->skin.handle() != VK_NULL_HANDLE;
}

std::string describe_poses(const ScenePoses& poses, size_t skinned_instances, size_t palettes) {
  if (poses.description.empty() && skinned_instances == 0) return {};
  std::string text = poses.description.empty() ? "rest pose" : poses.description;
  text += "; " + std::to_string(skinned_instances) + " skinned mesh instance(s), " +
          std::to_string(palettes) + " joint palette(s)";
  return text;
}

}  // namespace

SceneDraws::SceneDraws(const VulkanContext& ctx, const GpuScene& scene, MeshPipelines& pipelines,
                       SceneLayout layout, const AnimationOptions& animation)
    : ctx_(ctx), scene_(scene), pipelines_(pipelines) {
  const ScenePoses poses = choose_poses(scene, animation);
  instances_ = instance_scene(scene, layout, poses);
  if (instances_.meshes.empty()) std::fprintf(stderr, "warning: no meshes to draw\n");
  try {
    materials_ = std::make_unique<MaterialBindings>(ctx, scene);
    palettes_ = std::make_unique<JointPalettes>(ctx);
    std::vector<DrawTransform> transforms;
    size_t skinned = 0;
    for (const MeshInstance& instance : instances_.meshes) {
      uint32_t palette_offset = 0;
      if (is_skinned(instance)) {
        palette_offset = palettes_->add(instance.joints);
        ++skinned;
      }
      add_instance(instance, static_cast<uint32_t>(transforms.size()), palette_offset);
      DrawTransform transform{instance.world, normal_matrix(instance.world)};
      // A mirroring transform turns the tangent frame's handedness around (mesh.vert).
      transform.normal.m[15] = determinant3(instance.world) < 0 ? -1.0f : 1.0f;
      transforms.push_back(transform);
    }
    pose_description_ = describe_poses(poses, skinned, palettes_->count());
    materials_->upload(pipelines.material_set_layout());
    palettes_->upload(pipelines.palette_set_layout());
    // Instances whose submeshes are all empty make no draws, and no materials to bind.
    if (!draws_.empty()) {
      transforms_ = GpuBuffer(ctx, sizeof(DrawTransform) * transforms.size(),
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload, "transforms");
      std::memcpy(transforms_.mapped(), transforms.data(), transforms_.size());
      transforms_.flush(0, transforms_.size());
      create_scene_set();
    }
  } catch (...) {
    destroy();
    throw;
  }
}

SceneDraws::~SceneDraws() { destroy(); }

void SceneDraws::destroy() noexcept {
  if (pool_) vkDestroyDescriptorPool(ctx_.device(), pool_, nullptr);
  pool_ = VK_NULL_HANDLE;
  materials_.reset();
  palettes_.reset();
}

void SceneDraws::add_instance(const MeshInstance& instance, uint32_t transform,
                              uint32_t palette_offset) {
  const GpuMesh& mesh = *instance.mesh;
  const assetlib::MeshBounds& bounds = mesh.info.bounds;
  float mesh_size = 2 * std::max({bounds.extents[0], bounds.extents[1], bounds.extents[2]}) *
                    max_scale(instance.world);
  bool mirrored = determinant3(instance.world) < 0;
  const bool skinned = is_skinned(instance);
  const assetlib::SkinFormat skin = skinned ? mesh.info.skin_format : assetlib::SkinFormat::None;
  // Uniform scale: the cone of a meshlet keeps its angle only then.
  float largest = max_scale(instance.world);
  bool uniform = std::abs(std::abs(determinant3(instance.world)) - largest * largest * largest) <=
                 1e-3f * largest * largest * largest;
  const assetlib::MeshMaterial fallback;
  for (uint32_t i = 0; i < mesh.info.submeshes.size(); ++i) {
    const assetlib::Submesh& sub = mesh.info.submeshes[i];
    if (sub.index_count == 0) continue;
    const assetlib::MeshMaterial& summary =
        sub.material < mesh.info.materials.size() ? mesh.info.materials[sub.material] : fallback;
    // The prefab node's choice wins over the mesh's own (glTF materials belong to the node).
    const std::string& name = i < instance.materials.size() && !instance.materials[i].empty()
                                  ? instance.materials[i]
                                  : summary.material;
    uint32_t material =
        materials_->resolve(name, summary,
                            "mesh '" + mesh.name + "' material " + std::to_string(sub.material) +
                                " '" + summary.name + "'");
    const assetlib::MaterialInfo& info = materials_->info(material);
    SceneDraw draw;
    draw.mesh = &mesh;
    draw.submesh = i;
    draw.transform = transform;
    draw.material = material;
    draw.blend = info.alpha_mode == assetlib::AlphaMode::Blend;
    draw.pipeline = pipelines_.pipeline_for(
        {mesh.info.vertex_format, draw.blend, !info.double_sided, mirrored, skin});
    draw.centre = transform_point(instance.world, to_vec3(sub.bounds.origin));
    draw.radius = sub.bounds.radius * largest;
    draw.size = mesh_size;
    draw.world = instance.world;
    draw.scale = largest;
    draw.cone_culling = info.double_sided == false && !mirrored && uniform;
    draw.skinned = skinned;
    draw.palette_offset = palette_offset;
    draws_.push_back(draw);
  }
}

void SceneDraws::create_scene_set() {
  pool_ = allocate_descriptor_sets(ctx_, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2,
                                   pipelines_.scene_set_layout(), std::span(&scene_set_, 1));
  ctx_.set_name(VK_OBJECT_TYPE_DESCRIPTOR_SET, scene_set_, "scene");

  VkDescriptorBufferInfo buffers[2] = {{transforms_.handle(), 0, VK_WHOLE_SIZE},
                                       {materials_->params().handle(), 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[2]{};
  for (uint32_t i = 0; i < 2; ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = scene_set_;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &buffers[i];
  }
  vkUpdateDescriptorSets(ctx_.device(), 2, writes, 0, nullptr);
}

DrawStats SceneDraws::record(VkCommandBuffer cmd, const CameraView& camera, uint32_t height,
                             const DrawOptions& options) const {
  DrawStats stats;
  if (draws_.empty()) return stats;
  VkPipelineLayout layout = pipelines_.layout();
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &scene_set_, 0,
                          nullptr);
  PushConstants push{};
  push.view_proj = camera.view_proj;
  push.eye[0] = camera.eye.x;
  push.eye[1] = camera.eye.y;
  push.eye[2] = camera.eye.z;
  std::copy(std::begin(kLight), std::end(kLight), push.light);

  const Frustum frustum = frustum_of(camera.view_proj);
  VkPipeline bound_pipeline = VK_NULL_HANDLE;
  const GpuMesh* bound_mesh = nullptr;
  VkBuffer bound_indices = VK_NULL_HANDLE;
  uint32_t bound_material = UINT32_MAX;
  uint32_t bound_palette = UINT32_MAX;
  for (const SceneDraw* draw : draw_order(draws_, camera.eye)) {
    const GpuMesh& mesh = *draw->mesh;
    if (draw->pipeline != bound_pipeline) {
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, draw->pipeline);
      bound_pipeline = draw->pipeline;
    }
    if (&mesh != bound_mesh) {
      // The skin stream, when the mesh has one, is bound for rigid draws too (they ignore it).
      const VkBuffer buffers[3] = {mesh.vertices.handle(), scene_.zeros.handle(),
                                   mesh.skin.handle()};
      const VkDeviceSize offsets[3] = {0, 0, 0};
      vkCmdBindVertexBuffers(cmd, kVertexBinding, mesh.skin.handle() ? 3 : 2, buffers, offsets);
      bound_mesh = &mesh;
    }
    if (draw->skinned && draw->palette_offset != bound_palette) {
      VkDescriptorSet set = palettes_->set();
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 2, 1, &set, 1,
                              &draw->palette_offset);
      bound_palette = draw->palette_offset;
    }
    if (draw->material != bound_material) {
      VkDescriptorSet set = materials_->set(draw->material);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 1, 1, &set, 0, nullptr);
      bound_material = draw->material;
    }
    push.transform = draw->transform;
    push.material = draw->material;
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof push, &push);

    const assetlib::Submesh& sub = mesh.info.submeshes[draw->submesh];
    assetlib::IndexRange range = choose_lod(*draw, camera, height, options);
    stats.lod_triangles_saved +=
        (sub.index_count - std::min(sub.index_count, range.index_count)) / 3;
    bool by_meshlet = options.meshlets && !draw->skinned && range.first_index == sub.first_index &&
                      sub.meshlet_count > 0 && !mesh.meshlets.empty();
    VkBuffer indices = by_meshlet ? mesh.meshlet_indices.handle() : mesh.indices.handle();
    if (indices != bound_indices) {
      vkCmdBindIndexBuffer(cmd, indices, 0,
                           by_meshlet ? VK_INDEX_TYPE_UINT32 : index_type(mesh.info));
      bound_indices = indices;
    }
    if (!by_meshlet) {
      vkCmdDrawIndexed(cmd, range.index_count, 1, range.first_index, 0, 0);
      stats.draws += 1;
      stats.triangles += range.index_count / 3;
      continue;
    }
    // Runs of visible meshlets are contiguous in meshlet_indices: one draw per run.
    uint32_t run_first = 0, run_count = 0;
    for (uint32_t i = sub.first_meshlet; i < sub.first_meshlet + sub.meshlet_count; ++i) {
      const GpuMeshlet& m = mesh.meshlets[i];
      if (!meshlet_visible(*draw, m, frustum, camera.eye)) {
        stats.meshlet_triangles_culled += m.index_count / 3;
        continue;
      }
      stats.triangles += m.index_count / 3;
      if (run_count != 0 && run_first + run_count == m.first_index) {
        run_count += m.index_count;
        continue;
      }
      if (run_count != 0) {
        vkCmdDrawIndexed(cmd, run_count, 1, run_first, 0, 0);
        stats.draws += 1;
      }
      run_first = m.first_index;
      run_count = m.index_count;
    }
    if (run_count != 0) {
      vkCmdDrawIndexed(cmd, run_count, 1, run_first, 0, 0);
      stats.draws += 1;
    }
  }
  return stats;
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

}  // namespace sample
