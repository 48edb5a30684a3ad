#include "pipeline/output_journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string_view>

namespace baker {

OutputJournal::~OutputJournal() {
  if (fd_ >= 0) ::close(fd_);
}

void OutputJournal::open(const OutputTree& output) {
  output_ = &output;
  std::optional<std::string> text =
      read_small_file(output.descriptor(), kJournalFileName, kMaxJournalBytes);
  if (!text) return;
  text_ = std::move(*text);
  torn_ = !text_.empty() && text_.back() != '\n';
  // Lines of "<hash> <path>"; a line cut short by the kill has no newline and is skipped.
  std::string_view rest = text_;
  for (size_t end; (end = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(end + 1)) {
    std::string_view line = rest.substr(0, end);
    size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0 || space + 1 == line.size()) continue;
    left_over_.emplace_back(line.substr(space + 1), line.substr(0, space));
  }
}

BakeStatus OutputJournal::note(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string lines;
  for (const auto& [path, hash] : outputs) {
    // A path with a line end would read back as two records: left out (as before the journal).
    if (path.find('\n') != std::string::npos) continue;
    lines += hash + " " + path + "\n";
  }
  std::lock_guard lock(mutex_);
  if (!output_ || lines.empty()) return {};
  const std::string where = (output_->root() / kJournalFileName).string();
  if (fd_ < 0) {  // opened with the first note: a run that publishes nothing leaves none
    // Never blocking (a FIFO planted there), and a regular file only.
    fd_ = ::openat(output_->descriptor(), kJournalFileName,
                   O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    const char* not_a_file = "is not a regular file; remove it";
    if (fd_ < 0) {  // ENXIO: a FIFO without a reader
      return BakeStatus::failure(BakeError::IoError, where,
                                 errno == ENXIO ? not_a_file : io_reason("opening", errno));
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      return BakeStatus::failure(BakeError::IoError, where, not_a_file);
    }
  }
  if (torn_) {  // the line cut short ends here, not inside the first of these
    const char newline = '\n';
    if (!write_all(fd_, std::as_bytes(std::span(&newline, 1))))
      return BakeStatus::failure(BakeError::IoError, where, io_reason("noting outputs", errno));
    torn_ = false;
  }
  if (!write_all(fd_, std::as_bytes(std::span(lines))))
    return BakeStatus::failure(BakeError::IoError, where, io_reason("noting outputs", errno));
  return {};
}

void OutputJournal::clear() {
  std::lock_guard lock(mutex_);
  if (!output_) return;
  // Removed, not emptied: a folder whose every bake finished holds no journal.
  if (::unlinkat(output_->descriptor(), kJournalFileName, 0) == 0 || errno == ENOENT)
    left_over_.clear();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  output_ = nullptr;
}

}  // namespace baker
