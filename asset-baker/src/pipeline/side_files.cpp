#include "pipeline/side_files.h"

#include "common/asset_kinds.h"
#include "common/source_paths.h"
#include "pipeline/bake_folders.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace baker {
namespace {

namespace fs = std::filesystem;

BakeStatus refused(const char* option, const fs::path& path, const std::string& why) {
  return BakeStatus::failure(BakeError::Config, path.string(), std::string(option) + " " + why);
}

// A report an earlier bake wrote there: a JSON object with the report's keys. Anything else in
// the input folder is the user's.
bool earlier_report(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  return report.is_object() && report.contains("schema_version") && report.contains("files");
}

BakeStatus check_in_input(const fs::path& target, SideFile kind, const char* option,
                          const std::string& relative) {
  std::error_code ec;
  switch (kind) {
    case SideFile::Report:
      if (target.extension() != ".json" || target.filename() == "baker.json")
        return refused(option, target,
                       "in the input folder must name a .json file of its own, "
                       "not '" +
                           relative + "'");
      if (fs::exists(target, ec) && !earlier_report(target))
        return refused(
            option, target,
            "would replace '" + relative + "' in the input folder, which is not a bake report");
      return {};
    case SideFile::BuildFile:
    case SideFile::PlanFolder:
      return refused(option, target,
                     "names '" + relative +
                         "' in the input folder, which a bake "
                         "never modifies; name a path in the build folder");
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
  if (kind == SideFile::BuildFile && bakes)
    return refused(option, target,
                   "in the output folder must name a file of its own, not '" + relative +
                       "', which the bake writes");
  return {};
}

}  // namespace

bool is_baker_file(const std::string& output_relative) {
  const std::string first = output_relative.substr(0, output_relative.find('/'));
  return first == "manifest.json" || first.rfind(".assetlib-", 0) == 0;
}

BakeStatus check_side_file(const fs::path& path, SideFile kind, const char* option,
                           const fs::path& input, const fs::path& output) {
  std::error_code ec;
  const fs::path written = fs::absolute(path, ec).lexically_normal();
  const fs::path target = fs::weakly_canonical(path, ec);
  if (ec) return {};
  // As written inside a folder, as resolved elsewhere: a symlink in that folder leads out of it.
  for (const fs::path* folder : {&output, &input}) {
    if (folder->empty()) continue;
    if (folder_within(written, *folder) && !folder_within(target, *folder)) {
      return refused(option, path,
                     "leads through a symlink in the " +
                         std::string(folder == &output ? "output" : "input") + " folder to " +
                         target.string() + "; not followed");
    }
  }
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
