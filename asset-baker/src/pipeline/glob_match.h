// Glob patterns for baker.json rules, matched against root-relative '/' paths.
#pragma once

#include <cstddef>
#include <string_view>

namespace baker {

// '*' matches within one path component, '**' across components (also zero of them, so "**/x"
// matches "x"), '?' one character other than '/'. A pattern without '/' matches the file name in
// any folder ("*.png" == "**/*.png"), as in .gitignore.
// Time O(pattern x path^2) at worst, memory one bit per (pattern, path) position pair: baker.json
// keeps patterns within kMaxGlobLength characters.
bool glob_match(std::string_view pattern, std::string_view path);

inline constexpr size_t kMaxGlobLength = 1024;

}  // namespace baker
