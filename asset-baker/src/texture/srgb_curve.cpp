#include "texture/srgb_curve.h"

#include <cmath>

namespace baker {

SrgbCurve::SrgbCurve() {
  auto to_linear = [](double s) {
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  for (int v = 0; v < 256; ++v) {
    linear[size_t(v)] = float(to_linear(v / 255.0));
    lower[size_t(v)] = v == 0 ? 0.0f : float(to_linear((v - 0.5) / 255.0));
  }
  lower[256] = 2.0f;
  for (int b = 0, v = 0; b <= kBuckets; ++b) {
    while (lower[size_t(v) + 1] <= float(b) / kBuckets) ++v;
    bucket_code[size_t(b)] = uint8_t(v);
  }
}

const SrgbCurve& srgb_curve() {
  static const SrgbCurve curve;
  return curve;
}

}  // namespace baker
