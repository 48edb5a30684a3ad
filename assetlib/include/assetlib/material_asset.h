// assetlib: material assets ("MATL").
//
// A material is glTF 2.0's metallic-roughness surface, whatever the source: the baker writes one
// for every glTF material and every OBJ .mtl material, so an engine has one material path. The
// asset holds metadata only (no blob): factors, alpha and side settings, and up to five texture
// slots, each naming a "TEXI" asset by its logical name in the manifest.
//
// Texture slots, and the channels a shader reads from each (as glTF defines them):
//   base_color          RGB colour (sRGB) and alpha, multiplied by base_color_factor
//   metallic_roughness  G = roughness, B = metalness (linear), times the two factors
//   normal              tangent-space normal; the baker stores it as BC5 X/Y (Z = sqrt(1-X²-Y²))
//   occlusion           R = ambient occlusion (linear), blended by occlusion_strength
//   emissive            RGB (sRGB), times emissive_factor x emissive_strength
//
// Hostile input (see asset_file.h): read_material_info is safe on hostile bytes. Texture and
// material names are then any strings: resolve them with find_asset on the manifest, never open
// them as paths. Factors are finite floats but not clamped to their meaningful ranges.
#pragma once

#include <assetlib/asset_file.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace assetlib {

enum class AlphaMode : uint32_t {
  Unknown = 0,
  Opaque = 1,  // "OPAQUE": alpha ignored
  Mask = 2,    // "MASK": discard where alpha < alpha_cutoff
  Blend = 3,   // "BLEND": alpha blending (draw after the opaque geometry, back to front)
};

// Stable name used in the JSON ("OPAQUE"), or "Unknown".
const char* alpha_mode_name(AlphaMode mode);
// The mode named `name` (exact, case-sensitive), or Unknown.
AlphaMode alpha_mode_from_name(std::string_view name);

// How a texture is sampled outside 0..1 (glTF's sampler wrap modes).
enum class TextureWrap : uint32_t {
  Unknown = 0,
  Repeat = 1,          // "repeat": VK_SAMPLER_ADDRESS_MODE_REPEAT
  ClampToEdge = 2,     // "clamp_to_edge": VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
  MirroredRepeat = 3,  // "mirrored_repeat": VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT
};
const char* texture_wrap_name(TextureWrap wrap);            // or "Unknown"
TextureWrap texture_wrap_from_name(std::string_view name);  // or Unknown

// One texture of a material. KHR_texture_transform, when the source has it: the UV a shader
// samples with is  offset + R(rotation) * (scale * uv), where R(a) = [[cos a, sin a], [-sin a,
// cos a]] rotates counter-clockwise in UV space (glTF's definition). UV (0,0) is the first texel
// row's first texel, as in Vulkan.
struct TextureSlot {
  std::string texture;  // logical name of a TEXI asset; empty: the slot has no texture
  uint32_t uv_set = 0;  // vertex UV set the slot samples with: 0 (location 3) or 1 (location 5)
  float offset[2] = {0, 0};
  float rotation = 0;  // radians
  float scale[2] = {1, 1};
  TextureWrap wrap_u = TextureWrap::Repeat, wrap_v = TextureWrap::Repeat;
  bool nearest = false;  // magnify with the nearest texel (pixel art) instead of linear filtering
};

struct MaterialInfo {
  std::string name;                           // the source's name for it (may be empty)
  float base_color_factor[4] = {1, 1, 1, 1};  // linear RGBA
  float metallic_factor = 1;
  float roughness_factor = 1;
  float emissive_factor[3] = {0, 0, 0};  // linear RGB
  float emissive_strength = 1;           // KHR_materials_emissive_strength
  float normal_scale = 1;                // scales the normal map's X and Y
  float occlusion_strength = 1;          // 0: no occlusion, 1: full
  AlphaMode alpha_mode = AlphaMode::Opaque;
  float alpha_cutoff = 0.5f;  // used by Mask only
  bool double_sided = false;  // false: cull back faces
  bool unlit = false;         // KHR_materials_unlit: base colour only, no lighting
  TextureSlot base_color, metallic_roughness, normal, occlusion, emissive;
  std::string original_file;  // source path relative to the bake root
  // Filled by read_material_info: true for a legacy vkguide material (read-only). Ignored by
  // pack_material.
  bool legacy = false;
};

// Writes `info` as a "MATL" asset into `out` (metadata only, an empty blob).
// Errors: InvalidArgument when a number is not finite, uv_set is over 1, alpha_mode or a wrap is
// Unknown, or the metadata would be over kMaxJsonSize. `out` is written only on success.
Status pack_material(const MaterialInfo& info, AssetFile& out);

// Reads a "MATL" asset.
// Safe on hostile bytes. Errors: UnknownType, InvalidJson, MissingKey, WrongKeyType, InvalidValue
// (a non-finite number, an unknown alpha mode or wrap, a uv_set over 1, a non-empty blob),
// UnknownCompression (a "compression" other than "LZ4" or "None"); messages
// start with "MATL metadata" and do not name the file. `info` is left unchanged on error.
// Once warm, allocates nothing when `info` is reused: the same asset again, or two in turn, read
// into one `info` (the calling thread keeps a JSON parser and a scratch info, which trades memory
// with `info`: tens of KB, about 1 MB at most after a 64 KiB header). Legacy files allocate.
// Also reads vkguide's legacy materials (docs/format.md, "Legacy vkguide files"): type "MATX", as
// vkguide writes them (messages then start with "MATX metadata"), or "MATL" with "baseEffect" and
// no "alpha_mode". They give the base colour texture and the alpha mode only, `legacy` set; their
// texture names are vkguide's paths (relative to its export folder), not manifest names.
Status read_material_info(const AssetView& file, MaterialInfo& info);

}  // namespace assetlib
