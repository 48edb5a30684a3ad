#include "pipeline/glob_match.h"

#include <string>
#include <vector>

namespace baker {
namespace {

// Matching by trying each length for each '*' is exponential in the stars ("*a*a*a*a*b" against
// "aaaa...a"); remembering the (pattern, path) positions already known to fail makes each one
// tried once: O(pattern x path) positions, each scanning at most the path.
class GlobMatcher {
 public:
  GlobMatcher(std::string_view pattern, std::string_view path)
      : p_(pattern), s_(path), failed_((p_.size() + 1) * (s_.size() + 1), false) {}

  bool match(size_t i, size_t j) {
    const size_t at = i * (s_.size() + 1) + j;
    if (failed_[at]) return false;
    if (match_uncached(i, j)) return true;
    failed_[at] = true;
    return false;
  }

 private:
  bool match_uncached(size_t i, size_t j) {
    while (i < p_.size()) {
      if (p_.compare(i, 2, "**") == 0) {
        const size_t rest = i + 2;
        // "**/" may also match nothing.
        if (rest < p_.size() && p_[rest] == '/' && match(rest + 1, j)) return true;
        for (size_t k = j; k <= s_.size(); ++k) {
          if (match(rest, k)) return true;
        }
        return false;
      }
      if (p_[i] == '*') {
        for (size_t k = j; k <= s_.size(); ++k) {
          if (match(i + 1, k)) return true;
          if (k < s_.size() && s_[k] == '/') break;
        }
        return false;
      }
      if (j == s_.size()) return false;
      if (p_[i] == '?' ? s_[j] == '/' : p_[i] != s_[j]) return false;
      ++i;
      ++j;
    }
    return j == s_.size();
  }

  std::string_view p_, s_;
  std::vector<bool> failed_;
};

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  if (pattern.find('/') == std::string_view::npos) {
    std::string anywhere = "**/" + std::string(pattern);
    return GlobMatcher(anywhere, path).match(0, 0);
  }
  return GlobMatcher(pattern, path).match(0, 0);
}

}  // namespace baker
