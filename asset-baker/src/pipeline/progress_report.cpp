#include "pipeline/progress_report.h"

#include <unistd.h>

#include <cstdio>

namespace baker {

ProgressReport::ProgressReport(size_t total, bool quiet, bool verbose)
    : total_(total), quiet_(quiet), verbose_(verbose), tty_(::isatty(STDERR_FILENO) == 1) {}

ProgressReport::~ProgressReport() {
  if (bar_visible_) std::fputs("\r\033[K", stderr);
}

void ProgressReport::print_line(const std::string& line, bool to_stderr) {
  if (bar_visible_) {
    std::fputs("\r\033[K", stderr);
    bar_visible_ = false;
  }
  std::FILE* out = to_stderr ? stderr : stdout;
  std::fputs(line.c_str(), out);
  std::fputc('\n', out);
  std::fflush(out);
}

void ProgressReport::draw_bar() {
  if (quiet_ || !tty_ || total_ == 0) return;
  constexpr size_t kWidth = 30;
  size_t filled = done_ * kWidth / total_;
  std::string bar(filled, '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r\033[K[%s] %zu/%zu %s", bar.c_str(), done_, total_, last_name_.c_str());
  std::fflush(stderr);
  bar_visible_ = true;
}

void ProgressReport::step(const std::string& name, const std::string& what) {
  std::lock_guard lock(mutex_);
  ++done_;
  last_name_ = name;
  if (!tty_ && !quiet_ && (what != "up to date" || verbose_)) {
    // snprintf rather than a chain of string '+': GCC 12 at -O3 warns falsely on the latter
    // (PR105651).
    char counter[48];
    std::snprintf(counter, sizeof counter, "[%zu/%zu] ", done_, total_);
    print_line(counter + what + " " + name, false);
  }
  draw_bar();
}

void ProgressReport::warning(const std::string& message) {
  std::lock_guard lock(mutex_);
  ++warnings_;
  if (quiet_) return;
  print_line("warning: " + message, true);
  draw_bar();
}

void ProgressReport::error(const BakeStatus& failure) {
  std::lock_guard lock(mutex_);
  failures_.push_back(failure);
  print_line("error: " + failure.message(), true);
  draw_bar();
}

size_t ProgressReport::warning_count() const {
  std::lock_guard lock(mutex_);
  return warnings_;
}

std::vector<BakeStatus> ProgressReport::failures() const {
  std::lock_guard lock(mutex_);
  return failures_;
}

void ProgressReport::info(const std::string& message) {
  std::lock_guard lock(mutex_);
  if (quiet_) return;
  print_line(message, false);
  draw_bar();
}

void ProgressReport::verbose(const std::string& message) {
  if (verbose_) info(message);
}

}  // namespace baker
