#include "texture/alpha_coverage.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace baker {
namespace {

// The smallest stored alpha that passes `cutoff`: alpha / 255 >= cutoff. The cutoff is a float,
// a hair above the decimal it stands for (0.2 is 0.2000000030), which must not make 51 / 255 fail.
uint32_t passing_alpha(float cutoff) {
  return uint32_t(std::max(0.0, std::ceil(double(cutoff) * 255.0 - 1e-4)));
}

uint8_t alpha_of(const std::byte* texels, uint64_t i) { return uint8_t(texels[4 * i + 3]); }

}  // namespace

double alpha_coverage(const std::byte* texels, uint64_t count, float cutoff) {
  if (count == 0) return 0;
  const uint32_t pass = passing_alpha(cutoff);
  uint64_t passing = 0;
  for (uint64_t i = 0; i < count; ++i) passing += alpha_of(texels, i) >= pass;
  return double(passing) / double(count);
}

void keep_alpha_coverage(std::byte* texels, uint64_t count, float cutoff, double coverage) {
  const uint32_t pass = passing_alpha(cutoff);
  // at_least[a]: how many texels have alpha >= a.
  std::array<uint64_t, 257> at_least{};
  for (uint64_t i = 0; i < count; ++i) ++at_least[alpha_of(texels, i)];
  for (int a = 255; a-- > 0;) at_least[size_t(a)] += at_least[size_t(a) + 1];
  // The alpha to scale onto the cutoff: the one leaving the count nearest the wanted one; of
  // equals, the one passing more texels, then the one nearest the cutoff (the least change).
  // Alpha 0 cannot be scaled up to pass.
  const double wanted = coverage * double(count);
  auto better = [&](uint32_t a, uint32_t b) {
    const double ea = std::abs(double(at_least[a]) - wanted);
    const double eb = std::abs(double(at_least[b]) - wanted);
    if (ea != eb) return ea < eb;
    if (at_least[a] != at_least[b]) return at_least[a] > at_least[b];
    auto distance = [&](uint32_t x) { return x > pass ? x - pass : pass - x; };
    return distance(a) < distance(b);
  };
  uint32_t best = 0;
  for (uint32_t a = 1; a <= 255; ++a) {
    if (coverage > 0 && at_least[a] == 0) break;  // none would pass: never chosen while some should
    if (best == 0 || better(a, best)) best = a;
  }
  if (best == 0 || best == pass) return;
  // a -> floor(a * pass / best): `best` lands on `pass`, anything below it below `pass`.
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t scaled = std::min<uint32_t>(255, uint32_t(alpha_of(texels, i)) * pass / best);
    texels[4 * i + 3] = std::byte(uint8_t(scaled));
  }
}

}  // namespace baker
