// A minimal memory-type chooser and allocator: one VkDeviceMemory per resource.
//
// Fine for a sample with tens of assets; an engine that loads thousands would sub-allocate from
// large blocks (VMA or its own allocator) to stay far below maxMemoryAllocationCount.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace sample {

class VulkanContext;

enum class MemoryUse {
  GpuOnly,   // sampled images, vertex and index buffers, render targets
  Upload,    // staging: the CPU writes (and LZ4 reads back what it wrote), the GPU reads once
  Readback,  // the GPU writes, the CPU reads
};

struct Allocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  bool host_coherent = true;  // false: flush/invalidate mapped ranges by hand
};

// Index of the best memory type among `type_bits` for `use`; throws naming `what` if none fits.
uint32_t choose_memory_type(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits,
                            MemoryUse use, const std::string& what);

// Allocates memory for `requirements`; `what` names the resource in errors and validation output.
Allocation allocate_memory(const VulkanContext& ctx, const VkMemoryRequirements& requirements,
                           MemoryUse use, const std::string& what);

}  // namespace sample
