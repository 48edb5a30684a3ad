// baker.json: project settings, glob rules and presets, resolved into the settings of one file.
//
//   {
//     "settings": { "compression": "LZ4", "mips": true },          // project defaults
//     "rules": [ { "match": "ui/**", "settings": { "texture_role": "ui" } } ],  // in order, later win
//     "presets": { "release": { "settings": { "lz4_hc_level": 9 }, "rules": [...], "output": "baked-release" } }
//   }
//
// Every settings key is listed in docs/baker.md. Unknown keys are warned about, wrong types are errors.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/status.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace baker {

enum class AssetKind { Texture, Mesh };

enum class TextureRole { Auto, Color, Normal, Data, Ui };

struct TextureSettings {
  TextureRole role = TextureRole::Auto;
  bool mips = true;
  uint32_t max_size = 0;  // 0: keep the source size; else the largest side is scaled down to it
  bool block_compression = true;  // BC1/BC3/BC4/BC5 by role; false keeps 8-bit RGBA
};

struct MeshSettings {
  std::string vertex_format = "PNCVT_F32";
  bool optimize = true;   // vertex cache / overdraw / fetch optimisation
  bool meshlets = false;  // also store meshlets
  uint32_t lod_count = 0; // coarser levels of detail to add (0..8)
};

// The effective settings of one source file.
struct BakeSettings {
  assetlib::PackOptions pack;
  TextureSettings texture;
  MeshSettings mesh;
  std::string key;  // canonical JSON of the settings that apply to this kind: part of the cache key
};

struct BakeRule {
  std::string match;
  nlohmann::json settings;
};

struct BakeConfig {
  std::string path;                 // the baker.json read, empty for built-in defaults
  nlohmann::json settings = nlohmann::json::object();
  std::vector<BakeRule> rules;
  std::optional<std::string> output;  // set by a preset, relative to the config's folder
  std::vector<std::string> warnings;
};

// The nearest baker.json in `input_dir` or its ancestors.
std::optional<std::filesystem::path> find_config(const std::filesystem::path& input_dir);

// Reads `path` and applies `preset` (empty for none). Unknown preset: an error listing the known ones.
assetlib::Status load_config(const std::filesystem::path& path, const std::string& preset,
                             BakeConfig& out);

// The settings of `relative_path` (root-relative, '/'): defaults, project settings, then every
// matching rule in file order.
assetlib::Status settings_for(const BakeConfig& config, const std::string& relative_path,
                              AssetKind kind, BakeSettings& out);

}  // namespace baker
