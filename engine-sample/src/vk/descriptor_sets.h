// Descriptor sets that live as long as their owner: one pool sized for exactly the sets it holds,
// so the owner frees them all by destroying the pool.
#pragma once

#include "vk/vulkan_context.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

namespace sample {

// Creates a pool for sets.size() sets of `layout` and allocates them into `sets`. Every binding
// of the layout is of `type`, `descriptors_per_set` descriptors in all. Returns the pool (the
// caller destroys it); throws SampleError on a Vulkan failure.
VkDescriptorPool allocate_descriptor_sets(const VulkanContext& ctx, VkDescriptorType type,
                                          uint32_t descriptors_per_set,
                                          VkDescriptorSetLayout layout,
                                          std::span<VkDescriptorSet> sets);

}  // namespace sample
