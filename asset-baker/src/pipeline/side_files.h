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
  BuildFile,   // a stamp or a depfile: in the input folder (a build folder there), not over a
               // source or a file other than an earlier .stamp or .d
  PlanFolder,  // plan --plan-dir: anywhere but the input folder itself and the output folder
};

// True for a path (relative to an output folder) that the baker keeps for itself there: the
// manifest and every `.assetlib-*` file or folder (cache, lock, journal, bake-one records). No
// source's output may be one or lie below one: a source folder named manifest.json would make
// the manifest unwritable for good.
bool is_baker_file(const std::string& output_relative);

// Whether `path`, given as `option` (for the message), may be written as `kind` for a bake of
// `input` into `output` (both resolved; `output` may be empty when the command has none). Refused
// (Config, naming the option and the reason): a path that passes a symlink leading out of the
// input or output folder it lies in (however the folders were named); in the input folder, what
// `kind` may not replace there (a source, baker.json, a user's file); in the output folder, the
// folder itself, its own files and its baked assets. A path that does not resolve passes:
// writing it will say why.
BakeStatus check_side_file(const std::filesystem::path& path, SideFile kind, const char* option,
                           const std::filesystem::path& input, const std::filesystem::path& output);

// check_side_file of a build edge's --stamp and --depfile (BuildFile), those given.
BakeStatus check_build_files(const std::optional<std::filesystem::path>& stamp,
                             const std::optional<std::filesystem::path>& depfile,
                             const std::filesystem::path& input,
                             const std::filesystem::path& output);

}  // namespace baker
