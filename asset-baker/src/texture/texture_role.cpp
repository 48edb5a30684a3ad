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

// Size and variant tags texture libraries append after the role: "_2k", "_4K", "_1024",
// "_2048x2048", "_gl"/"_dx" (normal-map conventions), "_lod0".
bool is_variant_tag(const std::string& token) {
  if (token.empty()) return true;
  if (token == "gl" || token == "dx" || token == "lod") return true;
  size_t digits = token.find_first_not_of("0123456789");
  if (digits == std::string::npos) return true;  // "1024", "01"
  std::string rest = token.substr(digits);
  if (digits > 0 && rest == "k") return true;  // "2k"
  if (digits > 0 && rest[0] == 'x' && rest.size() > 1 &&
      rest.find_first_not_of("0123456789", 1) == std::string::npos)
    return true;  // "2048x2048"
  return token.rfind("lod", 0) == 0 &&
         token.find_first_not_of("0123456789", 3) == std::string::npos;
}

// The last `_`/`.`/`-`-separated part of the stem that is not a variant tag ("rock_ao_2k" -> "ao");
// the whole stem when every part is one.
std::string role_token(const std::string& stem) {
  size_t end = stem.size();
  while (end > 0) {
    size_t cut = stem.find_last_of("_.-", end - 1);
    size_t start = cut == std::string::npos ? 0 : cut + 1;
    std::string token = stem.substr(start, end - start);
    if (!is_variant_tag(token)) return token;
    if (cut == std::string::npos) break;
    end = cut;
  }
  return stem;
}

}  // namespace

TextureRole role_from_name(const std::string& relative_path) {
  std::string path = lower(relative_path);
  if (path.rfind("ui/", 0) == 0 || path.find("/ui/") != std::string::npos) return TextureRole::Ui;
  std::string token = role_token(stem_of(path));
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
  if (is_any({"n", "nor", "nrm", "norm"}, {"normal"})) return TextureRole::Normal;
  if (is_any(
          {"r", "m", "h", "ao", "mr", "orm", "arm", "rma", "mask", "spec", "disp", "bump", "depth"},
          {"rough", "metal", "occlusion", "height", "displacement", "specular", "gloss", "opacity",
           "cavity", "curvature"})) {
    return TextureRole::Data;
  }
  return TextureRole::Color;
}

}  // namespace baker
