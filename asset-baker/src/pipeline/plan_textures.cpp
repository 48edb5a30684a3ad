#include "pipeline/plan_textures.h"

#include "common/asset_names.h"
#include "common/source_paths.h"
#include "import/gltf_materials.h"
#include "import/mtl_materials.h"
#include "pipeline/source_files.h"
#include "texture/texture_role.h"

namespace baker {
namespace {

TextureRole natural_role(const BakeConfig& config, const std::string& image) {
  BakeSettings settings;
  bool configured = settings_for(config, image, AssetKind::Texture, settings).ok();
  if (configured && settings.texture.role != TextureRole::Auto) return settings.texture.role;
  return role_from_name(image);
}

}  // namespace

std::vector<ImageUse> texture_uses(const std::filesystem::path& root, const Source& source,
                                   std::vector<std::string>* files_read) {
  if (source.kind == AssetKind::Texture) return {};
  std::vector<std::byte> bytes;
  if (files_read) files_read->push_back(source.relative);
  if (!read_source(root, source.relative, bytes)) return {};
  ImportInputs inputs;
  inputs.read_file = [&root, files_read](const std::string& path) -> std::optional<std::string> {
    std::vector<std::byte> data;
    if (files_read) files_read->push_back(path);
    if (!read_source(root, path, data)) return std::nullopt;
    return std::string(reinterpret_cast<const char*>(data.data()), data.size());
  };
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (source.kind == AssetKind::Mesh) return obj_texture_references(text, source.relative, inputs);
  return gltf_texture_references(bytes, source.relative);
}

TexturePlan plan_textures(const std::filesystem::path& root, const BakeConfig& config,
                          const std::vector<Source>& sources) {
  TexturePlan plan;
  for (const Source& s : sources) {
    if (s.kind == AssetKind::Texture) plan.add_image(s.relative, natural_role(config, s.relative));
  }
  // Uses only count for images of the bake: without any, no model needs reading (a tree of
  // meshes alone read and parsed each of them twice).
  if (!plan.has_images()) return plan;
  for (const Source& s : sources) {
    if (s.kind == AssetKind::Texture) continue;
    for (const ImageUse& use : texture_uses(root, s))
      plan.add_use(use.image, use.role, use.sampling);
  }
  return plan;
}

void plan_outputs(const TexturePlan& plan, Source& source) {
  source.outputs.clear();
  source.parts.clear();
  if (source.kind == AssetKind::Texture) {
    for (const TextureTarget& target : plan.targets(source.relative))
      source.outputs.push_back(target.path);
    return;
  }
  source.outputs.push_back(with_extension(source.relative, output_extension(source.kind)));
  source.parts = parts_folder(source.relative);
}

}  // namespace baker
