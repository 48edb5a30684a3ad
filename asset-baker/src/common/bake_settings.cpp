#include "common/bake_settings.h"

#include <array>
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

std::string mip_edges_name(MipEdges edges) {
  return std::string(assetlib::texture_wrap_name(edges.u)) + "," +
         assetlib::texture_wrap_name(edges.v);
}

MipEdges either(MipEdges a, MipEdges b) {
  using assetlib::TextureWrap;
  auto rank = [](TextureWrap w) {
    return w == TextureWrap::Repeat ? 2 : w == TextureWrap::MirroredRepeat ? 1 : 0;
  };
  auto wider = [&](TextureWrap x, TextureWrap y) { return rank(x) >= rank(y) ? x : y; };
  return {wider(a.u, b.u), wider(a.v, b.v)};
}

}  // namespace baker
