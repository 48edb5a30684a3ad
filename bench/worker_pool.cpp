#include "worker_pool.h"

namespace bench {

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this] { worker_loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::run_items() {
  for (size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < count_;) (*body_)(i);
}

void WorkerPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    run_items();
    std::lock_guard lock(mutex_);
    if (--busy_ == 0) done_.notify_one();
  }
}

void WorkerPool::parallel_for(size_t count, const assetlib::TaskBody& body) {
  {
    std::lock_guard lock(mutex_);
    body_ = &body;
    count_ = count;
    next_.store(0, std::memory_order_relaxed);
    busy_ = unsigned(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  run_items();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
}

assetlib::ParallelFor WorkerPool::as_parallel_for() {
  if (workers_.empty()) return {};
  return [this](size_t count, const assetlib::TaskBody& body) { parallel_for(count, body); };
}

}  // namespace bench
