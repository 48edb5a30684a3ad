// A minimal memory-type chooser and two ways to get memory: a dedicated VkDeviceMemory (render
// targets, the staging ring) or a slice of a GpuMemoryArena block (every loaded asset), since
// drivers allow only maxMemoryAllocationCount allocations (often 4096) and a baked folder may
// hold more assets than that.
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

namespace sample {

class VulkanContext;

// `value` rounded up to a multiple of `alignment`.
inline VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

enum class MemoryUse {
  GpuOnly,   // sampled images, vertex and index buffers, render targets
  Upload,    // staging: the CPU writes (and LZ4 reads back what it wrote), the GPU reads once
  Readback,  // the GPU writes, the CPU reads
};

struct Allocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;  // of the resource in `memory`
  VkDeviceSize size = 0;
  bool host_coherent = true;  // false: flush/invalidate mapped ranges by hand
  bool owned = true;          // false: a slice of an arena block, freed with the arena
};

// Index of the best memory type among `type_bits` for `use`; throws naming `what` if none fits.
uint32_t choose_memory_type(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits,
                            MemoryUse use, const std::string& what);

// Bytes of the memory heap that `use` allocates from (the best type for it among all types).
VkDeviceSize heap_size(const VulkanContext& ctx, MemoryUse use);

// Allocates memory for `requirements`; `what` names the resource in errors and validation output.
// An allocation larger than its whole heap is refused naming `what` (Vulkan forbids asking).
Allocation allocate_memory(const VulkanContext& ctx, const VkMemoryRequirements& requirements,
                           MemoryUse use, const std::string& what);

// Device-local memory for resources that live as long as the scene: large blocks per memory
// type, handed out front to back and freed all at once when the arena goes. No per-resource
// free, which a loaded scene does not need.
class GpuMemoryArena {
 public:
  explicit GpuMemoryArena(const VulkanContext& ctx,
                          VkDeviceSize block_size = VkDeviceSize{32} << 20);
  ~GpuMemoryArena();
  GpuMemoryArena(const GpuMemoryArena&) = delete;
  GpuMemoryArena& operator=(const GpuMemoryArena&) = delete;

  Allocation allocate(const VkMemoryRequirements& requirements, const std::string& what);
  size_t block_count() const { return blocks_.size(); }

 private:
  struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint32_t type = 0;
    VkDeviceSize size = 0;
    VkDeviceSize head = 0;  // bytes handed out
  };

  const VulkanContext& ctx_;
  VkDeviceSize block_size_;
  std::vector<Block> blocks_;
};

}  // namespace sample
