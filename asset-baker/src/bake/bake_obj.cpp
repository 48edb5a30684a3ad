#include "bake/bake_obj.h"

#include "bake/bake_material.h"
#include "common/asset_names.h"
#include "common/source_paths.h"
#include "import/obj_import.h"
#include "mesh/bake_mesh.h"

namespace baker {

BakeStatus bake_obj(std::string_view obj_text, const std::string& relative_path,
                    const ImportInputs& inputs, const BakeSettings& settings, BakedAssets& out,
                    std::vector<std::string>& warnings) {
  ImportedMesh mesh;
  std::vector<assetlib::MaterialInfo> materials;
  if (BakeStatus s = import_obj(obj_text, relative_path, inputs, mesh, materials, warnings); !s)
    return s;
  BakedAssets baked;
  for (size_t i = 0; i < materials.size(); ++i) {
    BakedAsset& asset = baked.emplace_back();
    asset.name = part_name(relative_path, PartKind::Material, i);
    asset.path = part_path(relative_path, PartKind::Material, i);
    if (BakeStatus s = bake_material(materials[i], relative_path, asset.file); !s) return s;
  }
  BakedAsset& asset = baked.emplace_back();
  asset.name = relative_path;
  asset.path = with_extension(relative_path, ".mesh");
  if (BakeStatus s =
          bake_mesh(std::move(mesh), relative_path, relative_path, settings, asset.file, warnings);
      !s)
    return s;
  out = std::move(baked);
  return {};
}

}  // namespace baker
