// assetlib-bench: the job system an engine would hand to assetlib::unpack_jobs. Threads started
// once and kept, so a measured load pays a wake-up, not a thread start.
#pragma once

#include <assetlib/unpack_jobs.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace bench {

class WorkerPool {
 public:
  // `threads` in all, the caller of parallel_for included (1: no worker thread).
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // body(i) for every i in [0, count) on the pool's threads and this one; returns when all are
  // done. Indices are handed out one at a time, in increasing order. One call at a time.
  void parallel_for(size_t count, const assetlib::TaskBody& body);

  // parallel_for as an assetlib::ParallelFor; empty for a pool of one thread, which makes
  // unpack_jobs take its plain loop.
  assetlib::ParallelFor as_parallel_for();

 private:
  void worker_loop();
  void run_items();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;  // bumped by each parallel_for
  unsigned busy_ = 0;        // workers still in the current generation
  bool stopping_ = false;
  const assetlib::TaskBody* body_ = nullptr;
  size_t count_ = 0;
  std::atomic<size_t> next_{0};
};

}  // namespace bench
