// The joint matrices of every skinned draw on the GPU: one storage buffer holding each skinned
// mesh instance's palette (its skeleton's joint matrices, posed) at an offset the device can bind
// (a multiple of minStorageBufferOffsetAlignment), and one descriptor set that a draw binds with
// its palette's offset as the dynamic offset (set 2 of the mesh pipelines; mesh_skinned.vert).
#pragma once

#include "render/scene_math.h"
#include "vk/gpu_buffer.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace sample {

class VulkanContext;

class JointPalettes {
 public:
  explicit JointPalettes(const VulkanContext& ctx);
  ~JointPalettes();
  JointPalettes(const JointPalettes&) = delete;
  JointPalettes& operator=(const JointPalettes&) = delete;

  // Adds a palette of `joints` (column-major, as GLSL's mat4); returns the dynamic offset that
  // selects it. Before upload() only. Throws SampleError when the palettes pass 4 GiB (dynamic
  // offsets are 32-bit).
  uint32_t add(const std::shared_ptr<const std::vector<Mat4>>& joints);
  size_t count() const { return offsets_.size(); }  // palettes added
  bool empty() const { return matrices_.empty(); }

  // After every add(): the buffer, and the descriptor set laid out as `layout` (binding 0, a
  // dynamic storage buffer) whose range covers the largest palette. Does nothing when empty.
  // Throws SampleError when that range exceeds the device's maxStorageBufferRange.
  void upload(VkDescriptorSetLayout layout);
  VkDescriptorSet set() const { return set_; }

 private:
  void write_set(VkDescriptorSetLayout layout);

  const VulkanContext& ctx_;
  size_t step_ = 1;  // matrices from one palette's start to the next possible one
  std::vector<Mat4> matrices_;
  size_t largest_ = 0;  // joints of the largest palette
  // The offset of each palette added, by its matrices: the instances of one node share one.
  std::map<const std::vector<Mat4>*, uint32_t> offsets_;
  size_t last_first_ = 0;  // first matrix of the last palette
  GpuBuffer buffer_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace sample
