#include "pipeline/texture_plan.h"

#include "common/asset_names.h"
#include "common/content_hash.h"
#include "common/source_paths.h"

#include <algorithm>

namespace baker {

void TexturePlan::add_image(const std::string& image, TextureRole natural) {
  images_[image].natural = natural;
}

void TexturePlan::add_use(const std::string& image, TextureRole role, SlotSampling sampling) {
  auto it = images_.find(image);
  if (it == images_.end()) return;
  auto [use, added] = it->second.uses.try_emplace(role, sampling);
  if (!added) use->second = either(use->second, sampling);
}

uint64_t TexturePlan::digest() const {
  std::string text;
  for (const auto& [image, entry] : images_) {
    text += image;
    text += '\0';
    text += texture_role_name(entry.natural);
    for (const auto& [role, sampling] : entry.uses) {
      text.append(" ").append(texture_role_name(role)).append(":").append(sampling_name(sampling));
    }
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
  std::vector<TextureRole> out;
  for (const auto& [role, sampling] : it->second.uses) out.push_back(role);
  return out;
}

std::optional<std::string> TexturePlan::texture_name(const std::string& image,
                                                     TextureRole role) const {
  std::vector<TextureRole> made = roles(image);
  if (std::find(made.begin(), made.end(), role) == made.end()) return std::nullopt;
  return texture_variant_name(image, role, natural_role(image));
}

std::vector<TextureTarget> TexturePlan::targets(const std::string& image) const {
  std::vector<TextureTarget> out;
  auto it = images_.find(image);
  if (it == images_.end()) return out;
  const TextureRole natural = it->second.natural;
  auto add = [&](TextureRole role, SlotSampling sampling) {
    out.push_back({role, texture_variant_name(image, role, natural),
                   texture_variant_path(with_extension(image, ".tx"), role, natural), sampling});
  };
  if (it->second.uses.empty()) add(natural, {});
  for (const auto& [role, sampling] : it->second.uses) add(role, sampling);
  return out;
}

}  // namespace baker
