// A VkBuffer with its own memory, mapped for its whole life when the memory is host-visible.
#pragma once

#include "vk/gpu_memory.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <string>
#include <utility>

namespace sample {

class GpuBuffer {
 public:
  GpuBuffer() = default;
  // `name` labels the buffer in errors and validation messages. With an `arena`, GpuOnly
  // buffers take a slice of it instead of an allocation of their own.
  GpuBuffer(const VulkanContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
            const std::string& name, GpuMemoryArena* arena = nullptr);
  ~GpuBuffer() { release(); }
  GpuBuffer(GpuBuffer&& other) noexcept { *this = std::move(other); }
  GpuBuffer& operator=(GpuBuffer&& other) noexcept;
  GpuBuffer(const GpuBuffer&) = delete;
  GpuBuffer& operator=(const GpuBuffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  std::byte* mapped() const { return mapped_; }  // nullptr for GpuOnly buffers

  // Make CPU writes visible to the GPU / GPU writes visible to the CPU. Needed only on
  // non-coherent memory; a no-op otherwise, so callers always call them.
  void flush(VkDeviceSize offset, VkDeviceSize size) const;
  void invalidate(VkDeviceSize offset, VkDeviceSize size) const;

 private:
  VkMappedMemoryRange atom_aligned_range(VkDeviceSize offset, VkDeviceSize size) const;
  void release() noexcept;

  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  Allocation memory_;
  VkDeviceSize size_ = 0;
  VkDeviceSize atom_size_ = 1;
  std::byte* mapped_ = nullptr;
};

// Whether buffers can hold `format` with every one of `features` on this device (e.g.
// VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT: read as a vertex input).
bool has_buffer_format_features(const VulkanContext& ctx, VkFormat format,
                                VkFormatFeatureFlags features);

}  // namespace sample
