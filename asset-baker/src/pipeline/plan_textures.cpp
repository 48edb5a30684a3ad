#include "pipeline/plan_textures.h"

#include "common/asset_names.h"
#include "common/content_hash.h"
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
                                   std::vector<Dependency>* files_read) {
  if (source.kind == AssetKind::Texture) return {};
  // Each file read is noted with the hash of the bytes read: a file that changes meanwhile is then
  // read again by the next plan, never taken as unchanged.
  auto note = [files_read](const std::string& path, const std::vector<std::byte>* bytes) {
    if (!files_read) return;
    files_read->push_back(
        {path, bytes ? hash_string(hash_bytes(bytes->data(), bytes->size())) : kAbsentFile});
  };
  std::vector<std::byte> bytes;
  if (!read_source(root, source.relative, bytes)) {
    note(source.relative, nullptr);
    return {};
  }
  note(source.relative, &bytes);
  ImportInputs inputs;
  inputs.read_file = [&root, &note](const std::string& path) -> std::optional<std::string> {
    std::vector<std::byte> data;
    if (!read_source(root, path, data)) {
      note(path, nullptr);
      return std::nullopt;
    }
    note(path, &data);
    return std::string(reinterpret_cast<const char*>(data.data()), data.size());
  };
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (source.kind == AssetKind::Mesh) return obj_texture_references(text, source.relative, inputs);
  return gltf_texture_references(bytes, source.relative);
}

namespace {

// The last run's record of `source`, when every file it read then still holds those bytes.
const PlannedModel* still_valid(const PlanMemory& memory, const std::string& source) {
  if (!memory.previous) return nullptr;
  auto it = memory.previous->find(source);
  // A record names the model itself first (texture_uses reads it first).
  if (it == memory.previous->end() || it->second.read.empty() ||
      it->second.read[0].path != source) {
    return nullptr;
  }
  for (const Dependency& file : it->second.read) {
    if (memory.hash_now(file.path).value_or(kAbsentFile) != file.state) return nullptr;
  }
  return &it->second;
}

std::vector<ImageUse> model_uses(const std::filesystem::path& root, const Source& source,
                                 const PlanMemory* memory) {
  if (!memory) return texture_uses(root, source);
  PlannedModel model;
  if (const PlannedModel* known = still_valid(*memory, source.relative))
    model = *known;
  else
    model.uses = texture_uses(root, source, &model.read);
  std::vector<ImageUse> uses = model.uses;
  if (memory->planned) (*memory->planned)[source.relative] = std::move(model);
  return uses;
}

}  // namespace

TexturePlan plan_textures(const std::filesystem::path& root, const BakeConfig& config,
                          const std::vector<Source>& sources, const PlanMemory* memory) {
  TexturePlan plan;
  for (const Source& s : sources) {
    if (s.kind == AssetKind::Texture) plan.add_image(s.relative, natural_role(config, s.relative));
  }
  // Uses only count for images of the bake: without any, no model needs reading (a tree of
  // meshes alone read and parsed each of them twice).
  if (!plan.has_images()) return plan;
  for (const Source& s : sources) {
    if (s.kind == AssetKind::Texture) continue;
    for (const ImageUse& use : model_uses(root, s, memory))
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
