// Logical names and output paths of everything a bake writes (docs/baker.md, "Names"). A name is
// what the manifest lists and what assets use to refer to each other; the path is where the file
// lies in the output folder. Both follow from the source path alone, so they are stable from bake
// to bake and never collide between sources.
//
//   source                    name                          path
//   textures/a.png            textures/a.png                textures/a.tx
//     ... used as a normal    textures/a.png#normal         textures/a.normal.tx
//   models/b.obj              models/b.obj                  models/b.mesh
//     its material 0          models/b.obj#material/0       models/b.obj.parts/0.mat
//   scenes/c.gltf             scenes/c.gltf                 scenes/c.prefab
//     its mesh 2              scenes/c.gltf#mesh/2          scenes/c.gltf.parts/2.mesh
//     its embedded image 1    scenes/c.gltf#image/1         scenes/c.gltf.parts/1.tx
//       ... as a normal map   scenes/c.gltf#image/1#normal  scenes/c.gltf.parts/1.normal.tx
//     its skin 0              scenes/c.gltf#skin/0          scenes/c.gltf.parts/0.skel
//     its animation 2         scenes/c.gltf#clip/2          scenes/c.gltf.parts/2.clip
#pragma once

#include "common/bake_settings.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace baker {

// The parts a source bakes into besides its main asset.
enum class PartKind { Mesh, Material, Image, Skin, Clip };

// "<source>#<kind>/<index>".
std::string part_name(std::string_view source, PartKind kind, size_t index);

// "<source>.parts/<index><extension of the kind>" (.mesh, .mat, .tx, .skel, .clip: one per kind).
std::string part_path(std::string_view source, PartKind kind, size_t index);

// Every part of `source` lies under this folder: "<source>.parts/".
std::string parts_folder(std::string_view source);

// A texture baked from one image in a role other than the image's own ("natural") role: the
// image's name + "#<role>", and its path with ".<role>" before ".tx". In the natural role, the
// name and the path are the image's own.
std::string texture_variant_name(std::string_view image_name, TextureRole role,
                                 TextureRole natural);
std::string texture_variant_path(std::string_view image_path, TextureRole role,
                                 TextureRole natural);

}  // namespace baker
