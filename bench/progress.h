// assetlib-bench: a progress line on stderr every few seconds during long measurements.
#pragma once

#include "timing.h"

#include <cstdio>
#include <string>

namespace bench {

class Progress {
 public:
  Progress(std::string what, size_t total) : what_(std::move(what)), total_(total), start_(now_seconds()) {}
  ~Progress() { std::fprintf(stderr, "  %s: %zu files in %.1f s\n", what_.c_str(), total_, now_seconds() - start_); }

  void step(size_t done) {
    double now = now_seconds();
    if (now - last_ < 10) return;
    last_ = now;
    std::fprintf(stderr, "  %s: %zu/%zu\n", what_.c_str(), done, total_);
  }

 private:
  std::string what_;
  size_t total_;
  double start_;
  double last_ = now_seconds();
};

}  // namespace bench
