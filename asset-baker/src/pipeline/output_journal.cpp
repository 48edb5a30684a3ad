#include "pipeline/output_journal.h"

#include <fcntl.h>
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
  if (std::optional<std::string> text =
          read_small_file(output.descriptor(), kJournalFileName, kMaxJournalBytes)) {
    // Lines of "<hash> <path>"; a line cut short by the kill has no newline and is skipped.
    std::string_view rest = *text;
    for (size_t end; (end = rest.find('\n')) != std::string_view::npos;
         rest.remove_prefix(end + 1)) {
      std::string_view line = rest.substr(0, end);
      size_t space = line.find(' ');
      if (space == std::string_view::npos || space == 0 || space + 1 == line.size()) continue;
      left_over_.emplace_back(std::string(line.substr(space + 1)),
                              std::string(line.substr(0, space)));
    }
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
  if (fd_ < 0) {  // created with the first note: a run that publishes nothing leaves none
    fd_ = ::openat(output_->descriptor(), kJournalFileName,
                   O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      return BakeStatus::failure(BakeError::IoError, (output_->root() / kJournalFileName).string(),
                                 io_reason("opening the journal", errno));
    }
  }
  if (!write_all(fd_, std::as_bytes(std::span(lines)))) {
    return BakeStatus::failure(BakeError::IoError, (output_->root() / kJournalFileName).string(),
                               io_reason("noting outputs in the journal", errno));
  }
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
