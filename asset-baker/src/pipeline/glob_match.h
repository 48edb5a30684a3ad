// Glob patterns for baker.json rules, matched against root-relative '/' paths.
#pragma once

#include <string_view>

namespace baker {

// '*' matches within one path component, '**' across components (also zero of them, so "**/x"
// matches "x"), '?' one character other than '/'. A pattern without '/' matches the file name in
// any folder ("*.png" == "**/*.png"), as in .gitignore.
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace baker
