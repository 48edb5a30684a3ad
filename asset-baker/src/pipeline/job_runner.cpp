#include "pipeline/job_runner.h"

#include "pipeline/interrupt.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

namespace baker {
namespace {

constexpr size_t kIdle = SIZE_MAX;

// How long sources already baking may go on after an interrupt before they are abandoned.
constexpr std::chrono::seconds kInterruptGrace{1};

// How often the time limit is looked at, and how much later than that a look may come before the
// time between is taken for a time the process did not run (Ctrl-Z, SIGSTOP, `docker pause`; the
// steady clock goes on meanwhile) rather than baking: then it does not count.
constexpr std::chrono::milliseconds kWatchTick{100};
constexpr std::chrono::seconds kStoppedGap{1};

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
  // What the workers share lives on the heap, held by each of them: an abandoned worker still
  // locks `mutex` and reads `stopped` when its job returns, after this function has.
  struct Shared {
    std::atomic<size_t> next{0};
    // Guards `current`, `running`, `stopped` and the caller's `results`: a job that finishes
    // after it was abandoned must not touch the results the bake is being finished with.
    std::mutex mutex;
    std::condition_variable finished;
    std::vector<size_t> current;  // the source each worker is on
    std::unique_ptr<JobClock[]> clocks;
    size_t running = 0;
    bool stopped = false;
  };
  auto shared = std::make_shared<Shared>();
  shared->current.assign(workers, kIdle);
  shared->clocks = std::make_unique<JobClock[]>(workers);
  shared->running = workers;

  auto work = [shared, &context, &sources, &to_run, &results, &progress](size_t w) {
    Shared& s = *shared;
    for (size_t k; !interrupt_signal() && (k = s.next.fetch_add(1)) < to_run.size();) {
      size_t i = to_run[k];
      {
        std::lock_guard lock(s.mutex);
        if (s.stopped) return;
        s.current[w] = i;
      }
      JobResult result = run_job(context, sources[i], s.clocks[w]);
      std::lock_guard lock(s.mutex);
      if (s.stopped) return;  // abandoned: the bake was finished without this source
      s.current[w] = kIdle;
      results[i] = std::move(result);
      for (const std::string& warning : results[i].warnings) progress.warning(warning);
      if (results[i].outcome == Outcome::Failed) progress.error(results[i].status);
      progress.step(sources[i].relative, to_string(results[i].outcome), sources[i].bytes);
    }
    std::lock_guard lock(s.mutex);
    --s.running;
    s.finished.notify_all();
  };
  auto last_look = std::chrono::steady_clock::now();  // before any job's clock starts
  std::vector<std::thread> threads;
  try {
    for (size_t w = 0; w < workers; ++w) threads.emplace_back(work, w);
  } catch (const std::system_error&) {
    // No thread to spare (a process limit: ulimit -u, a container's pids.max). The bake goes on
    // with the workers it got; with none, on this thread, without the time limit's watch.
    progress.warning(std::to_string(workers) + " worker threads wanted, " +
                     std::to_string(threads.size()) +
                     " could be started (a limit on processes?): baking on with " +
                     (threads.empty() ? std::string("this one, without --time-limit's watch")
                                      : std::to_string(threads.size())));
    std::lock_guard lock(shared->mutex);
    shared->running -= workers - threads.size();  // those started may have finished already
  }
  if (threads.empty()) {
    shared->running = 1;
    work(0);
  }

  std::unique_lock lock(shared->mutex);
  std::optional<std::chrono::steady_clock::time_point> interrupted_at;
  while (shared->running > 0 && !shared->stopped) {
    shared->finished.wait_for(lock, kWatchTick);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_look > kWatchTick + kStoppedGap) {
      // Resumed a moment ago: this thread's wait ended while the process was stopped, so it runs
      // as soon as the process does. A job started after that did not live through the stop.
      const auto resumed = now - kWatchTick;
      for (size_t w = 0; w < workers; ++w)
        shared->clocks[w].leave_out(resumed, now - last_look - kWatchTick);
    }
    last_look = now;
    // Interrupted (Ctrl-C, SIGTERM): no source starts, and those baking get a moment to finish.
    // Then they are abandoned as at the time limit, their previous outputs kept: one large
    // texture compresses for many seconds, and an interrupt must end the bake promptly.
    if (interrupt_signal() && !interrupted_at) interrupted_at = std::chrono::steady_clock::now();
    if (interrupted_at && std::chrono::steady_clock::now() - *interrupted_at > kInterruptGrace) {
      shared->stopped = true;  // their results stay NotRun
      break;
    }
    for (size_t w = 0; limits.time_limit > 0 && w < workers; ++w) {
      const size_t i = shared->current[w];
      if (i == kIdle || shared->clocks[w].seconds() <= limits.time_limit) continue;
      results[i].outcome = Outcome::Failed;
      results[i].status =
          BakeStatus::failure(BakeError::TimeLimit, sources[i].relative,
                              "still baking after " + seconds_text(limits.time_limit) +
                                  " s, the per-file time limit (--time-limit); the bake stops "
                                  "here, its previous output is kept");
      progress.error(results[i].status);
      shared->stopped = true;
    }
  }
  const bool stopped = shared->stopped;
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
