#include "common/half_float.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>

namespace baker {

uint16_t to_half(float v) {
  if (std::isnan(v)) return 0;
  const float magnitude = std::min(std::fabs(v), kMaxHalf);
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (magnitude < 0x1p-14f) return uint16_t(sign | uint16_t(std::lrint(magnitude * 0x1p24f)));
  return uint16_t(sign | meshopt_quantizeHalf(magnitude));
}

}  // namespace baker
