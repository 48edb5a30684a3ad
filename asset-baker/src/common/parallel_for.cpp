#include "common/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace baker {

void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& task) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  size_t failed_item = count;
  std::exception_ptr error;
  auto work = [&] {
    // An item once taken always runs: every item below a failing one was taken before it.
    while (!failed) {
      size_t i = next++;
      if (i >= count) return;
      try {
        task(i);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (i < failed_item) {
          failed_item = i;
          error = std::current_exception();
        }
        failed = true;
      }
    }
  };
  size_t helpers = std::min<size_t>(std::max(threads, 1u), count) - (count > 0);
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  try {
    for (size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  } catch (...) {
    // No thread to spare (std::system_error) or no memory for one: the threads started so far,
    // and this one, take every item.
  }
  work();
  for (std::thread& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace baker
