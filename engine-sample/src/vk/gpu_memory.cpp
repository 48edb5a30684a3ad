#include "vk/gpu_memory.h"

#include "error.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <algorithm>
#include <cstdio>
#include <span>

namespace sample {
namespace {

constexpr VkMemoryPropertyFlags kDeviceLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
constexpr VkMemoryPropertyFlags kVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
constexpr VkMemoryPropertyFlags kCoherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

// Property sets to try, most wanted first. Host memory prefers CACHED even for uploads: LZ4
// copies matches out of the bytes it has just written, and reading uncached write-combined
// memory back is an order of magnitude slower than unpacking into cached memory.
std::span<const VkMemoryPropertyFlags> preferences(MemoryUse use) {
  static constexpr VkMemoryPropertyFlags kGpuOnly[] = {kDeviceLocal, 0};
  static constexpr VkMemoryPropertyFlags kHost[] = {
      kVisible | kCoherent | kCached, kVisible | kCached, kVisible | kCoherent, kVisible};
  if (use == MemoryUse::GpuOnly) return kGpuOnly;
  return kHost;
}

const char* use_name(MemoryUse use) {
  switch (use) {
    case MemoryUse::GpuOnly: return "device-local";
    case MemoryUse::Upload: return "upload";
    case MemoryUse::Readback: return "readback";
  }
  return "?";
}

}  // namespace

uint32_t choose_memory_type(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits,
                            MemoryUse use, const std::string& what) {
  for (VkMemoryPropertyFlags wanted : preferences(use)) {
    for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
      bool allowed = (type_bits & (1u << i)) != 0;
      if (allowed && (properties.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    }
  }
  char bits[16];
  std::snprintf(bits, sizeof bits, "0x%x", type_bits);
  throw SampleError(what + ": no " + use_name(use) + " memory type among types " + bits);
}

VkDeviceSize heap_size(const VulkanContext& ctx, MemoryUse use) {
  const VkPhysicalDeviceMemoryProperties& properties = ctx.memory_properties();
  uint32_t type = choose_memory_type(properties, ~0u, use, use_name(use));
  return properties.memoryHeaps[properties.memoryTypes[type].heapIndex].size;
}

Allocation allocate_memory(const VulkanContext& ctx, const VkMemoryRequirements& requirements,
                           MemoryUse use, const std::string& what) {
  const VkPhysicalDeviceMemoryProperties& properties = ctx.memory_properties();
  uint32_t type = choose_memory_type(properties, requirements.memoryTypeBits, use, what);
  const VkDeviceSize heap = properties.memoryHeaps[properties.memoryTypes[type].heapIndex].size;
  if (requirements.size > heap) {
    throw SampleError(what + ": " + std::to_string(requirements.size) + " bytes of " +
                      use_name(use) + " memory are more than this device's heap holds (" +
                      std::to_string(heap) + " bytes)");
  }
  VkMemoryAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  info.allocationSize = requirements.size;
  info.memoryTypeIndex = type;
  Allocation out;
  std::string context =
      "vkAllocateMemory(" + what + ", " + std::to_string(requirements.size) + " bytes)";
  vk_check(vkAllocateMemory(ctx.device(), &info, nullptr, &out.memory), context.c_str());
  out.size = requirements.size;
  out.host_coherent = (properties.memoryTypes[type].propertyFlags & kCoherent) != 0;
  ctx.set_name(VK_OBJECT_TYPE_DEVICE_MEMORY, out.memory, what);
  return out;
}

GpuMemoryArena::GpuMemoryArena(const VulkanContext& ctx, VkDeviceSize block_size)
    : ctx_(ctx), block_size_(block_size) {}

GpuMemoryArena::~GpuMemoryArena() {
  for (const Block& block : blocks_) vkFreeMemory(ctx_.device(), block.memory, nullptr);
}

Allocation GpuMemoryArena::allocate(const VkMemoryRequirements& requirements,
                                    const std::string& what) {
  const VkPhysicalDeviceMemoryProperties& properties = ctx_.memory_properties();
  uint32_t type =
      choose_memory_type(properties, requirements.memoryTypeBits, MemoryUse::GpuOnly, what);
  // Starting every resource on a bufferImageGranularity boundary keeps buffers and optimally
  // tiled images off each other's pages, whatever order they arrive in.
  VkDeviceSize alignment =
      std::max(requirements.alignment, ctx_.properties().limits.bufferImageGranularity);
  Block* fit = nullptr;
  for (Block& block : blocks_) {
    if (block.type == type && align_up(block.head, alignment) + requirements.size <= block.size) {
      fit = &block;
      break;
    }
  }
  if (!fit) {
    VkMemoryRequirements block_requirements = requirements;
    block_requirements.size = std::max(block_size_, align_up(requirements.size, alignment));
    block_requirements.memoryTypeBits = 1u << type;
    Allocation memory = allocate_memory(ctx_, block_requirements, MemoryUse::GpuOnly,
                                        "arena block " + std::to_string(blocks_.size()));
    blocks_.push_back({memory.memory, type, memory.size, 0});
    fit = &blocks_.back();
  }
  Allocation slice;
  slice.memory = fit->memory;
  slice.offset = align_up(fit->head, alignment);
  slice.size = requirements.size;
  slice.host_coherent = (properties.memoryTypes[type].propertyFlags & kCoherent) != 0;
  slice.owned = false;
  fit->head = slice.offset + requirements.size;
  return slice;
}

}  // namespace sample
