#include "assets/texture_bindings.h"

#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <cstdio>

namespace sample {
namespace {

VkSampler create_sampler(const VulkanContext& ctx, VkFilter filter) {
  VkSamplerCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  info.magFilter = filter;
  info.minFilter = filter;
  info.mipmapMode =
      filter == VK_FILTER_LINEAR ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  info.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  // Every baked mip is used; no anisotropy, which would need an optional device feature.
  info.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler = VK_NULL_HANDLE;
  vk_check(vkCreateSampler(ctx.device(), &info, nullptr, &sampler), "vkCreateSampler");
  return sampler;
}

// One set per texture at most, plus the white one.
VkDescriptorPool create_pool(const VulkanContext& ctx, uint32_t max_sets) {
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, max_sets};
  VkDescriptorPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  info.maxSets = max_sets;
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  vk_check(vkCreateDescriptorPool(ctx.device(), &info, nullptr, &pool), "vkCreateDescriptorPool");
  return pool;
}

}  // namespace

TextureBindings::TextureBindings(const VulkanContext& ctx, const GpuScene& scene,
                                 VkDescriptorSetLayout layout)
    : ctx_(ctx), scene_(scene), layout_(layout) {
  try {
    linear_ = create_sampler(ctx, VK_FILTER_LINEAR);
    nearest_ = create_sampler(ctx, VK_FILTER_NEAREST);
    pool_ = create_pool(ctx, static_cast<uint32_t>(scene.textures.size()) + 1);
    white_ = allocate(scene.white, "fallback white");
  } catch (...) {
    if (pool_) vkDestroyDescriptorPool(ctx.device(), pool_, nullptr);
    if (nearest_) vkDestroySampler(ctx.device(), nearest_, nullptr);
    if (linear_) vkDestroySampler(ctx.device(), linear_, nullptr);
    throw;
  }
}

TextureBindings::~TextureBindings() {
  vkDestroyDescriptorPool(ctx_.device(), pool_, nullptr);  // frees its sets
  vkDestroySampler(ctx_.device(), nearest_, nullptr);
  vkDestroySampler(ctx_.device(), linear_, nullptr);
}

VkSampler TextureBindings::sampler_for(VkFormat format) const {
  return has_format_features(ctx_, format, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)
             ? linear_
             : nearest_;
}

VkDescriptorSet TextureBindings::allocate(const GpuImage& texture, const std::string& name) {
  VkDescriptorSetAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  info.descriptorPool = pool_;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout_;
  VkDescriptorSet set = VK_NULL_HANDLE;
  vk_check(vkAllocateDescriptorSets(ctx_.device(), &info, &set), "vkAllocateDescriptorSets");
  ctx_.set_name(VK_OBJECT_TYPE_DESCRIPTOR_SET, set, name);

  VkDescriptorImageInfo image{sampler_for(texture.desc().format), texture.view(),
                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image;
  vkUpdateDescriptorSets(ctx_.device(), 1, &write, 0, nullptr);
  return set;
}

bool TextureBindings::check(const std::string& name, const std::string& user, const char* slot) {
  if (name.empty() || scene_.textures.contains(name)) return true;
  if (warned_.insert(user + "\n" + name).second) {
    std::fprintf(stderr,
                 "warning: %s: %s '%s' is not a texture in the baked folder; using 1x1 white\n",
                 user.c_str(), slot, name.c_str());
  }
  return false;
}

VkDescriptorSet TextureBindings::for_texture(const std::string& name, const std::string& user) {
  if (name.empty() || !check(name, user, "base_color_texture")) return white_;
  auto found = sets_.find(name);
  if (found != sets_.end()) return found->second;
  VkDescriptorSet set = allocate(scene_.textures.find(name)->second.image, name);
  sets_.emplace(name, set);
  return set;
}

}  // namespace sample
