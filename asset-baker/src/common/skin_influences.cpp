#include "common/skin_influences.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace baker {

namespace {

struct Merged {
  uint32_t joint;
  double weight;  // a sum of floats: in double, it cannot overflow
};

}  // namespace

InfluenceRepairs quantize_influences(std::span<const SourceInfluence> influences, uint32_t one,
                                     QuantizedInfluences& out) {
  out = {};
  InfluenceRepairs repairs;
  // Merged by joint: a source may name one joint in several slots.
  std::vector<Merged> merged;
  for (const SourceInfluence& in : influences) {
    if (!(in.weight > 0)) continue;
    auto same = std::find_if(merged.begin(), merged.end(),
                             [&](const Merged& m) { return m.joint == in.joint; });
    if (same != merged.end()) {
      same->weight += in.weight;
    } else {
      merged.push_back({in.joint, double(in.weight)});
    }
  }
  if (merged.empty()) {
    repairs.zero_sum = true;
    out.weights[0] = uint16_t(one);
    return repairs;
  }
  std::sort(merged.begin(), merged.end(), [](const Merged& a, const Merged& b) {
    return a.weight != b.weight ? a.weight > b.weight : a.joint < b.joint;
  });
  if (merged.size() > 4) {
    repairs.reduced = true;
    merged.resize(4);
  }
  double total = 0;
  for (const Merged& m : merged) total += m.weight;
  double remainder[4] = {0, 0, 0, 0};
  uint32_t assigned = 0;
  for (size_t i = 0; i < merged.size(); ++i) {
    double exact = merged[i].weight / total * one;
    double units = std::floor(exact);
    out.weights[i] = uint16_t(units);
    remainder[i] = exact - units;
    assigned += out.weights[i];
  }
  // The missing units (fewer than the influences) to the largest remainders, the larger weight
  // first on a tie.
  for (uint32_t left = one - std::min(one, assigned); left > 0; --left) {
    size_t best = 0;
    for (size_t i = 1; i < merged.size(); ++i) {
      if (remainder[i] > remainder[best]) best = i;
    }
    ++out.weights[best];
    remainder[best] = -1;
  }
  for (size_t i = 0; i < merged.size(); ++i) {
    if (out.weights[i] > 0) out.joints[i] = uint16_t(merged[i].joint);
  }
  return repairs;
}

}  // namespace baker
