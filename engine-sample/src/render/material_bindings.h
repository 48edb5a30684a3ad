// The materials the draws use, on the GPU: each one's factors in one storage buffer (a draw
// passes its index) and its five textures in a descriptor set of their own. A material comes from
// the MATL asset a prefab node or a mesh names; a mesh without one is drawn with a material made
// from the summary its file keeps, so every draw goes through the same shader path.
#pragma once

#include "assets/gpu_scene.h"
#include "vk/gpu_buffer.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace sample {

class VulkanContext;

// One material as mesh.frag reads it (std430): matches `struct Material` there.
struct MaterialParams {
  float base_color[4];  // linear RGBA factor
  float emissive[4];    // rgb: factor x strength
  float surface[4];     // metallic, roughness, normal scale, occlusion strength
  float alpha[4];       // mode (0 opaque, 1 mask, 2 blend), cutoff, unlit (0/1), 0
  // Per texture slot (base colour, metallic-roughness, normal, occlusion, emissive): the two rows
  // of its 2x3 UV transform (KHR_texture_transform); the first row's w is the UV set.
  float uv_transform[5][2][4];
};
static_assert(sizeof(MaterialParams) == 224, "must match struct Material in mesh.frag (std430)");

inline constexpr uint32_t kMaterialTextureSlots = 5;

class MaterialBindings {
 public:
  MaterialBindings(const VulkanContext& ctx, const GpuScene& scene);
  ~MaterialBindings();
  MaterialBindings(const MaterialBindings&) = delete;
  MaterialBindings& operator=(const MaterialBindings&) = delete;

  // The material of a submesh: the MATL asset `name` when the folder has it (`name` from the
  // prefab node or the mesh summary), else one made from `summary`. Warns once, naming `user`,
  // about a MATL or texture name the folder lacks (a stand-in is used: nothing stops the sample).
  uint32_t resolve(const std::string& name, const assetlib::MeshMaterial& summary,
                   const std::string& user);
  const assetlib::MaterialInfo& info(uint32_t material) const { return materials_[material]; }

  // After every resolve(): the factor buffer and one descriptor set per material, laid out as
  // `layout` (bindings 0..4: the slots' combined image samplers).
  void upload(VkDescriptorSetLayout layout);
  VkDescriptorSet set(uint32_t material) const { return sets_[material]; }
  const GpuBuffer& params() const { return params_; }

 private:
  using SamplerKey = std::tuple<assetlib::TextureWrap, assetlib::TextureWrap, VkFilter, VkFilter>;
  uint32_t add(assetlib::MaterialInfo info, const std::string& key, const std::string& user);
  void check_texture(assetlib::TextureSlot& slot, const char* slot_name, const std::string& user);
  VkSampler sampler(const assetlib::TextureSlot& slot, VkFormat format);
  void write_set(uint32_t material);

  const VulkanContext& ctx_;
  const GpuScene& scene_;
  std::vector<assetlib::MaterialInfo> materials_;
  std::map<std::string, uint32_t, std::less<>> by_key_;
  std::set<std::string, std::less<>> warned_;
  std::map<SamplerKey, VkSampler> samplers_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets_;
  GpuBuffer params_;
};

}  // namespace sample
