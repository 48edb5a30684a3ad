// A bound on the memory all running bakes may use together. A 16384² image needs about 2.5 GB
// while it bakes; several at once on a many-core machine would exhaust memory, so each job asks
// for its estimate before it decodes and waits while the others' grants leave too little. A job
// larger than the whole budget runs alone rather than never.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace baker {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t bytes) : capacity_(bytes) {}

  // Held for the duration of one bake; returns its bytes on destruction.
  class Grant {
   public:
    Grant(MemoryBudget* budget, uint64_t bytes) : budget_(budget), bytes_(bytes) {}
    Grant(const Grant&) = delete;
    Grant& operator=(const Grant&) = delete;
    Grant(Grant&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) {
      other.budget_ = nullptr;
    }
    ~Grant();

   private:
    MemoryBudget* budget_;
    uint64_t bytes_;
  };

  // Blocks until `bytes` (at most the capacity) fit beside the grants already out.
  Grant acquire(uint64_t bytes);

  uint64_t capacity() const { return capacity_; }

 private:
  void release(uint64_t bytes);

  const uint64_t capacity_;
  uint64_t in_use_ = 0;
  std::mutex mutex_;
  std::condition_variable freed_;
};

// Half of the machine's physical memory: the default budget.
uint64_t default_memory_budget();

}  // namespace baker
