#include "pipeline/texture_plan.h"

#include "common/asset_names.h"
#include "common/content_hash.h"
#include "common/source_paths.h"

#include <algorithm>

namespace baker {

void TexturePlan::add_image(const std::string& image, TextureRole natural) {
  images_[image].natural = natural;
}

void TexturePlan::add_use(const std::string& image, TextureRole role) {
  auto it = images_.find(image);
  if (it != images_.end()) it->second.uses.insert(role);
}

uint64_t TexturePlan::digest() const {
  std::string text;
  for (const auto& [image, entry] : images_) {
    text += image;
    text += '\0';
    text += texture_role_name(entry.natural);
    for (TextureRole use : entry.uses) text.append(" ").append(texture_role_name(use));
    text += '\n';
  }
  return hash_bytes(text.data(), text.size());
}

TextureRole TexturePlan::natural_role(const std::string& image) const {
  auto it = images_.find(image);
  return it == images_.end() ? TextureRole::Color : it->second.natural;
}

std::vector<TextureRole> TexturePlan::roles(const std::string& image) const {
  auto it = images_.find(image);
  if (it == images_.end()) return {};
  if (it->second.uses.empty()) return {it->second.natural};
  return {it->second.uses.begin(), it->second.uses.end()};
}

std::optional<std::string> TexturePlan::texture_name(const std::string& image,
                                                     TextureRole role) const {
  std::vector<TextureRole> made = roles(image);
  if (std::find(made.begin(), made.end(), role) == made.end()) return std::nullopt;
  return texture_variant_name(image, role, natural_role(image));
}

std::vector<TextureTarget> TexturePlan::targets(const std::string& image) const {
  std::vector<TextureTarget> out;
  TextureRole natural = natural_role(image);
  for (TextureRole role : roles(image)) {
    out.push_back({role, texture_variant_name(image, role, natural),
                   texture_variant_path(with_extension(image, ".tx"), role, natural)});
  }
  return out;
}

}  // namespace baker
