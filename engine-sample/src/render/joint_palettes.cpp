#include "render/joint_palettes.h"

#include "error.h"
#include "vk/descriptor_sets.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace sample {

JointPalettes::JointPalettes(const VulkanContext& ctx) : ctx_(ctx) {
  // The alignment is a power of two: a multiple of a matrix's 64 bytes, or a divisor of them.
  VkDeviceSize alignment = ctx.properties().limits.minStorageBufferOffsetAlignment;
  step_ = std::max<size_t>(1, static_cast<size_t>(alignment / sizeof(Mat4)));
}

JointPalettes::~JointPalettes() {
  if (pool_) vkDestroyDescriptorPool(ctx_.device(), pool_, nullptr);
}

uint32_t JointPalettes::add(const std::shared_ptr<const std::vector<Mat4>>& palette) {
  if (auto it = offsets_.find(palette.get()); it != offsets_.end()) return it->second;
  const std::vector<Mat4>& joints = *palette;
  size_t first = (matrices_.size() + step_ - 1) / step_ * step_;
  if ((first + joints.size()) * sizeof(Mat4) > UINT32_MAX) {
    throw SampleError("the skinned meshes' joint matrices exceed 4 GiB");
  }
  matrices_.resize(first);  // identity matrices between palettes
  matrices_.insert(matrices_.end(), joints.begin(), joints.end());
  largest_ = std::max(largest_, joints.size());
  last_first_ = first;
  return offsets_[palette.get()] = static_cast<uint32_t>(first * sizeof(Mat4));
}

void JointPalettes::upload(VkDescriptorSetLayout layout) {
  if (matrices_.empty()) return;
  const VkDeviceSize range = VkDeviceSize{largest_} * sizeof(Mat4);
  const uint32_t max_range = ctx_.properties().limits.maxStorageBufferRange;
  if (range > max_range) {
    throw SampleError("a skeleton's " + std::to_string(largest_) +
                      " joint matrices exceed this device's storage buffer range (" +
                      std::to_string(max_range) + " bytes)");
  }
  // Every draw sees `range` bytes from its offset: the last palette's too.
  matrices_.resize(std::max(matrices_.size(), last_first_ + largest_));
  buffer_ = GpuBuffer(ctx_, sizeof(Mat4) * matrices_.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                      MemoryUse::Upload, "joint palettes");
  std::memcpy(buffer_.mapped(), matrices_.data(), buffer_.size());
  buffer_.flush(0, buffer_.size());
  write_set(layout);
}

void JointPalettes::write_set(VkDescriptorSetLayout layout) {
  pool_ = allocate_descriptor_sets(ctx_, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, layout,
                                   std::span(&set_, 1));
  ctx_.set_name(VK_OBJECT_TYPE_DESCRIPTOR_SET, set_, "joint palettes");

  VkDescriptorBufferInfo range{buffer_.handle(), 0, VkDeviceSize{largest_} * sizeof(Mat4)};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = set_;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
  write.pBufferInfo = &range;
  vkUpdateDescriptorSets(ctx_.device(), 1, &write, 0, nullptr);
}

}  // namespace sample
