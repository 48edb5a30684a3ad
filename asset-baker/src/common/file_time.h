// A file's modification time as the baker records and compares it.
#pragma once

#include <sys/stat.h>
#include <time.h>

#include <cstdint>
#include <limits>

namespace baker {

// Nanoseconds since 1970. A time past 2262 (or before 1678) does not fit: it saturates, so a
// far-future time stays later than every run's start (never trusted as a stamp taken before an
// edit) instead of wrapping round into the past, where an edit keeping the mtime went unseen.
inline int64_t modification_ns(const struct stat& st) {
  constexpr int64_t kNs = 1'000'000'000;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t seconds = int64_t(st.st_mtim.tv_sec);
  if (seconds >= kMax / kNs) return kMax;
  if (seconds <= -(kMax / kNs)) return -kMax;
  return seconds * kNs + st.st_mtim.tv_nsec;
}

// Now, as the times of files written now will read: Linux dates them from the coarse clock, up to
// a tick (a few milliseconds) behind the precise one. A file written after this call never reads
// as older than it.
inline int64_t file_clock_now_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME_COARSE, &now);
  return int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace baker
