#include "pipeline/job_runner.h"

#include "pipeline/interrupt.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

namespace baker {
namespace {

constexpr size_t kIdle = SIZE_MAX;

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

}  // namespace

bool run_jobs(JobContext& context, const std::vector<Source>& sources,
              const std::vector<size_t>& to_run, RunLimits limits, std::vector<JobResult>& results,
              ProgressReport& progress) {
  const size_t workers = std::max<size_t>(1, std::min<size_t>(limits.jobs, to_run.size()));
  std::atomic<size_t> next{0};
  // Guards `results`, `current`, `running` and `stopped`: a job that finishes after it was
  // abandoned must not touch the results the bake is being finished with.
  std::mutex mutex;
  std::condition_variable finished;
  std::vector<size_t> current(workers, kIdle);  // the source each worker is on
  auto clocks = std::make_unique<JobClock[]>(workers);
  size_t running = workers;
  bool stopped = false;

  auto work = [&](size_t w) {
    for (size_t k; !interrupt_signal() && (k = next.fetch_add(1)) < to_run.size();) {
      size_t i = to_run[k];
      {
        std::lock_guard lock(mutex);
        if (stopped) return;
        current[w] = i;
      }
      JobResult result = run_job(context, sources[i], clocks[w]);
      std::lock_guard lock(mutex);
      if (stopped) return;  // abandoned: the bake was finished without this source
      current[w] = kIdle;
      results[i] = std::move(result);
      for (const std::string& warning : results[i].warnings) progress.warning(warning);
      if (results[i].outcome == Outcome::Failed) progress.error(results[i].status);
      progress.step(sources[i].relative, to_string(results[i].outcome), sources[i].bytes);
    }
    std::lock_guard lock(mutex);
    --running;
    finished.notify_all();
  };
  std::vector<std::thread> threads;
  for (size_t w = 0; w < workers; ++w) threads.emplace_back(work, w);

  std::unique_lock lock(mutex);
  while (running > 0 && !stopped) {
    finished.wait_for(lock, std::chrono::milliseconds(100));
    for (size_t w = 0; limits.time_limit > 0 && w < workers; ++w) {
      if (current[w] == kIdle || clocks[w].seconds() <= limits.time_limit) continue;
      const Source& stuck = sources[current[w]];
      results[current[w]].outcome = Outcome::Failed;
      results[current[w]].status =
          BakeStatus::failure(BakeError::TimeLimit, stuck.relative,
                              "still baking after " + seconds_text(limits.time_limit) +
                                  " s, the per-file time limit (--time-limit); the bake stops "
                                  "here, its previous output is kept");
      progress.error(results[current[w]].status);
      stopped = true;
    }
  }
  lock.unlock();
  if (!stopped) {
    for (std::thread& t : threads) t.join();
    return false;
  }
  context.stop_commits();
  for (std::thread& t : threads) t.detach();
  return true;
}

}  // namespace baker
