#include "pipeline/side_files.h"

#include "common/asset_kinds.h"
#include "common/file_descriptor.h"
#include "common/source_paths.h"
#include "pipeline/bake_folders.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace baker {
namespace {

namespace fs = std::filesystem;

BakeStatus refused(const char* option, const fs::path& path, const std::string& why) {
  return BakeStatus::failure(BakeError::Config, path.string(), std::string(option) + " " + why);
}

// A report an earlier bake wrote there: a regular file (opened without blocking: a FIFO is not
// one) holding a JSON object with the report's keys. Anything else in the input folder is the
// user's; one past 256 MiB is not read to find out.
bool earlier_report(const fs::path& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW));
  struct stat st {};
  constexpr off_t kMaxReport = off_t(256) << 20;
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size > kMaxReport)
    return false;
  std::string text(size_t(st.st_size), '\0');
  if (::pread(fd.get(), text.data(), text.size(), 0) != ssize_t(text.size())) return false;
  nlohmann::json report = nlohmann::json::parse(text, nullptr, false);
  return report.is_object() && report.contains("schema_version") && report.contains("files");
}

// A build folder may lie inside the input folder (cmake -B build in the project): stamps,
// depfiles and plan files may go there, but never over a source, baker.json or a file of the
// user's. An earlier stamp or depfile is named .stamp or .d; plan files go into a folder of
// their own, never the input folder itself.
BakeStatus check_in_input(const fs::path& target, SideFile kind, const char* option,
                          const std::string& relative) {
  std::error_code ec;
  const bool exists = fs::exists(fs::symlink_status(target, ec));
  if (kind == SideFile::PlanFolder) {
    if (relative != ".") return {};
    return refused(option, target,
                   "names the input folder itself: plan files need a folder of "
                   "their own");
  }
  if (kind == SideFile::Report) {
    if (target.extension() != ".json" || target.filename() == "baker.json")
      return refused(option, target,
                     "in the input folder must name a .json file of its own, "
                     "not '" +
                         relative + "'");
    if (exists && !earlier_report(target))
      return refused(
          option, target,
          "would replace '" + relative + "' in the input folder, which is not a bake report");
    return {};
  }
  if (source_kind(relative) || target.filename() == "baker.json") {
    return refused(option, target,
                   "names '" + relative +
                       "', a file of the input folder's that a bake never "
                       "modifies");
  }
  if (exists && target.extension() != ".stamp" && target.extension() != ".d") {
    return refused(option, target,
                   "would replace '" + relative +
                       "' in the input folder, which "
                       "is not a stamp (.stamp) or depfile (.d)");
  }
  return {};
}

BakeStatus check_in_output(const fs::path& target, SideFile kind, const char* option,
                           const std::string& relative) {
  const bool bakes = relative == "." || is_baker_file(relative) ||
                     is_output_extension(lower_extension(relative)) ||
                     relative.find(".parts/") != std::string::npos;
  if (kind == SideFile::Report && (bakes || target.extension() != ".json"))
    return refused(option, target,
                   "in the output folder must name a .json file of its own, "
                   "not '" +
                       relative + "'");
  if (kind != SideFile::Report && bakes)
    return refused(option, target,
                   "in the output folder must name a path of its own, not '" + relative +
                       "', which the bake writes");
  return {};
}

// The first symlink on the way to `path` that leads out of the input or output folder it lies
// in, whichever way the folders were named (through a symlinked parent, /tmp on macOS, they
// resolve elsewhere than the path reads): one someone planted there.
std::optional<fs::path> symlink_leading_out(const fs::path& path, const fs::path& input,
                                            const fs::path& output) {
  std::error_code ec;
  fs::path way;
  for (const fs::path& part : fs::absolute(path, ec).lexically_normal()) {
    const fs::path next = way / part;
    if (!way.empty() && fs::is_symlink(next, ec)) {
      const fs::path here = fs::weakly_canonical(way, ec), there = fs::weakly_canonical(next, ec);
      for (const fs::path* folder : {&output, &input}) {
        if (!folder->empty() && folder_within(here, *folder) && !folder_within(there, *folder))
          return next;
      }
    }
    way = next;
  }
  return std::nullopt;
}

}  // namespace

bool is_baker_file(const std::string& output_relative) {
  const std::string first = output_relative.substr(0, output_relative.find('/'));
  return first == "manifest.json" || first.rfind(".assetlib-", 0) == 0;
}

BakeStatus check_side_file(const fs::path& path, SideFile kind, const char* option,
                           const fs::path& input, const fs::path& output) {
  if (std::optional<fs::path> link = symlink_leading_out(path, input, output)) {
    return refused(option, path,
                   "leads through the symlink " + link->string() +
                       " out of the folder it lies in; not followed");
  }
  std::error_code ec;
  // Absolute first: weakly_canonical keeps a relative path relative (a first build, whose output
  // folder does not exist yet), and no relative path lies within a resolved folder.
  const fs::path target = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return {};
  if (!output.empty() && folder_within(target, output))
    return check_in_output(target, kind, option,
                           target.lexically_relative(output).generic_string());
  if (folder_within(target, input))
    return check_in_input(target, kind, option, target.lexically_relative(input).generic_string());
  return {};
}

BakeStatus check_build_files(const std::optional<fs::path>& stamp,
                             const std::optional<fs::path>& depfile, const fs::path& input,
                             const fs::path& output) {
  if (stamp) {
    if (BakeStatus s = check_side_file(*stamp, SideFile::BuildFile, "--stamp", input, output); !s)
      return s;
  }
  if (depfile) return check_side_file(*depfile, SideFile::BuildFile, "--depfile", input, output);
  return {};
}

}  // namespace baker
