#include "vk/descriptor_sets.h"

#include "vk/vk_check.h"

#include <vector>

namespace sample {

VkDescriptorPool allocate_descriptor_sets(const VulkanContext& ctx, VkDescriptorType type,
                                          uint32_t descriptors_per_set,
                                          VkDescriptorSetLayout layout,
                                          std::span<VkDescriptorSet> sets) {
  const uint32_t count = uint32_t(sets.size());
  VkDescriptorPoolSize size{type, descriptors_per_set * count};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = count;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  vk_check(vkCreateDescriptorPool(ctx.device(), &pool_info, nullptr, &pool),
           "vkCreateDescriptorPool");
  std::vector<VkDescriptorSetLayout> layouts(count, layout);
  VkDescriptorSetAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  info.descriptorPool = pool;
  info.descriptorSetCount = count;
  info.pSetLayouts = layouts.data();
  VkResult result = vkAllocateDescriptorSets(ctx.device(), &info, sets.data());
  if (result != VK_SUCCESS) vkDestroyDescriptorPool(ctx.device(), pool, nullptr);
  vk_check(result, "vkAllocateDescriptorSets");
  return pool;
}

}  // namespace sample
