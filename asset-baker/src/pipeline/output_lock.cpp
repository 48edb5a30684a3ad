#include "pipeline/output_lock.h"

#include "pipeline/interrupt.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace baker {

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

BakeStatus OutputLock::acquire(const OutputTree& tree) {
  bool busy = false;
  return take(tree, LOCK_EX, busy);
}

BakeStatus OutputLock::acquire_shared(const OutputTree& tree) {
  bool busy = false;
  return take(tree, LOCK_SH, busy);
}

// Polls rather than blocking in flock, so that Ctrl-C is seen between tries.
BakeStatus OutputLock::acquire_waiting(const OutputTree& tree,
                                       const std::function<void()>& waiting) {
  for (bool told = false;; told = true) {
    bool busy = false;
    BakeStatus s = take(tree, LOCK_EX, busy);
    if (!busy) return s;
    if (!told && waiting) waiting();
    if (interrupt_signal())
      return BakeStatus::failure(BakeError::IoError, tree.root().string(),
                                 "interrupted while waiting for another asset-baker");
    ::usleep(100 * 1000);
  }
}

BakeStatus OutputLock::take(const OutputTree& tree, int operation, bool& busy) {
  std::string where = tree.root().string();
  int fd =
      ::openat(tree.descriptor(), kLockFileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    return BakeStatus::failure(
        BakeError::IoError, where,
        std::string("cannot create the lock file ") + kLockFileName + ": " + std::strerror(errno));
  }
  if (::flock(fd, operation | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    busy = err == EWOULDBLOCK;
    if (busy) {
      return BakeStatus::failure(
          BakeError::IoError, where,
          "another asset-baker is baking into this folder; run again when it has finished");
    }
    return BakeStatus::failure(BakeError::IoError, where,
                               std::string("cannot lock: ") + std::strerror(err));
  }
  fd_ = fd;
  return {};
}

}  // namespace baker
