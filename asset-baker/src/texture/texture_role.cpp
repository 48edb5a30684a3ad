#include "texture/texture_role.h"

#include <algorithm>
#include <cctype>

namespace baker {
namespace {

std::string stem_of(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

}  // namespace

TextureRole role_from_name(const std::string& relative_path) {
  std::string path = lower(relative_path);
  if (path.rfind("ui/", 0) == 0 || path.find("/ui/") != std::string::npos) return TextureRole::Ui;
  std::string stem = stem_of(path);
  size_t cut = stem.find_last_of("_.-");
  std::string token = cut == std::string::npos ? stem : stem.substr(cut + 1);
  // Short tokens must match whole ("wall_n"); long words may be part of a token ("metalRoughness").
  auto is_any = [&](std::initializer_list<const char*> whole,
                    std::initializer_list<const char*> within) {
    for (const char* t : whole) {
      if (token == t) return true;
    }
    for (const char* t : within) {
      if (token.find(t) != std::string::npos) return true;
    }
    return false;
  };
  if (is_any({"n", "nrm", "norm"}, {"normal"})) return TextureRole::Normal;
  if (is_any({"r", "m", "h", "ao", "mr", "orm", "mask", "spec", "disp", "bump", "depth"},
             {"rough", "metal", "occlusion", "height", "displacement", "specular", "gloss"})) {
    return TextureRole::Data;
  }
  return TextureRole::Color;
}

}  // namespace baker
