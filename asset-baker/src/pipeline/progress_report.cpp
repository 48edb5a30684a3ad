#include "pipeline/progress_report.h"

#include "common/terminal_text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace baker {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr size_t kDefaultColumns = 80;
constexpr size_t kBarCells = 20;

size_t terminal_columns() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return kDefaultColumns;
}

std::string duration_text(double seconds) {
  auto whole = uint64_t(seconds + 0.5);
  char text[32];
  if (whole >= 3600) {
    std::snprintf(text, sizeof text, "%llu:%02llu:%02llu", (unsigned long long)(whole / 3600),
                  (unsigned long long)(whole / 60 % 60), (unsigned long long)(whole % 60));
  } else {
    std::snprintf(text, sizeof text, "%llu:%02llu", (unsigned long long)(whole / 60),
                  (unsigned long long)(whole % 60));
  }
  return text;
}

}  // namespace

std::string progress_line(size_t done, size_t total, uint64_t done_bytes, uint64_t total_bytes,
                          double seconds, const std::string& name, size_t columns) {
  std::string cells(total ? done * kBarCells / total : 0, '#');
  cells.resize(kBarCells, '.');
  char head[160];
  int n = std::snprintf(head, sizeof head, "[%s] %zu/%zu", cells.c_str(), done, total);
  std::string line(head, size_t(n));
  // The rate needs a moment of history to mean anything; the ETA needs some bytes done.
  if (seconds >= 0.5 && done_bytes > 0) {
    double rate = double(done_bytes) / seconds;
    n = std::snprintf(head, sizeof head, "  %.1f MB/s", rate / 1e6);
    line.append(head, size_t(n));
    if (total_bytes > done_bytes) {
      line += "  ETA ";
      line += duration_text(double(total_bytes - done_bytes) / rate);
    }
  }
  if (line.size() + 2 >= columns) {
    line.resize(std::min(line.size(), columns > 1 ? columns - 1 : 0));
    return line.substr(0, line.find_last_not_of(' ') + 1);
  }
  // One column is left free: a line that fills the last column wraps on some terminals.
  size_t room = columns - 1 - line.size() - 2;
  line += "  ";
  if (name.size() <= room) return line + name;
  if (room > 3) line += "..." + name.substr(name.size() - (room - 3));
  return line;
}

ProgressReport::ProgressReport(size_t total, bool quiet, bool verbose)
    : total_(total), quiet_(quiet), verbose_(verbose), tty_(::isatty(STDERR_FILENO) == 1) {}

ProgressReport::~ProgressReport() { clear_bar(); }

void ProgressReport::set_total(size_t total, uint64_t total_bytes) {
  std::lock_guard lock(mutex_);
  total_ = total;
  total_bytes_ = total_bytes;
}

void ProgressReport::add_to_total(size_t count, uint64_t bytes) {
  std::lock_guard lock(mutex_);
  total_ += count;
  total_bytes_ += bytes;
}

void ProgressReport::clear_bar() {
  if (!bar_visible_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  bar_visible_ = false;
}

void ProgressReport::print_line(const std::string& line, bool to_stderr) {
  clear_bar();
  std::FILE* out = to_stderr ? stderr : stdout;
  std::fputs(terminal_text(line).c_str(), out);
  std::fputc('\n', out);
  std::fflush(out);
}

void ProgressReport::draw_bar(bool force) {
  if (quiet_ || !tty_ || total_ == 0 || finished_) return;
  Clock::time_point now = Clock::now();
  if (!force && bar_visible_ && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = progress_line(done_, total_, done_bytes_, total_bytes_, seconds,
                                   terminal_text(last_name_), terminal_columns());
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  bar_visible_ = true;
}

void ProgressReport::step(const std::string& name, const std::string& what, uint64_t bytes) {
  std::lock_guard lock(mutex_);
  ++done_;
  done_bytes_ += bytes;
  last_name_ = name;
  if (!tty_ && !quiet_ && (what != "up to date" || verbose_)) {
    // snprintf rather than a chain of string '+': GCC 12 at -O3 warns falsely on the latter
    // (PR105651).
    char counter[48];
    std::snprintf(counter, sizeof counter, "[%zu/%zu] ", done_, total_);
    print_line(counter + what + " " + name, false);
  }
  draw_bar(done_ == total_);
}

void ProgressReport::warning(const std::string& message) {
  std::lock_guard lock(mutex_);
  if (!warned_.insert(message).second) return;
  ++warnings_;
  if (quiet_) return;
  print_line("warning: " + message, true);
  draw_bar(true);
}

void ProgressReport::error(const BakeStatus& failure) {
  std::lock_guard lock(mutex_);
  failures_.push_back(failure);
  print_line("error: " + failure.message(), true);
  draw_bar(true);
}

void ProgressReport::finish() {
  std::lock_guard lock(mutex_);
  clear_bar();
  finished_ = true;
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
  draw_bar(true);
}

void ProgressReport::verbose(const std::string& message) {
  if (verbose_) info(message);
}

}  // namespace baker
