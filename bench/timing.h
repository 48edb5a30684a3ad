// assetlib-bench: repeat, take medians, compare side by side.
//
// Every comparison in the bench is a set of functions measured in the same loop: after one
// untimed warm-up call each, each round gives every function one sample in turn. A burst of load
// elsewhere on a shared machine then hits all sides of a ratio alike, and the median of the
// samples throws the bursts away.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace bench {

struct TimingPolicy {
  int samples = 5;                    // timed samples per function
  double min_sample_seconds = 0.002;  // a sample repeats the call until it lasts at least this
  uint64_t max_calls_per_sample = 1u << 16;
};

struct Timing {
  double median = 0;  // seconds per call, median over the samples
  double min = 0;     // fastest sample, seconds per call
  double max = 0;     // slowest sample, seconds per call
  uint64_t calls_per_sample = 0;
  int samples = 0;
  bool ok = false;    // false when any call returned false (then the figures are meaningless)
  bool failed = false;  // this function's call returned false
};

// Seconds on the steady clock.
double now_seconds();

// Median of `values` (mean of the two middle ones for an even count); 0 when empty.
double median_of(std::vector<double> values);

// Measures `functions` side by side as described above. A function returns false on failure,
// which stops the measurement (every Timing then has ok == false).
std::vector<Timing> measure_side_by_side(std::span<const std::function<bool()>> functions,
                                         const TimingPolicy& policy);

}  // namespace bench
