// Descriptor sets for material textures, by logical name, with the white fallback.
#pragma once

#include "assets/gpu_scene.h"

#include <vulkan/vulkan.h>

#include <map>
#include <set>
#include <string>

namespace sample {

class VulkanContext;

class TextureBindings {
 public:
  TextureBindings(const VulkanContext& ctx, const GpuScene& scene, VkDescriptorSetLayout layout);
  ~TextureBindings();
  TextureBindings(const TextureBindings&) = delete;
  TextureBindings& operator=(const TextureBindings&) = delete;

  // The set sampling the texture `name` (a logical name from a material). An empty name means
  // "no texture" and gets white; a name the baked folder lacks gets white and one warning naming
  // `user` (the mesh and material), so a missing file never stops the sample.
  VkDescriptorSet for_texture(const std::string& name, const std::string& user);

  // Whether `name` resolves, warning like for_texture() when it does not. For textures the
  // shader does not sample (normal maps), so a broken reference is still reported.
  bool check(const std::string& name, const std::string& user, const char* slot);

 private:
  VkDescriptorSet allocate(const GpuImage& image, const std::string& name);
  VkSampler sampler_for(VkFormat format) const;

  const VulkanContext& ctx_;
  const GpuScene& scene_;
  VkDescriptorSetLayout layout_;
  VkSampler linear_ = VK_NULL_HANDLE;
  VkSampler nearest_ = VK_NULL_HANDLE;  // for formats that cannot be filtered linearly
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet white_ = VK_NULL_HANDLE;
  std::map<std::string, VkDescriptorSet, std::less<>> sets_;
  std::set<std::string, std::less<>> warned_;
};

}  // namespace sample
