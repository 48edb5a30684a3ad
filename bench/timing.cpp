#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace bench {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::vector<Timing> measure_side_by_side(std::span<const std::function<bool()>> functions,
                                         const TimingPolicy& policy) {
  const size_t n = functions.size();
  std::vector<Timing> out(n);
  std::vector<std::vector<double>> samples(n);
  // Warm-up (first touch of buffers, file already in the page cache), then one more call to
  // learn how many calls make a sample long enough for the clock.
  auto fail = [&](size_t i) {
    out[i].failed = true;
    return out;
  };
  for (size_t i = 0; i < n; ++i) {
    if (!functions[i]()) return fail(i);
    double start = now_seconds();
    if (!functions[i]()) return fail(i);
    double once = std::max(now_seconds() - start, 1e-9);
    double wanted = std::ceil(policy.min_sample_seconds / once);
    out[i].calls_per_sample = std::clamp<uint64_t>(uint64_t(wanted), 1, policy.max_calls_per_sample);
  }
  for (int round = 0; round < std::max(1, policy.samples); ++round) {
    for (size_t i = 0; i < n; ++i) {
      double start = now_seconds();
      for (uint64_t c = 0; c < out[i].calls_per_sample; ++c) {
        if (!functions[i]()) return fail(i);
      }
      samples[i].push_back((now_seconds() - start) / double(out[i].calls_per_sample));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    out[i].median = median_of(samples[i]);
    out[i].min = *std::min_element(samples[i].begin(), samples[i].end());
    out[i].max = *std::max_element(samples[i].begin(), samples[i].end());
    out[i].samples = int(samples[i].size());
    out[i].ok = true;
  }
  return out;
}

}  // namespace bench
