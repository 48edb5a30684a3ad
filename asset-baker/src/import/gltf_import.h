// Reading a glTF 2.0 file (.gltf or .glb) into what the baker bakes of it: its meshes, its
// materials, the images it embeds and its default scene (docs/baker.md, "glTF"). The stages:
//   gltf_document  the JSON and the buffers (GLB, data URIs, files beside it)
//   gltf_accessors buffer views (EXT_meshopt_compression) and accessors, every range checked
//   gltf_draco     KHR_draco_mesh_compression
//   gltf_meshes    primitives -> triangle lists grouped by material
//   gltf_materials materials, and which images their slots use in which role
//   gltf_skins     skins -> skeletons, and the skin each mesh is bound to
//   gltf_scene     the node hierarchy, cameras, lights, instances
//   gltf_animations animations -> clips of the scene's nodes
#pragma once

#include "common/bake_status.h"
#include "common/imported_mesh.h"
#include "import/gltf_animations.h"
#include "import/import_inputs.h"

#include <assetlib/material_asset.h>
#include <assetlib/prefab_asset.h>
#include <assetlib/skeleton_asset.h>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace baker {

// An image inside the file (a GLB buffer view or a data URI), the roles its slots need and how
// each samples it.
struct GltfEmbeddedImage {
  uint32_t index = 0;  // images[index]
  std::string bytes;   // the PNG or JPEG file
  std::map<TextureRole, SlotSampling> uses;
};

struct GltfImport {
  std::vector<std::optional<ImportedMesh>> meshes;  // by mesh index; nullopt: nothing to bake
  // materials[i] of the file, then the default material (white, for primitives without one).
  std::vector<assetlib::MaterialInfo> materials;
  bool default_material_used = false;
  std::vector<GltfEmbeddedImage> images;
  std::vector<assetlib::SkeletonInfo> skeletons;  // by skin index; joints name prefab nodes
  std::vector<GltfClip> clips;                    // by animation index
  assetlib::PrefabInfo prefab;
};

// Imports the glTF file `bytes` at `source`. Names of meshes, materials and embedded images follow
// asset_names.h; external images are named by inputs.texture_name. A file that is broken is an
// InvalidSource error naming the JSON path ("meshes[2].primitives[0].indices: ..."); one that uses
// what the baker does not bake (a required extension, a mesh drawn with two different skins) is
// UnsupportedFeature. Features left out that do not make the asset wrong (other scenes, points,
// morph targets baked at their default weights, morph weight channels) are warnings. Nodes that are
// joints or that clips move are stored as translation, rotation and scale in the prefab (a matrix
// is taken apart; one with a shear is an InvalidSource error).
BakeStatus import_gltf(std::span<const std::byte> bytes, const std::string& source,
                       const ImportInputs& inputs, GltfImport& out,
                       std::vector<std::string>& warnings);

}  // namespace baker
