// What the baker tells people and CI while it works: a progress bar on a terminal, plain lines
// otherwise; warnings and errors always (unless quiet, which keeps only errors).
//
// The bar fits the terminal's width, redraws at most ten times a second, and reads
//   [#####.........] 120/663  41.2 MB/s  ETA 0:37  textures/rock_albedo.png
// (the rate and ETA count source bytes, so a few large files do not skew them as a count would).
// finish() clears it, so the summary that follows starts on a clean line.
#pragma once

#include "common/bake_status.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace baker {

class ProgressReport {
 public:
  ProgressReport(size_t total, bool quiet, bool verbose);
  ~ProgressReport();

  // The sources to report on and their bytes together (for the rate and the ETA).
  void set_total(size_t total, uint64_t total_bytes);
  // More to report on: sources baked a second time.
  void add_to_total(size_t count, uint64_t bytes);
  // One source of `bytes` finished; `what` is "baked", "up to date" or "failed". Thread-safe.
  void step(const std::string& name, const std::string& what, uint64_t bytes);
  // Said once: a source baked a second time repeats the warnings of its first bake.
  void warning(const std::string& message);
  // Printed at once, and kept for the list the bake ends with (failure_summary.h).
  void error(const BakeStatus& failure);
  void info(const std::string& message);     // shown unless quiet
  void verbose(const std::string& message);  // shown only with --verbose
  // Clears the bar for good: what is printed next starts on its own line.
  void finish();

  size_t warning_count() const;  // distinct warnings
  bool quiet() const { return quiet_; }
  std::vector<BakeStatus> failures() const;

 private:
  using Clock = std::chrono::steady_clock;
  void print_line(const std::string& line, bool to_stderr);
  void clear_bar();
  void draw_bar(bool force);

  mutable std::mutex mutex_;
  size_t total_, done_ = 0, warnings_ = 0;
  uint64_t total_bytes_ = 0, done_bytes_ = 0;
  std::vector<BakeStatus> failures_;
  std::set<std::string> warned_;
  bool quiet_, verbose_, tty_;
  bool bar_visible_ = false, finished_ = false;
  std::string last_name_;
  Clock::time_point start_ = Clock::now(), last_draw_{};
};

// The bar's line for a terminal of `columns`: never wider, the file name cut from its start
// ("...s/rock_albedo.png") when it does not fit. Exposed for tests.
std::string progress_line(size_t done, size_t total, uint64_t done_bytes, uint64_t total_bytes,
                          double seconds, const std::string& name, size_t columns);

}  // namespace baker
