// A vertex's skin influences, from however many the source gives to the four a baked skin stream
// holds (docs/baker.md, "Skins"): the largest four kept, renormalised and quantised so the weights
// sum exactly to the unorm's one.
#pragma once

#include <cstdint>
#include <span>

namespace baker {

// One influence as the source gives it: a joint (already in the skeleton's numbering) and a
// finite weight >= 0.
struct SourceInfluence {
  uint32_t joint = 0;
  float weight = 0;
};

// Four influences, largest weight first; unused ones are joint 0, weight 0.
struct QuantizedInfluences {
  uint16_t joints[4] = {0, 0, 0, 0};
  uint16_t weights[4] = {0, 0, 0, 0};
};

// What quantize_influences had to repair, for the caller's warnings.
struct InfluenceRepairs {
  bool reduced = false;   // more than four joints had weight: the smallest were dropped
  bool zero_sum = false;  // no weight at all: bound to joint 0 with the whole weight
};

// Quantises `influences` to unorm weights summing exactly to `one` (255 for J8W8, 65535 for
// J16W16). Influences on one joint are added up first; then the four largest weights are kept
// (ties: the lower joint), divided by their sum, and rounded by largest remainder: each weight is
// floor(w * one), and the units still missing to `one` go to the weights with the largest
// fractional parts (ties: the larger weight). A weight that rounds to 0 leaves its slot unused.
// All weights zero (or no influences): joint 0 (the skeleton's first root) with weight `one`.
// Joints must be below 65536.
InfluenceRepairs quantize_influences(std::span<const SourceInfluence> influences, uint32_t one,
                                     QuantizedInfluences& out);

}  // namespace baker
