#include "pipeline/closest_name.h"

#include <algorithm>
#include <numeric>

namespace baker {
namespace {

constexpr size_t kMaxEdits = 2;

// Optimal string alignment distance: Levenshtein plus the swap of two neighbours, the most common
// typing slip ("lod_cuont").
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  std::iota(d[0].begin(), d[0].end(), size_t(0));
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(std::string_view typo, const std::vector<std::string>& candidates) {
  // Config keys are short; a typo of hundreds of characters is not one, and would cost n*m.
  if (typo.size() > 64) return {};
  std::string best;
  size_t best_distance = kMaxEdits + 1;
  for (const std::string& candidate : candidates) {
    // Lengths further apart than the edits allowed cannot match; skipping them also bounds the
    // table to 64 x 66 cells, whatever names a config holds.
    size_t gap = candidate.size() > typo.size() ? candidate.size() - typo.size()
                                                : typo.size() - candidate.size();
    if (gap > kMaxEdits) continue;
    size_t limit = std::min(kMaxEdits, std::max(typo.size(), candidate.size()) / 3);
    size_t distance = edit_distance(typo, candidate);
    if (distance > 0 && distance <= limit && distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view typo, const std::vector<std::string>& candidates) {
  std::string best = closest_name(typo, candidates);
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

}  // namespace baker
