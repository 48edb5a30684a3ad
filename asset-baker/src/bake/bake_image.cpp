#include "bake/bake_image.h"

#include "texture/bake_texture.h"

namespace baker {

BakeStatus bake_image(std::span<const std::byte> source, const std::string& image_name,
                      const std::vector<TextureTarget>& targets, const BakeSettings& settings,
                      unsigned threads, BakedAssets& out, std::vector<std::string>& warnings) {
  for (const TextureTarget& target : targets) {
    BakeSettings role_settings = settings;
    role_settings.texture.role = target.role;
    role_settings.texture.sampling = target.sampling;
    BakedAsset asset{target.name, target.path, {}};
    if (BakeStatus s =
            bake_texture(source, image_name, role_settings, asset.file, warnings, threads);
        !s)
      return s;
    out.push_back(std::move(asset));
  }
  return {};
}

}  // namespace baker
