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

// How the mip filters read beyond a texture's edges: as the samplers that use it wrap it (glTF
// wrapS/wrapT, MTL -clamp). A tiling texture filtered as if clamped shows a seam where its tiles
// meet in every smaller level; a clamped one filtered as if tiling takes in its opposite edge.
struct MipEdges {
  assetlib::TextureWrap u = assetlib::TextureWrap::Repeat, v = assetlib::TextureWrap::Repeat;
  bool operator==(const MipEdges&) const = default;
};

// The edges of a texture that two slots wrap differently: per axis, repeat over mirrored repeat
// over clamp (a seam between tiles shows more than a blend at a clamped border).
MipEdges either(MipEdges a, MipEdges b);
// "repeat,clamp_to_edge": u then v, for cache keys and digests.
std::string mip_edges_name(MipEdges edges);

struct TextureSettings {
  TextureRole role = TextureRole::Auto;
  MipEdges edges;  // from the slots that use the image (TexturePlan), never from baker.json
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
