#include "bake/bake_gltf.h"

#include "bake/bake_image.h"
#include "bake/bake_material.h"
#include "common/asset_names.h"
#include "common/parallel_for.h"
#include "common/source_paths.h"
#include "import/gltf_import.h"
#include "mesh/bake_mesh.h"

namespace baker {
namespace {

// Meshes are independent: they are baked on the job's threads, each into its own slot, and
// joined in mesh order, so the outputs and warnings are the same whatever the thread count.
BakeStatus bake_meshes(GltfImport& scene, const std::string& source, const BakeSettings& settings,
                       unsigned threads, BakedAssets& out, std::vector<std::string>& warnings) {
  struct Slot {
    BakedAsset asset;
    BakeStatus status;
    std::vector<std::string> warnings;
    bool baked = false;  // meshes without triangles have no asset
  };
  std::vector<Slot> slots(scene.meshes.size());
  parallel_for(slots.size(), threads, [&](size_t m) {
    if (!scene.meshes[m]) return;
    Slot& slot = slots[m];
    std::string what = source + ": meshes[" + std::to_string(m) + "]";
    slot.status = bake_mesh(std::move(*scene.meshes[m]), source, what, settings, slot.asset.file,
                            slot.warnings);
    scene.meshes[m].reset();
    slot.baked = true;
  });
  for (size_t m = 0; m < slots.size(); ++m) {
    Slot& slot = slots[m];
    warnings.insert(warnings.end(), slot.warnings.begin(), slot.warnings.end());
    if (!slot.status) return slot.status;
    if (!slot.baked) continue;
    slot.asset.name = part_name(source, PartKind::Mesh, m);
    slot.asset.path = part_path(source, PartKind::Mesh, m);
    out.push_back(std::move(slot.asset));
  }
  return {};
}

BakeStatus bake_materials(const GltfImport& scene, const std::string& source, BakedAssets& out) {
  size_t count = scene.materials.size() - (scene.default_material_used ? 0 : 1);
  for (size_t i = 0; i < count; ++i) {
    BakedAsset& asset = out.emplace_back();
    asset.name = part_name(source, PartKind::Material, i);
    asset.path = part_path(source, PartKind::Material, i);
    if (BakeStatus s = bake_material(scene.materials[i], source, asset.file); !s) return s;
  }
  return {};
}

// Skeletons and clips are metadata and key floats, packed as they were imported.
BakeStatus bake_motion(const GltfImport& scene, const std::string& source,
                       const BakeSettings& settings, BakedAssets& out) {
  for (size_t s = 0; s < scene.skeletons.size(); ++s) {
    BakedAsset& asset = out.emplace_back();
    asset.name = part_name(source, PartKind::Skin, s);
    asset.path = part_path(source, PartKind::Skin, s);
    assetlib::SkeletonInfo skeleton = scene.skeletons[s];
    skeleton.original_file = source;
    if (BakeStatus st = BakeStatus::from_memory_call(assetlib::pack_skeleton(skeleton, asset.file),
                                                     BakeError::InvalidSource, source);
        !st)
      return st;
  }
  for (size_t c = 0; c < scene.clips.size(); ++c) {
    BakedAsset& asset = out.emplace_back();
    asset.name = part_name(source, PartKind::Clip, c);
    asset.path = part_path(source, PartKind::Clip, c);
    const GltfClip& clip = scene.clips[c];
    if (BakeStatus st = BakeStatus::from_memory_call(
            assetlib::pack_clip(clip.info, clip.keys.data(), clip.keys.size(), asset.file,
                                settings.pack),
            BakeError::InvalidSource, source);
        !st)
      return st;
  }
  return {};
}

BakeStatus bake_images(const GltfImport& scene, const std::string& source,
                       const BakeSettings& settings, unsigned threads, BakedAssets& out,
                       std::vector<std::string>& warnings) {
  for (const GltfEmbeddedImage& image : scene.images) {
    std::string name = part_name(source, PartKind::Image, image.index);
    std::string path = part_path(source, PartKind::Image, image.index);
    std::vector<TextureTarget> targets;
    for (const auto& [role, sampling] : image.uses) {
      targets.push_back({role, texture_variant_name(name, role, TextureRole::Color),
                         texture_variant_path(path, role, TextureRole::Color), sampling});
    }
    std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(image.bytes.data()),
                                     image.bytes.size());
    if (BakeStatus s = bake_image(bytes, name, targets, settings, threads, out, warnings); !s)
      return BakeStatus::failure(s.code, source, name + ": " + s.reason);
  }
  return {};
}

}  // namespace

BakeStatus bake_gltf(std::span<const std::byte> bytes, const std::string& relative_path,
                     const ImportInputs& inputs, const BakeSettings& settings, unsigned threads,
                     BakedAssets& out, std::vector<std::string>& warnings) {
  GltfImport scene;
  if (BakeStatus s = import_gltf(bytes, relative_path, inputs, scene, warnings); !s) return s;
  BakedAssets baked;
  if (BakeStatus s = bake_images(scene, relative_path, settings, threads, baked, warnings); !s)
    return s;
  if (BakeStatus s = bake_materials(scene, relative_path, baked); !s) return s;
  if (BakeStatus s = bake_meshes(scene, relative_path, settings, threads, baked, warnings); !s)
    return s;
  if (BakeStatus s = bake_motion(scene, relative_path, settings, baked); !s) return s;
  BakedAsset& prefab = baked.emplace_back();
  prefab.name = relative_path;
  prefab.path = with_extension(relative_path, ".prefab");
  if (BakeStatus s = BakeStatus::from_memory_call(assetlib::pack_prefab(scene.prefab, prefab.file),
                                                  BakeError::InvalidSource, relative_path);
      !s)
    return s;
  out = std::move(baked);
  return {};
}

}  // namespace baker
