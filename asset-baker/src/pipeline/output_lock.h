// One baker at a time per output folder. Two bakers writing into one folder would sweep each
// other's temporaries and race on the cache and manifest, so a bake holds an exclusive flock on
// ".assetlib-lock" in the output folder from before its first write until it exits (the kernel
// drops the lock when the process dies, so a killed run never leaves the folder locked).
#pragma once

#include "common/bake_status.h"
#include "pipeline/output_tree.h"

#include <functional>

namespace baker {

inline constexpr const char* kLockFileName = ".assetlib-lock";

class OutputLock {
 public:
  OutputLock() = default;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  ~OutputLock();

  // Takes the lock without waiting. When another process holds it, returns IoError naming the
  // folder. The lock file stays empty, so that output folders stay byte-identical across runs.
  BakeStatus acquire(const OutputTree& tree);
  // Takes the lock, waiting while another process holds it (calling `waiting` once first), until
  // it is free or an interrupt signal arrives (interrupt.h, under an InterruptScope; then IoError).
  BakeStatus acquire_waiting(const OutputTree& tree, const std::function<void()>& waiting);
  // A shared lock instead, for bakes that write only their own source's files and records
  // (bake-one): any number of them run at once in one folder, never beside a whole-folder bake.
  BakeStatus acquire_shared(const OutputTree& tree);

 private:
  BakeStatus take(const OutputTree& tree, int operation, bool& busy);

  int fd_ = -1;
};

}  // namespace baker
