// Depfiles for build systems (Ninja's `depfile`, Make's `-include`): "<target>: <input> ...", one
// line, so that the build reruns a bake when any file it read changes.
#pragma once

#include "common/bake_status.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baker {

// The depfile text naming `inputs` for `target`. Spaces, '#' and backslashes before them are
// escaped with a backslash and '$' is doubled, as Ninja and GNU Make read them. Ninja (1.11) ends
// a path at any character outside letters, digits, UTF-8 and +,/_:.~(){}%=@[]!- (a quote, '&',
// '^', a backtick...), and has no escape for them: an input holding one is named by its nearest
// folder that it can read (whose time changes when a file in it is replaced, added or removed;
// an edit in place is not seen), a path holding a newline is left out. The bake still depends on
// its source, which the build names itself. The target is written as given (build_file_name).
std::string depfile_text(const std::string& target, const std::vector<std::string>& inputs);

// `relative` (a source's root-relative path) as the name of a file a build keeps for it (plan
// files, and in assetlib_bake() stamps and depfiles): every character outside letters, digits,
// UTF-8 and +,/_.~(){}=@[]!- and space written as %XX ('%' too). CMake refuses '#' in a custom
// command's output, Ninja reads '$' as a variable and ends depfile paths at quotes and '&'.
// AssetlibBake.cmake spells the same names.
std::string build_file_name(std::string_view relative);

// Writes an empty stamp file at `path` (its folders made), dated `dated_ns` when given (else
// now). A FIFO or device named as the stamp is written in place and not dated (StreamedFile).
BakeStatus write_stamp(const std::filesystem::path& path, std::optional<int64_t> dated_ns);

// Writes depfile_text to `path` atomically (a build system never reads half a depfile).
BakeStatus write_depfile(const std::filesystem::path& path, const std::string& target,
                         const std::vector<std::string>& inputs);

}  // namespace baker
