// Files a command writes beside a bake: a --json report, a build system's stamp and depfile, the
// plan folder (a pack file has checks of its own, pack_folder.h). The user names them, but a
// mistyped path or a symlink someone planted in a folder must not make one replace a source, the
// output folder's own files or a file outside both folders that the path does not lead to as
// written. One check for all of them.
#pragma once

#include "common/bake_status.h"

#include <filesystem>
#include <optional>
#include <string>

namespace baker {

enum class SideFile {
  Report,      // --json: a .json file; in the input folder, a new one or an earlier report
  BuildFile,   // a stamp or a depfile: outside the input folder; not the output folder's own files
  PlanFolder,  // plan --plan-dir: outside the input folder
};

// True for a path (relative to an output folder) that the baker keeps for itself there: the
// manifest and every `.assetlib-*` file or folder.
bool is_baker_file(const std::string& output_relative);

// Whether `path`, given as `option` (for the message), may be written as `kind` for a bake of
// `input` into `output` (both resolved; `output` may be empty when the command has none). Refused
// (Config, naming the option and the reason): a path a symlink in the input or output folder leads
// elsewhere; one in the input folder that `kind` may not take (a source, baker.json, a user's
// file); one of the output folder's own files or baked assets, or the folder itself. A path that
// does not resolve passes: writing it will say why.
BakeStatus check_side_file(const std::filesystem::path& path, SideFile kind, const char* option,
                           const std::filesystem::path& input, const std::filesystem::path& output);

// check_side_file of a build edge's --stamp and --depfile (BuildFile), those given.
BakeStatus check_build_files(const std::optional<std::filesystem::path>& stamp,
                             const std::optional<std::filesystem::path>& depfile,
                             const std::filesystem::path& input,
                             const std::filesystem::path& output);

}  // namespace baker
