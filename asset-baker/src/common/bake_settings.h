// The effective settings of one source file, as the importers and processing stages see them.
// Where they come from (defaults, baker.json, rules, presets) is pipeline/bake_config.h.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/material_asset.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace baker {

enum class TextureRole { Auto, Color, Normal, Data, Ui };

// "auto", "color", "normal", "data", "ui": the names baker.json and texture names use.
const char* texture_role_name(TextureRole role);
// The role named `name`, or nullopt.
std::optional<TextureRole> texture_role_from_name(std::string_view name);

// How the material slots that use a texture sample it, which its mip filters follow:
// - u, v: how the samplers wrap it (glTF wrapS/wrapT, MTL -clamp), which is how the filters read
//   beyond its edges. A tiling texture filtered as if clamped shows a seam where its tiles meet in
//   every smaller level; a clamped one filtered as if tiling takes in its opposite edge.
// - alpha_cutoff: the cutoff of an alpha-tested (masked) material drawing it as its base colour.
//   Filtering averages a cut-out's thin opaque parts with the transparent texels beside them, so
//   fewer texels pass the test in each smaller level and foliage and fences thin out and vanish
//   with distance; such a texture's levels keep the fraction that passes at level 0.
struct SlotSampling {
  assetlib::TextureWrap u = assetlib::TextureWrap::Repeat, v = assetlib::TextureWrap::Repeat;
  std::optional<float> alpha_cutoff;  // only strictly between 0 and 1
  bool operator==(const SlotSampling&) const = default;
};

// How a texture that two slots sample differently is filtered: per axis, repeat over mirrored
// repeat over clamp (a seam between tiles shows more than a blend at a clamped border); the lower
// alpha cutoff of two masked uses, the cutoff of one.
SlotSampling either(SlotSampling a, SlotSampling b);
// "repeat,clamp_to_edge": u then v, then ",alpha_cutoff:0.5" when masked; for cache keys and
// digests.
std::string sampling_name(SlotSampling sampling);
// `cutoff` when alpha testing by it leaves some texels and drops others (0 < cutoff < 1), else
// nullopt: the only cutoffs whose coverage mips can keep.
std::optional<float> testable_cutoff(double cutoff);
// The cutoff a masked material tests its base colour texture's alpha against: the material's
// cutoff divided by the alpha of its base colour factor (which multiplies the texture's alpha),
// when testable.
std::optional<float> masked_texture_cutoff(double material_cutoff, double factor_alpha);

struct TextureSettings {
  TextureRole role = TextureRole::Auto;
  SlotSampling sampling;  // from the slots that use the image (TexturePlan), never baker.json
  bool mips = true;
  uint32_t max_size = 0;  // 0: keep the source size; else the largest side is scaled down to it
  bool block_compression = true;  // BC1/BC3/BC4/BC5 by role; false keeps 8-bit RGBA
};

// 28 bytes per vertex with normal and tangent (octahedral), instead of PNCVT_F32's 60: what an
// engine wants unless it needs full-precision normals (engine-sample decodes both).
inline constexpr const char* kDefaultVertexFormat = "PNCVT_OCT";

struct MeshSettings {
  std::string vertex_format = kDefaultVertexFormat;
  bool optimize = true;    // vertex cache / overdraw / fetch optimisation
  bool meshlets = false;   // also store meshlets
  uint32_t lod_count = 0;  // coarser levels of detail to add (0..8)
};

// The effective settings of one source file.
struct BakeSettings {
  assetlib::PackOptions pack;
  TextureSettings texture;
  MeshSettings mesh;
  std::string key;  // canonical JSON of the settings that apply to this kind: part of the cache key
};

}  // namespace baker
