// What the baker tells people and CI while it works: a progress bar on a terminal, plain lines
// otherwise; warnings and errors always (unless quiet, which keeps only errors).
#pragma once

#include "common/bake_status.h"

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace baker {

class ProgressReport {
 public:
  ProgressReport(size_t total, bool quiet, bool verbose);
  ~ProgressReport();

  void set_total(size_t total) { total_ = total; }
  // One source finished; `what` is "baked", "up to date" or "failed". Thread-safe.
  void step(const std::string& name, const std::string& what);
  void warning(const std::string& message);
  // Printed at once, and kept for the list the bake ends with (failure_summary.h).
  void error(const BakeStatus& failure);
  void info(const std::string& message);     // shown unless quiet
  void verbose(const std::string& message);  // shown only with --verbose

  size_t warning_count() const;
  std::vector<BakeStatus> failures() const;

 private:
  void print_line(const std::string& line, bool to_stderr);
  void draw_bar();

  mutable std::mutex mutex_;
  size_t total_, done_ = 0, warnings_ = 0;
  std::vector<BakeStatus> failures_;
  bool quiet_, verbose_, tty_;
  bool bar_visible_ = false;
  std::string last_name_;
};

}  // namespace baker
