#include "vk/gpu_buffer.h"

#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <utility>

namespace sample {

GpuBuffer::GpuBuffer(const VulkanContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                     MemoryUse use, const std::string& name, GpuMemoryArena* arena)
    : device_(ctx.device()), size_(size), atom_size_(ctx.properties().limits.nonCoherentAtomSize) {
  try {
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    vk_check(vkCreateBuffer(device_, &info, nullptr, &buffer_),
             ("vkCreateBuffer(" + name + ")").c_str());
    ctx.set_name(VK_OBJECT_TYPE_BUFFER, buffer_, name);

    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device_, buffer_, &requirements);
    memory_ = arena && use == MemoryUse::GpuOnly ? arena->allocate(requirements, name)
                                                 : allocate_memory(ctx, requirements, use, name);
    vk_check(vkBindBufferMemory(device_, buffer_, memory_.memory, memory_.offset),
             "vkBindBufferMemory");
    if (use != MemoryUse::GpuOnly) {
      void* pointer = nullptr;
      vk_check(vkMapMemory(device_, memory_.memory, 0, VK_WHOLE_SIZE, 0, &pointer),
               ("vkMapMemory(" + name + ")").c_str());
      mapped_ = static_cast<std::byte*>(pointer);
    }
  } catch (...) {
    release();
    throw;
  }
}

GpuBuffer& GpuBuffer::operator=(GpuBuffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, Allocation{});
    size_ = std::exchange(other.size_, 0);
    atom_size_ = other.atom_size_;
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}

void GpuBuffer::release() noexcept {
  if (!device_) return;
  // Freeing the memory unmaps it.
  if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_.memory && memory_.owned) vkFreeMemory(device_, memory_.memory, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = {};
  mapped_ = nullptr;
  device_ = VK_NULL_HANDLE;
}

// Non-coherent ranges must start and end on nonCoherentAtomSize, or run to the end of the memory.
VkMappedMemoryRange GpuBuffer::atom_aligned_range(VkDeviceSize offset, VkDeviceSize size) const {
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = memory_.memory;
  range.offset = offset / atom_size_ * atom_size_;
  VkDeviceSize end = (offset + size + atom_size_ - 1) / atom_size_ * atom_size_;
  range.size = end >= memory_.size ? VK_WHOLE_SIZE : end - range.offset;
  return range;
}

void GpuBuffer::flush(VkDeviceSize offset, VkDeviceSize size) const {
  if (memory_.host_coherent || !mapped_ || size == 0) return;
  VkMappedMemoryRange range = atom_aligned_range(offset, size);
  vk_check(vkFlushMappedMemoryRanges(device_, 1, &range), "vkFlushMappedMemoryRanges");
}

void GpuBuffer::invalidate(VkDeviceSize offset, VkDeviceSize size) const {
  if (memory_.host_coherent || !mapped_ || size == 0) return;
  VkMappedMemoryRange range = atom_aligned_range(offset, size);
  vk_check(vkInvalidateMappedMemoryRanges(device_, 1, &range), "vkInvalidateMappedMemoryRanges");
}

bool has_buffer_format_features(const VulkanContext& ctx, VkFormat format,
                                VkFormatFeatureFlags features) {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format, &properties);
  return (properties.bufferFeatures & features) == features;
}

}  // namespace sample
