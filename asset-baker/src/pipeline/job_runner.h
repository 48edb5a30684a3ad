// Running a bake's jobs on worker threads, under the per-file time limit.
//
// The time limit is the last resort behind every stage's own budget (docs/robustness.md): a source
// still baking after `time_limit` seconds (counted from when its memory was granted, leaving out
// time the process was stopped: Ctrl-Z, SIGSTOP) fails with TimeLimit and stops the bake. A thread
// cannot be cancelled, so the stuck job and every other one still running are abandoned: no job
// writes to the output folder any more, their sources count as not run (their previous outputs are
// kept), and the caller writes the cache and manifest of what finished and ends the process without
// waiting for them.
#pragma once

#include "pipeline/bake_job.h"
#include "pipeline/progress_report.h"

#include <cstddef>
#include <vector>

namespace baker {

struct RunLimits {
  unsigned jobs = 1;      // worker threads
  double time_limit = 0;  // seconds per source; 0: none
};

// Runs run_job for the sources `to_run` (indices into `sources`), each result into `results`, and
// reports each on `progress`. Stops starting sources on SIGINT/SIGTERM (interrupt.h), and abandons
// those still baking a second later. Returns true when jobs were abandoned, at the time limit or
// after an interrupt: the worker threads are then detached and still
// running (they still use `context`, `sources`, `to_run` and `progress`, which must live on), and
// the process must end (std::_Exit) once the caller has written what is done.
bool run_jobs(JobContext& context, const std::vector<Source>& sources,
              const std::vector<size_t>& to_run, RunLimits limits, std::vector<JobResult>& results,
              ProgressReport& progress);

}  // namespace baker
