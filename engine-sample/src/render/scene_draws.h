// What every render of the loaded scene shares, offscreen or in a window: the draws (every submesh
// of every mesh instance with its material and pipeline), the GPU data they index (transforms,
// material factors and textures), the start of the render pass, and the one function that records
// a frame. Both paths use these, so the window shows exactly the scene the screenshot does.
#pragma once

#include "assets/gpu_scene.h"
#include "render/camera.h"
#include "render/joint_palettes.h"
#include "render/material_bindings.h"
#include "render/scene_animation.h"
#include "render/scene_instances.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sample {

class MeshPipelines;
class VulkanContext;

// One vkCmdDrawIndexed: a submesh of a mesh instance with its material.
struct SceneDraw {
  const GpuMesh* mesh = nullptr;
  uint32_t submesh = 0;    // index into mesh->info.submeshes
  uint32_t transform = 0;  // index into the transforms buffer
  uint32_t material = 0;   // index into MaterialBindings
  VkPipeline pipeline = VK_NULL_HANDLE;
  bool blend = false;  // drawn after the others, back to front
  Vec3 centre;         // of the submesh's bounds in the world: for sorting and LOD choice
  float radius = 0;    // of the submesh's bounding sphere in the world
  float size = 0;      // world length that the mesh's LOD errors are relative to
  Mat4 world;          // for the meshlets' bounds
  float scale = 1;     // the largest stretch of `world`, for the meshlets' spheres
  // Meshlets may be dropped by their backface cone: a single-sided material, and a transform that
  // neither mirrors nor stretches unevenly (so the cone keeps its shape).
  bool cone_culling = false;
  // Drawn by mesh_skinned.vert with the joint matrices its JointPalettes offset selects. Never
  // drawn meshlet by meshlet: the meshlets' bounds and cones are of the bind pose.
  bool skinned = false;
  uint32_t palette_offset = 0;
};

struct DrawOptions {
  // Choose each submesh's level of detail by its projected size (meshes baked with LODs).
  bool lods = true;
  // The coarsest level whose simplification error covers at most this many pixels is drawn.
  float lod_pixel_error = 1.0f;
  // Full-detail submeshes of meshes baked with meshlets are drawn meshlet by meshlet, leaving out
  // those outside the view or facing away (CPU culling; no mesh shaders needed).
  bool meshlets = true;
};

// Per frame: what was drawn.
struct DrawStats {
  uint64_t draws = 0;  // vkCmdDrawIndexed calls
  uint64_t triangles = 0;
  uint64_t lod_triangles_saved = 0;       // LOD 0 triangles left out by choosing coarser LODs
  uint64_t meshlet_triangles_culled = 0;  // LOD 0 triangles left out by meshlet culling
};

class SceneDraws {
 public:
  // Resolves every submesh's material, texture and pipeline once, and uploads the transforms,
  // material factors and skinned meshes' joint matrices (the prefabs posed as `animation` says;
  // choose_poses' SampleError when no prefab has that clip), so a frame only replays the list.
  // The pipelines belong to the render pass the draws will be recorded in.
  SceneDraws(const VulkanContext& ctx, const GpuScene& scene, MeshPipelines& pipelines,
             SceneLayout layout, const AnimationOptions& animation);
  ~SceneDraws();
  SceneDraws(const SceneDraws&) = delete;
  SceneDraws& operator=(const SceneDraws&) = delete;

  const SceneInstances& instances() const { return instances_; }
  size_t draw_count() const { return draws_.size(); }
  // Which clip posed the prefabs and how many skinned mesh instances there are; empty when the
  // scene has neither a clip chosen nor skinned meshes.
  const std::string& pose_description() const { return pose_description_; }

  // Records every draw inside an open render pass compatible with the pipelines (with
  // dynamic-viewport pipelines the caller sets viewport and scissor first). `height` is the
  // target's, in pixels, for the LOD choice.
  DrawStats record(VkCommandBuffer cmd, const CameraView& camera, uint32_t height,
                   const DrawOptions& options) const;

 private:
  void add_instance(const MeshInstance& instance, uint32_t transform, uint32_t palette_offset);
  void create_scene_set();
  void destroy() noexcept;

  const VulkanContext& ctx_;
  const GpuScene& scene_;
  MeshPipelines& pipelines_;
  SceneInstances instances_;
  std::vector<SceneDraw> draws_;
  std::unique_ptr<MaterialBindings> materials_;
  std::unique_ptr<JointPalettes> palettes_;
  std::string pose_description_;
  GpuBuffer transforms_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet scene_set_ = VK_NULL_HANDLE;
};

// Begins `render_pass` (a colour and a depth attachment) on `framebuffer`, clearing colour to the
// scene's background and depth to the far plane.
void begin_scene_pass(VkCommandBuffer cmd, VkRenderPass render_pass, VkFramebuffer framebuffer,
                      VkExtent2D extent);

}  // namespace sample
