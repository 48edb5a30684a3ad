#include "pipeline/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace baker {

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

BakeStatus OutputLock::acquire(const OutputTree& tree) { return take(tree, LOCK_EX); }

BakeStatus OutputLock::acquire_shared(const OutputTree& tree) { return take(tree, LOCK_SH); }

BakeStatus OutputLock::take(const OutputTree& tree, int operation) {
  std::string where = tree.root().string();
  int fd =
      ::openat(tree.descriptor(), kLockFileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    return BakeStatus::failure(
        BakeError::IoError, where,
        std::string("cannot create the lock file ") + kLockFileName + ": " + std::strerror(errno));
  }
  if (::flock(fd, operation | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) {
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
