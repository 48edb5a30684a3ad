#include "pipeline/glob_match.h"

#include <string>

namespace baker {
namespace {

bool match_from(std::string_view p, std::string_view s) {
  while (!p.empty()) {
    if (p.substr(0, 2) == "**") {
      std::string_view rest = p.substr(2);
      if (rest.substr(0, 1) == "/") {
        // "**/" may also match nothing.
        if (match_from(rest.substr(1), s)) return true;
      }
      for (size_t i = 0; i <= s.size(); ++i) {
        if (match_from(rest, s.substr(i))) return true;
      }
      return false;
    }
    if (p[0] == '*') {
      for (size_t i = 0; i <= s.size(); ++i) {
        if (match_from(p.substr(1), s.substr(i))) return true;
        if (i < s.size() && s[i] == '/') break;
      }
      return false;
    }
    if (s.empty()) return false;
    if (p[0] == '?' ? s[0] == '/' : p[0] != s[0]) return false;
    p.remove_prefix(1);
    s.remove_prefix(1);
  }
  return s.empty();
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  if (pattern.find('/') == std::string_view::npos) {
    return match_from(std::string("**/") + std::string(pattern), path);
  }
  return match_from(pattern, path);
}

}  // namespace baker
