// Paths inside the input tree: every file the baker reads is named by a path relative to the input
// root ('/'-separated, the logical name), and nothing a source file says can lead outside it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace baker {

// The folder part of a root-relative path ("models/a.obj" -> "models", "a.obj" -> "").
std::string parent_of(std::string_view relative);

// Resolves `reference`, as written in a source (an .mtl name, a texture path), against the
// root-relative folder `base_dir`. Backslashes count as separators. Returns the root-relative path,
// or nullopt with `why` set when the reference is absolute, empty or climbs out of the root, or
// when the result is no assetlib::is_safe_relative_path (a drive letter reached by climbing).
std::optional<std::string> resolve_reference(std::string_view base_dir, std::string_view reference,
                                             std::string* why);

// Turns a root-relative path into a file-system path under `root`, refusing (nullopt) when a
// symlink along the way leads outside the root.
std::optional<std::filesystem::path> inside_root(const std::filesystem::path& root,
                                                 std::string_view relative);

// `relative` with its extension replaced by `extension` ("a/b.png", ".tx" -> "a/b.tx").
std::string with_extension(std::string_view relative, std::string_view extension);

// True when `text` is well-formed UTF-8 (manifests and metadata are JSON, which must be).
bool is_utf8(std::string_view text);

// Lower-case extension with the dot (".png"), empty when there is none.
std::string lower_extension(std::string_view relative);

}  // namespace baker
