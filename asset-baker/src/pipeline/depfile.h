// Depfiles for build systems (Ninja's `depfile`, Make's `-include`): "<target>: <input> ...", one
// line, so that the build reruns a bake when any file it read changes.
#pragma once

#include "common/bake_status.h"

#include <filesystem>
#include <string>
#include <vector>

namespace baker {

// The depfile text naming `inputs` for `target`. Spaces, '#' and backslashes before them are
// escaped with a backslash and '$' is doubled, as Ninja and GNU Make read them; a path holding a
// newline cannot be written in a depfile and is left out (the bake still depends on its source).
std::string depfile_text(const std::string& target, const std::vector<std::string>& inputs);

// Writes depfile_text to `path` atomically (a build system never reads half a depfile).
BakeStatus write_depfile(const std::filesystem::path& path, const std::string& target,
                         const std::vector<std::string>& inputs);

}  // namespace baker
