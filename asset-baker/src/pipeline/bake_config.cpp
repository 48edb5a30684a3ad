#include "pipeline/bake_config.h"

#include "common/regular_file.h"

#include "pipeline/glob_match.h"

#include <assetlib/mesh_asset.h>

#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>

namespace baker {
namespace {

using nlohmann::json;

// Every settings key baker.json may use (docs/baker.md explains each).
constexpr const char* kKeys[] = {
    "compression",       "lz4_hc_level",  "chunk_size", "texture_role", "mips",     "max_size",
    "block_compression", "vertex_format", "optimize",   "meshlets",     "lod_count"};

bool known_key(const std::string& name) {
  for (const char* k : kKeys) {
    if (name == k) return true;
  }
  return false;
}

void warn_unknown_keys(const json& settings, const std::string& where,
                       std::vector<std::string>& warnings) {
  for (auto it = settings.begin(); it != settings.end(); ++it) {
    if (!known_key(it.key()))
      warnings.push_back(where + ": unknown setting '" + it.key() + "' ignored");
  }
}

BakeStatus config_error(const std::string& path, const std::string& what) {
  return BakeStatus::failure(BakeError::Config, path, what);
}

// Reads a "settings" object and a "rules" array out of `obj` (the top level or a preset).
BakeStatus read_layer(const json& obj, const std::string& where, BakeConfig& out) {
  if (obj.contains("settings")) {
    if (!obj["settings"].is_object()) return config_error(where, "'settings' must be an object");
    warn_unknown_keys(obj["settings"], where, out.warnings);
    out.settings.update(obj["settings"]);
  }
  if (obj.contains("rules")) {
    if (!obj["rules"].is_array()) return config_error(where, "'rules' must be an array");
    for (const json& rule : obj["rules"]) {
      if (!rule.is_object() || !rule.contains("match") || !rule["match"].is_string() ||
          !rule.contains("settings") || !rule["settings"].is_object()) {
        return config_error(where, "each rule needs a string 'match' and an object 'settings'");
      }
      warn_unknown_keys(rule["settings"],
                        where + " rule '" + rule["match"].get<std::string>() + "'", out.warnings);
      out.rules.push_back({rule["match"].get<std::string>(), rule["settings"]});
    }
  }
  return {};
}

// True when `value` is a whole number that `T` holds exactly (no fraction, no wrap-around).
template <typename T>
bool fits(const json& value) {
  if (value.is_number_unsigned())
    return value.get<uint64_t>() <= uint64_t(std::numeric_limits<T>::max());
  if (!value.is_number_integer()) return false;
  int64_t v = value.get<int64_t>();
  return v >= int64_t(std::numeric_limits<T>::min()) &&
         (v < 0 || uint64_t(v) <= uint64_t(std::numeric_limits<T>::max()));
}

// Reads `key` if present. Types are strict: no number for a bool, no fraction or out-of-range
// number for an integer (nlohmann would convert both silently).
template <typename T>
bool read_value(const json& settings, const char* key, T& out, std::string& error) {
  auto it = settings.find(key);
  if (it == settings.end()) return true;
  bool ok = false;
  std::string expected;
  if constexpr (std::is_same_v<T, bool>) {
    ok = it->is_boolean();
    expected = "true or false";
  } else if constexpr (std::is_integral_v<T>) {
    ok = fits<T>(*it);
    expected = "a whole number within " + std::to_string(std::numeric_limits<T>::min()) + ".." +
               std::to_string(std::numeric_limits<T>::max());
  } else {
    ok = it->is_string();
    expected = "a string";
  }
  if (!ok) {
    error = std::string("setting '") + key + "' must be " + expected + ", not " + it->dump();
    return false;
  }
  out = it->get<T>();
  return true;
}

// Converts merged settings JSON into typed settings; `error` names the first bad value.
bool to_settings(const json& merged, BakeSettings& out, std::string& error) {
  std::string compression = "LZ4", role = "auto";
  int hc_level = 0;
  uint32_t chunk_size = out.pack.chunk_size;
  bool ok = read_value(merged, "compression", compression, error) &&
            read_value(merged, "lz4_hc_level", hc_level, error) &&
            read_value(merged, "chunk_size", chunk_size, error) &&
            read_value(merged, "texture_role", role, error) &&
            read_value(merged, "mips", out.texture.mips, error) &&
            read_value(merged, "max_size", out.texture.max_size, error) &&
            read_value(merged, "block_compression", out.texture.block_compression, error) &&
            read_value(merged, "vertex_format", out.mesh.vertex_format, error) &&
            read_value(merged, "optimize", out.mesh.optimize, error) &&
            read_value(merged, "meshlets", out.mesh.meshlets, error) &&
            read_value(merged, "lod_count", out.mesh.lod_count, error);
  if (!ok) return false;
  if (compression != "LZ4" && compression != "None") {
    error = "compression must be \"LZ4\" or \"None\"";
    return false;
  }
  out.pack.compression =
      compression == "LZ4" ? assetlib::Compression::LZ4 : assetlib::Compression::None;
  out.pack.lz4_hc_level = hc_level;
  out.pack.chunk_size = chunk_size;
  if (hc_level < 0 || hc_level > 12) {
    error = "lz4_hc_level must be within 0..12";
    return false;
  }
  if (chunk_size < 1024 || chunk_size > (1u << 30)) {
    error = "chunk_size must be within 1024..1073741824";
    return false;
  }
  std::optional<TextureRole> parsed_role = texture_role_from_name(role);
  if (!parsed_role) {
    error = "texture_role must be one of auto, color, normal, data, ui";
    return false;
  }
  out.texture.role = *parsed_role;
  if (assetlib::vertex_format_from_name(out.mesh.vertex_format) ==
      assetlib::VertexFormat::Unknown) {
    error =
        "vertex_format must be PNCVT_F32, PNCVT_OCT, PNCVVT_F32, PNCVVT_OCT, PNCV_F32 or "
        "P32N8C8V16";
    return false;
  }
  if (out.mesh.lod_count > 8) {
    error = "lod_count must be within 0..8";
    return false;
  }
  return true;
}

// The effective values that shape this kind's output, so a rule that restates a default, or a
// mesh setting, never rebakes a texture.
std::string settings_key(const BakeSettings& s, AssetKind kind) {
  json key = {{"compression", s.pack.compression == assetlib::Compression::LZ4 ? "LZ4" : "None"},
              {"lz4_hc_level", s.pack.lz4_hc_level},
              {"chunk_size", s.pack.chunk_size}};
  // A glTF scene bakes the images it embeds as well as its meshes: both sets apply to it.
  if (kind == AssetKind::Texture || kind == AssetKind::Scene) {
    key["texture_role"] = texture_role_name(s.texture.role);
    key["mips"] = s.texture.mips;
    key["max_size"] = s.texture.max_size;
    key["block_compression"] = s.texture.block_compression;
  }
  if (kind == AssetKind::Mesh || kind == AssetKind::Scene) {
    key["vertex_format"] = s.mesh.vertex_format;
    key["optimize"] = s.mesh.optimize;
    key["meshlets"] = s.mesh.meshlets;
    key["lod_count"] = s.mesh.lod_count;
  }
  return key.dump();
}

}  // namespace

std::optional<std::filesystem::path> find_config(const std::filesystem::path& input_dir) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(input_dir, ec);
  if (ec) return std::nullopt;
  for (; !dir.empty(); dir = dir.parent_path()) {
    std::filesystem::path candidate = dir / "baker.json";
    std::error_code missing;  // a folder without one is the usual case, not an error
    if (std::filesystem::is_regular_file(candidate, missing)) return candidate;
    if (dir == dir.root_path()) break;
  }
  return std::nullopt;
}

BakeStatus load_config(const std::filesystem::path& path, const std::string& preset,
                       BakeConfig& out) {
  std::vector<std::byte> bytes;
  if (ReadResult r = read_regular_file(path, kMaxConfigBytes, bytes); r != ReadResult::Ok)
    return config_error(path.string(), read_result_reason(r, kMaxConfigBytes));
  json doc = json::parse(bytes.begin(), bytes.end(), nullptr, false);
  std::string where = path.string();
  if (doc.is_discarded() || !doc.is_object()) {
    return config_error(where, "not a JSON object");
  }
  BakeConfig config;
  config.path = where;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it.key() != "settings" && it.key() != "rules" && it.key() != "presets") {
      config.warnings.push_back(where + ": unknown key '" + it.key() + "' ignored");
    }
  }
  if (BakeStatus s = read_layer(doc, where, config); !s) return s;
  if (!preset.empty()) {
    const json* presets = doc.contains("presets") ? &doc["presets"] : nullptr;
    if (!presets || !presets->is_object() || !presets->contains(preset)) {
      std::string known;
      if (presets && presets->is_object()) {
        for (auto it = presets->begin(); it != presets->end(); ++it) known += " " + it.key();
      }
      return config_error(
          where, "no preset '" + preset + "' (known:" + (known.empty() ? " none" : known) + ")");
    }
    const json& p = (*presets)[preset];
    if (!p.is_object()) return config_error(where, "preset '" + preset + "' must be an object");
    for (auto it = p.begin(); it != p.end(); ++it) {
      if (it.key() != "settings" && it.key() != "rules" && it.key() != "output") {
        config.warnings.push_back(where + " preset '" + preset + "': unknown key '" + it.key() +
                                  "' ignored");
      }
    }
    if (BakeStatus s = read_layer(p, where + " preset '" + preset + "'", config); !s) return s;
    if (p.contains("output")) {
      if (!p["output"].is_string()) return config_error(where, "preset 'output' must be a string");
      config.output = (path.parent_path() / p["output"].get<std::string>()).string();
    }
  }
  // Fail now, not per file, when the project-wide settings are wrong.
  BakeSettings probe;
  std::string error;
  if (!to_settings(config.settings, probe, error)) return config_error(where, error);
  out = std::move(config);
  return {};
}

BakeStatus settings_for(const BakeConfig& config, const std::string& relative_path, AssetKind kind,
                        BakeSettings& out) {
  json merged = config.settings;
  for (const BakeRule& rule : config.rules) {
    if (glob_match(rule.match, relative_path)) merged.update(rule.settings);
  }
  BakeSettings settings;
  std::string error;
  if (!to_settings(merged, settings, error)) {
    return config_error(config.path.empty() ? "settings" : config.path,
                        relative_path + ": " + error);
  }
  settings.key = settings_key(settings, kind);
  out = std::move(settings);
  return {};
}

}  // namespace baker
