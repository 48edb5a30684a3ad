#include "pipeline/source_files.h"

#include "common/file_time.h"
#include "common/regular_file.h"
#include "common/source_paths.h"

#include <sys/stat.h>

namespace baker {

std::optional<FileStamp> stat_file(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileStamp{uint64_t(st.st_size), modification_ns(st), {}};
}

BakeStatus read_source(const std::filesystem::path& root, const std::string& relative,
                       std::vector<std::byte>& out) {
  std::optional<std::filesystem::path> path = inside_root(root, relative);
  if (!path)
    return BakeStatus::failure(BakeError::RefusedPath, relative, "leads outside the input folder");
  switch (ReadResult r = read_regular_file(*path, kMaxSourceBytes, out)) {
    case ReadResult::Ok: return {};
    case ReadResult::TooLarge:
      return BakeStatus::failure(BakeError::LimitExceeded, relative,
                                 "over the 1 GiB limit for a source file");
    case ReadResult::ReadError:
      // There, but the system refuses it (permissions, a device error): not the file's fault, and
      // no reason to drop what was baked from it before.
      return BakeStatus::failure(BakeError::IoError, relative, kUnreadableReason);
    default:
      return BakeStatus::failure(BakeError::UnreadableSource, relative,
                                 read_result_reason(r, kMaxSourceBytes));
  }
}

}  // namespace baker
