// The staging ring: reserve space, unpack straight into the mapped pointer, record the copies.
//
// One host-visible buffer is split into slots used in turn. A slot collects many uploads into one
// command buffer and is submitted with one fence when it is full (or on finish()); while the GPU
// copies out of it, the CPU unpacks the next assets into the next slot. A slot is only reused
// after its fence has signalled, so no reservation is ever overwritten while the GPU reads it.
#pragma once

#include "vk/gpu_buffer.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace sample {

class VulkanContext;

// Space handed out by reserve(): write the bytes at `data`, then record copies from it.
struct StagingSpan {
  std::byte* data = nullptr;
  VkBuffer buffer = VK_NULL_HANDLE;  // the staging buffer: the ring, or one of the upload's own
  VkDeviceSize offset = 0;           // of `data` in `buffer`
  VkDeviceSize size = 0;
  uint64_t batch = 0;  // the batch it belongs to: its copies must be recorded there
};

struct UploadStats {
  VkDeviceSize slot_size = 0;
  uint32_t slot_count = 0;
  uint64_t batches = 0;      // submits, one fence each
  VkDeviceSize bytes = 0;    // reserved in total
  double fence_wait_ms = 0;  // CPU time spent waiting for slots to come back
};

class UploadBatch {
 public:
  // `slot_size` bounds one batch; the ring (slot_size x slot_count) is held to a quarter of the
  // upload heap, so a manifest's sizes (which readers do not check) cannot make it fail.
  UploadBatch(const VulkanContext& ctx, VkDeviceSize slot_size, uint32_t slot_count);
  // Waits for batches still in flight: their staging memory is freed here.
  ~UploadBatch();
  UploadBatch(const UploadBatch&) = delete;
  UploadBatch& operator=(const UploadBatch&) = delete;

  // `size` bytes in the current batch, aligned for image copies. Submits the batch first when it
  // cannot hold them (or one more timed upload). An upload larger than a slot gets a staging
  // buffer of its own, in a batch of its own; one larger than the upload heap throws, naming
  // `what`.
  StagingSpan reserve(VkDeviceSize size, const std::string& what);

  void copy_to_buffer(const StagingSpan& src, VkDeviceSize src_offset, VkBuffer dst,
                      VkDeviceSize size);
  // Transitions all `mip_levels` to TRANSFER_DST, copies `regions` (bufferOffset relative to
  // `src`), then transitions to SHADER_READ_ONLY for the fragment shader.
  void copy_to_image(const StagingSpan& src, VkImage dst, uint32_t mip_levels,
                     std::span<const VkBufferImageCopy> regions);

  // GPU timestamps around the copies of one upload, read back when its batch completes.
  void begin_timing(const StagingSpan& span, uint32_t id);
  void end_timing(const StagingSpan& span);
  // Milliseconds of GPU time for upload `id`, once finish() has returned; nullopt when the
  // queue has no timestamps.
  std::optional<double> gpu_milliseconds(uint32_t id) const;

  void submit();  // submits the current batch if it holds anything
  void finish();  // submits, then waits for every batch: all reserved uploads are GPU-ready

  const UploadStats& stats() const { return stats_; }

 private:
  struct Slot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkDeviceSize base = 0;  // of the slot in the ring buffer
    VkDeviceSize head = 0;  // bytes used
    uint32_t queries_used = 0;
    std::vector<uint32_t> timed_ids;  // upload id of each query pair
    bool recording = false;
    bool in_flight = false;
    bool wrote_buffers = false;
    // An upload larger than a slot has the batch to itself and this buffer, freed with it.
    std::optional<GpuBuffer> own_staging;
  };

  Slot& open_slot();
  void retire(Slot& slot);
  void collect_timings(const Slot& slot);
  Slot& slot_of(const StagingSpan& span);

  const VulkanContext& ctx_;
  VkDeviceSize slot_size_ = 0;
  VkDeviceSize alignment_ = 16;
  GpuBuffer ring_;
  std::vector<Slot> slots_;
  size_t current_ = 0;
  uint64_t serial_ = 0;  // batches submitted so far; the current batch's number
  std::unordered_map<uint32_t, double> gpu_ms_;
  UploadStats stats_;
};

}  // namespace sample
