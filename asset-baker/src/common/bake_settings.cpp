#include "common/bake_settings.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace baker {
namespace {

constexpr std::array kRoleNames = {
    std::pair{TextureRole::Auto, "auto"}, std::pair{TextureRole::Color, "color"},
    std::pair{TextureRole::Normal, "normal"}, std::pair{TextureRole::Data, "data"},
    std::pair{TextureRole::Ui, "ui"}};

}  // namespace

const char* texture_role_name(TextureRole role) {
  for (const auto& [r, name] : kRoleNames) {
    if (r == role) return name;
  }
  return "?";
}

std::optional<TextureRole> texture_role_from_name(std::string_view name) {
  for (const auto& [r, text] : kRoleNames) {
    if (name == text) return r;
  }
  return std::nullopt;
}

std::string sampling_name(SlotSampling sampling) {
  std::string name = std::string(assetlib::texture_wrap_name(sampling.u)) + "," +
                     assetlib::texture_wrap_name(sampling.v);
  if (sampling.alpha_cutoff) {
    char number[32];
    auto end = std::to_chars(number, number + sizeof(number), *sampling.alpha_cutoff).ptr;
    name.append(",alpha_cutoff:").append(number, end);
  }
  return name;
}

SlotSampling either(SlotSampling a, SlotSampling b) {
  using assetlib::TextureWrap;
  auto rank = [](TextureWrap w) {
    return w == TextureWrap::Repeat ? 2 : w == TextureWrap::MirroredRepeat ? 1 : 0;
  };
  auto wider = [&](TextureWrap x, TextureWrap y) { return rank(x) >= rank(y) ? x : y; };
  std::optional<float> cutoff = a.alpha_cutoff ? a.alpha_cutoff : b.alpha_cutoff;
  if (a.alpha_cutoff && b.alpha_cutoff) cutoff = std::min(*a.alpha_cutoff, *b.alpha_cutoff);
  return {wider(a.u, b.u), wider(a.v, b.v), cutoff};
}

std::optional<float> testable_cutoff(double cutoff) {
  if (!(cutoff > 0 && cutoff < 1)) return std::nullopt;
  return float(cutoff);
}

std::optional<float> masked_texture_cutoff(double material_cutoff, double factor_alpha) {
  if (!(factor_alpha > 0)) return std::nullopt;  // every texel fails
  return testable_cutoff(material_cutoff / factor_alpha);
}

}  // namespace baker
