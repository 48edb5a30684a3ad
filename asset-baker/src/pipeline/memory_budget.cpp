#include "pipeline/memory_budget.h"

#include <unistd.h>

#include <algorithm>

namespace baker {

MemoryBudget::Grant::~Grant() {
  if (budget_) budget_->release(bytes_);
}

MemoryBudget::Grant MemoryBudget::acquire(uint64_t bytes) {
  bytes = std::min(bytes, capacity_);
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [&] { return in_use_ + bytes <= capacity_; });
  in_use_ += bytes;
  return Grant(this, bytes);
}

void MemoryBudget::release(uint64_t bytes) {
  {
    std::lock_guard lock(mutex_);
    in_use_ -= bytes;
  }
  freed_.notify_all();
}

uint64_t default_memory_budget() {
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 4ull << 30;
  return uint64_t(pages) * uint64_t(page) / 2;
}

}  // namespace baker
