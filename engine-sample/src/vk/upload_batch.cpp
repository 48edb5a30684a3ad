#include "vk/upload_batch.h"

#include "error.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>

namespace sample {
namespace {

// Query pairs per slot. A full query pool submits the batch just like full staging does.
constexpr uint32_t kQueriesPerSlot = 512;

VkImageMemoryBarrier image_barrier(VkImage image, uint32_t mip_levels, VkImageLayout from,
                                   VkImageLayout to, VkAccessFlags src_access,
                                   VkAccessFlags dst_access) {
  VkImageMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, mip_levels, 0, 1};
  return barrier;
}

}  // namespace

UploadBatch::UploadBatch(const VulkanContext& ctx, VkDeviceSize slot_size, uint32_t slot_count)
    : ctx_(ctx) {
  // 16 keeps every texel format's copy offset legal; the device may ask for more for speed.
  alignment_ =
      std::lcm(VkDeviceSize{16},
               std::max<VkDeviceSize>(1, ctx.properties().limits.optimalBufferCopyOffsetAlignment));
  slot_count = std::max(slot_count, 1u);
  const VkDeviceSize ring_limit = heap_size(ctx, MemoryUse::Upload) / 4;
  slot_size_ =
      align_up(std::min(slot_size, std::max<VkDeviceSize>(ring_limit / slot_count, 1)), alignment_);
  ring_ = GpuBuffer(ctx, slot_size_ * slot_count, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    MemoryUse::Upload, "staging ring");
  slots_.resize(slot_count);
  for (uint32_t i = 0; i < slot_count; ++i) {
    Slot& slot = slots_[i];
    slot.base = slot_size_ * i;
    slot.cmd = ctx.allocate_command_buffer();
    slot.fence = ctx.create_fence(false);
    if (ctx.timestamp_valid_bits() != 0) {
      VkQueryPoolCreateInfo info{};
      info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = kQueriesPerSlot;
      vk_check(vkCreateQueryPool(ctx.device(), &info, nullptr, &slot.queries), "vkCreateQueryPool");
    }
  }
  stats_.slot_size = slot_size_;
  stats_.slot_count = slot_count;
}

UploadBatch::~UploadBatch() {
  VkDevice device = ctx_.device();
  for (Slot& slot : slots_) {
    if (slot.in_flight) vkWaitForFences(device, 1, &slot.fence, VK_TRUE, UINT64_MAX);
    if (slot.queries) vkDestroyQueryPool(device, slot.queries, nullptr);
    if (slot.fence) vkDestroyFence(device, slot.fence, nullptr);
    if (slot.cmd) vkFreeCommandBuffers(device, ctx_.command_pool(), 1, &slot.cmd);
  }
}

// The current slot, ready to record into. Reusing a slot waits for the batch it last carried.
UploadBatch::Slot& UploadBatch::open_slot() {
  Slot& slot = slots_[current_];
  if (slot.recording) return slot;
  if (slot.in_flight) retire(slot);
  vk_check(vkResetFences(ctx_.device(), 1, &slot.fence), "vkResetFences");
  vk_check(vkResetCommandBuffer(slot.cmd, 0), "vkResetCommandBuffer");
  begin_one_time_commands(slot.cmd, "vkBeginCommandBuffer(upload)");
  if (slot.queries) vkCmdResetQueryPool(slot.cmd, slot.queries, 0, kQueriesPerSlot);
  slot.head = 0;
  slot.queries_used = 0;
  slot.timed_ids.clear();
  slot.wrote_buffers = false;
  slot.recording = true;
  return slot;
}

StagingSpan UploadBatch::reserve(VkDeviceSize size, const std::string& what) {
  if (size > slot_size_) {
    submit();  // a batch of its own: its buffer is freed with it
    // One such buffer alive at a time (each may be most of the heap): wait for the last one.
    for (Slot& other : slots_) {
      if (other.in_flight && other.own_staging) retire(other);
    }
    Slot& slot = open_slot();
    GpuBuffer& own = slot.own_staging.emplace(ctx_, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                              MemoryUse::Upload, what + " (staging)");
    slot.head = slot_size_;  // full: the next upload starts the next batch
    stats_.bytes += size;
    return {own.mapped(), own.handle(), 0, size, serial_};
  }
  Slot* slot = &open_slot();
  VkDeviceSize offset = align_up(slot->head, alignment_);
  bool queries_full = slot->queries && slot->queries_used + 2 > kQueriesPerSlot;
  if (offset + size > slot_size_ || queries_full) {
    submit();
    slot = &open_slot();
    offset = 0;
  }
  slot->head = offset + size;
  stats_.bytes += size;
  return {ring_.mapped() + slot->base + offset, ring_.handle(), slot->base + offset, size, serial_};
}

// Copies recorded into a batch other than the span's would read staging that may be reused.
UploadBatch::Slot& UploadBatch::slot_of(const StagingSpan& span) {
  Slot& slot = slots_[current_];
  if (span.batch != serial_ || !slot.recording) {
    throw std::logic_error("UploadBatch: a staging span was used after its batch was submitted");
  }
  return slot;
}

void UploadBatch::copy_to_buffer(const StagingSpan& src, VkDeviceSize src_offset, VkBuffer dst,
                                 VkDeviceSize size) {
  Slot& slot = slot_of(src);
  VkBufferCopy region{src.offset + src_offset, 0, size};
  vkCmdCopyBuffer(slot.cmd, src.buffer, dst, 1, &region);
  slot.wrote_buffers = true;
}

void UploadBatch::copy_to_image(const StagingSpan& src, VkImage dst, uint32_t mip_levels,
                                std::span<const VkBufferImageCopy> regions) {
  Slot& slot = slot_of(src);
  VkImageMemoryBarrier to_transfer =
      image_barrier(dst, mip_levels, VK_IMAGE_LAYOUT_UNDEFINED,
                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdPipelineBarrier(slot.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &to_transfer);

  std::vector<VkBufferImageCopy> absolute(regions.begin(), regions.end());
  for (VkBufferImageCopy& region : absolute) region.bufferOffset += src.offset;
  vkCmdCopyBufferToImage(slot.cmd, src.buffer, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         static_cast<uint32_t>(absolute.size()), absolute.data());

  VkImageMemoryBarrier to_shader =
      image_barrier(dst, mip_levels, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_ACCESS_SHADER_READ_BIT);
  vkCmdPipelineBarrier(slot.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                       &to_shader);
}

// Both timestamps wait for all earlier work (BOTTOM_OF_PIPE), so the difference is what this
// upload added to the batch's GPU time, even where a GPU overlaps independent copies.
void UploadBatch::begin_timing(const StagingSpan& span, uint32_t id) {
  Slot& slot = slot_of(span);
  if (!slot.queries) return;
  vkCmdWriteTimestamp(slot.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, slot.queries,
                      slot.queries_used++);
  slot.timed_ids.push_back(id);
}

void UploadBatch::end_timing(const StagingSpan& span) {
  Slot& slot = slot_of(span);
  if (!slot.queries) return;
  vkCmdWriteTimestamp(slot.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, slot.queries,
                      slot.queries_used++);
}

void UploadBatch::submit() {
  Slot& slot = slots_[current_];
  if (!slot.recording) return;
  if (slot.wrote_buffers) {
    // One barrier per batch makes every vertex and index copy in it visible to vertex input.
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_INDEX_READ_BIT;
    vkCmdPipelineBarrier(slot.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0, 1, &barrier, 0, nullptr, 0,
                         nullptr);
  }
  vk_check(vkEndCommandBuffer(slot.cmd), "vkEndCommandBuffer(upload)");
  if (slot.own_staging) {
    slot.own_staging->flush(0, slot.own_staging->size());
  } else {
    ring_.flush(slot.base, slot.head);
  }

  VkSubmitInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &slot.cmd;
  vk_check(vkQueueSubmit(ctx_.queue(), 1, &info, slot.fence), "vkQueueSubmit(upload)");
  slot.recording = false;
  slot.in_flight = true;
  ++serial_;
  ++stats_.batches;
  current_ = (current_ + 1) % slots_.size();
}

void UploadBatch::retire(Slot& slot) {
  auto start = std::chrono::steady_clock::now();
  ctx_.wait_for(slot.fence);
  stats_.fence_wait_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  slot.in_flight = false;
  slot.own_staging.reset();
  collect_timings(slot);
}

void UploadBatch::collect_timings(const Slot& slot) {
  if (!slot.queries || slot.queries_used == 0) return;
  std::vector<uint64_t> ticks(slot.queries_used);
  vk_check(vkGetQueryPoolResults(ctx_.device(), slot.queries, 0, slot.queries_used,
                                 ticks.size() * sizeof(uint64_t), ticks.data(), sizeof(uint64_t),
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
           "vkGetQueryPoolResults(upload)");
  uint32_t bits = ctx_.timestamp_valid_bits();
  uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  double ns_per_tick = ctx_.properties().limits.timestampPeriod;
  for (size_t i = 0; i < slot.timed_ids.size(); ++i) {
    uint64_t elapsed = (ticks[2 * i + 1] - ticks[2 * i]) & mask;
    gpu_ms_[slot.timed_ids[i]] = static_cast<double>(elapsed) * ns_per_tick / 1e6;
  }
}

void UploadBatch::finish() {
  submit();
  for (Slot& slot : slots_) {
    if (slot.in_flight) retire(slot);
  }
}

std::optional<double> UploadBatch::gpu_milliseconds(uint32_t id) const {
  auto it = gpu_ms_.find(id);
  if (it == gpu_ms_.end()) return std::nullopt;
  return it->second;
}

}  // namespace sample
