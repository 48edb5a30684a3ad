// Bounds on how long a piece of work takes, in tests that guard against a quadratic or worse
// path. Measured as the process's CPU time, not wall time: ctest -j runs other tests beside this
// one (a compile, a bake on every core), and on a busy machine the wall time of the same work
// stretched two or three times, failing the bound with nothing wrong.
#pragma once

#include <time.h>

#include <utility>

namespace test {

// The CPU seconds the whole process (every thread) spends while `work` runs.
template <class Work>
double cpu_seconds(Work&& work) {
  auto now = [] {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
  };
  const double start = now();
  std::forward<Work>(work)();
  return now() - start;
}

}  // namespace test
