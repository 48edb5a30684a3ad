// glTF materials -> the baker's material model (assetlib::MaterialInfo), and which images their
// slots use in which role (for the texture plan and for the images a glTF embeds).
#pragma once

#include "common/bake_settings.h"
#include "import/gltf_json.h"
#include "import/import_inputs.h"

#include <assetlib/material_asset.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace baker {

// An image a material slot samples, and the role the slot gives it: base colour and emissive
// colour, normal normal, metallic-roughness and occlusion data.
struct GltfImageUse {
  uint32_t image;
  TextureRole role;
  SlotSampling sampling;  // the sampler's wrapS and wrapT; the cutoff of a masked base colour
};

// Every (image, role, sampling) the materials of `root` use. Textures whose only image is in an
// extension (KHR_texture_basisu, EXT_texture_webp) use none. Throws GltfError.
std::vector<GltfImageUse> gltf_image_uses(const Json& root);

// The images of the glTF file `source` that its materials use, as root-relative paths with their
// roles and sampling: what the texture plan needs before any source bakes. Images inside the file
// and files that cannot be parsed give nothing (the file's own bake reports problems).
std::vector<ImageUse> gltf_texture_references(std::span<const std::byte> bytes,
                                              const std::string& source);

// The logical name of the texture made of image `image` in `role`; nullopt when there is none, with
// `why` saying what keeps the image out ("path '../a.png' leaves the input folder; refused").
// Supplied by the importer.
using GltfTextureName =
    std::function<std::optional<std::string>(uint32_t image, TextureRole role, std::string& why)>;

// materials[i] of `root` as MaterialInfo (original_file `source`): metallic-roughness factors and
// textures, normal scale, occlusion strength, emissive (and KHR_materials_emissive_strength),
// alpha mode and cutoff, double-sided, KHR_materials_unlit, and per slot the UV set, the sampler's
// wrap and filter and KHR_texture_transform. Slots whose texture has no usable image are left
// empty with a warning. Throws GltfError.
std::vector<assetlib::MaterialInfo> gltf_materials(const Json& root, const std::string& source,
                                                   const GltfTextureName& texture_name,
                                                   std::vector<std::string>& warnings);

// True when a textured slot of `material` samples UV set `uv_set` (0 or 1).
bool samples_uv_set(const assetlib::MaterialInfo& material, uint32_t uv_set);

}  // namespace baker
