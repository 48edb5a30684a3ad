#include "texture/alpha_coverage.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace baker {
namespace {

// The smallest stored alpha that passes `cutoff`: alpha / max >= cutoff.
template <typename Channel>
uint64_t passing_alpha(float cutoff) {
  constexpr double max = std::numeric_limits<Channel>::max();
  return uint64_t(std::ceil(double(cutoff) * max));
}

template <typename Channel>
double coverage_of(const Channel* texels, uint64_t count, float cutoff) {
  if (count == 0) return 0;
  const uint64_t pass = passing_alpha<Channel>(cutoff);
  uint64_t passing = 0;
  for (uint64_t i = 0; i < count; ++i) passing += texels[4 * i + 3] >= pass;
  return double(passing) / double(count);
}

template <typename Channel>
void keep_coverage(Channel* texels, uint64_t count, float cutoff, double coverage) {
  constexpr uint64_t max = std::numeric_limits<Channel>::max();
  const uint64_t pass = passing_alpha<Channel>(cutoff);
  // at_least[a]: how many texels have alpha >= a.
  std::vector<uint64_t> at_least(max + 2, 0);
  for (uint64_t i = 0; i < count; ++i) ++at_least[texels[4 * i + 3]];
  for (uint64_t a = max; a-- > 0;) at_least[a] += at_least[a + 1];
  // The alpha that, scaled onto the cutoff, leaves the count nearest the wanted one; of equals,
  // the one nearest the cutoff (the least change). Alpha 0 cannot be scaled up to pass.
  const double wanted = coverage * double(count);
  uint64_t best = pass;
  double best_error = std::abs(double(at_least[pass]) - wanted);
  for (uint64_t a = 1; a <= max; ++a) {
    double error = std::abs(double(at_least[a]) - wanted);
    auto distance = [&](uint64_t x) { return x > pass ? x - pass : pass - x; };
    if (error < best_error || (error == best_error && distance(a) < distance(best)))
      best = a, best_error = error;
  }
  if (best == pass) return;
  // a -> floor(a * pass / best): `best` lands on `pass`, anything below it below `pass`.
  for (uint64_t i = 0; i < count; ++i) {
    Channel& alpha = texels[4 * i + 3];
    alpha = Channel(std::min<uint64_t>(max, uint64_t(alpha) * pass / best));
  }
}

}  // namespace

double alpha_coverage(const std::byte* texels, uint64_t count, AlphaDepth depth, float cutoff) {
  if (depth == AlphaDepth::Bits16)
    return coverage_of(reinterpret_cast<const uint16_t*>(texels), count, cutoff);
  return coverage_of(reinterpret_cast<const uint8_t*>(texels), count, cutoff);
}

void keep_alpha_coverage(std::byte* texels, uint64_t count, AlphaDepth depth, float cutoff,
                         double coverage) {
  if (depth == AlphaDepth::Bits16)
    keep_coverage(reinterpret_cast<uint16_t*>(texels), count, cutoff, coverage);
  else
    keep_coverage(reinterpret_cast<uint8_t*>(texels), count, cutoff, coverage);
}

}  // namespace baker
