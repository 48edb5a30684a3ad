#include "pipeline/bake_config.h"

#include "common/content_hash.h"
#include "common/regular_file.h"

#include "pipeline/closest_name.h"
#include "pipeline/glob_match.h"

#include <assetlib/mesh_asset.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>

namespace baker {
namespace {

using nlohmann::json;

// Every settings key baker.json may use (docs/baker.md explains each).
const std::vector<std::string> kSettingKeys = {
    "compression",       "lz4_hc_level",  "chunk_size", "texture_role", "mips",     "max_size",
    "block_compression", "vertex_format", "optimize",   "meshlets",     "lod_count"};
const std::vector<std::string> kTopLevelKeys = {"settings", "rules", "exclude", "presets"};
const std::vector<std::string> kPresetKeys = {"settings", "rules", "exclude", "output"};
const std::vector<std::string> kRuleKeys = {"match", "settings"};

// Unknown keys are warnings, not errors, so that a config written for a newer baker still bakes;
// a near miss names the key it probably meant.
void warn_unknown_keys(const json& object, const std::vector<std::string>& known,
                       const std::string& where, const char* what,
                       std::vector<std::string>& warnings) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      warnings.push_back(where + ": unknown " + what + " '" + it.key() + "' ignored" +
                         did_you_mean(it.key(), known));
    }
  }
}

// "line L, column C" of byte `offset` in `text` (both counted from 1, as editors do).
std::string text_position(const std::vector<std::byte>& text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    bool newline = text[i] == std::byte('\n');
    line += newline;
    column = newline ? 1 : column + 1;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

BakeStatus config_error(const std::string& path, const std::string& what) {
  return BakeStatus::failure(BakeError::Config, path, what);
}

BakeStatus glob_length_error(const std::string& where, const char* what, size_t length) {
  return config_error(where, std::string(what) + " of " + std::to_string(length) +
                                 " characters is over the " + std::to_string(kMaxGlobLength) +
                                 "-character limit");
}

// Reads an "exclude" array of globs out of `obj` (the top level or a preset).
BakeStatus read_exclude(const json& obj, const std::string& where, BakeConfig& out) {
  if (!obj.contains("exclude")) return {};
  const json& globs = obj["exclude"];
  if (!globs.is_array()) return config_error(where, "'exclude' must be an array of globs");
  for (const json& glob : globs) {
    if (!glob.is_string() || glob.get_ref<const std::string&>().empty())
      return config_error(where, "each 'exclude' entry must be a non-empty glob string");
    const std::string& text = glob.get_ref<const std::string&>();
    if (text.size() > kMaxGlobLength)
      return glob_length_error(where, "an 'exclude' glob", text.size());
    // Spellings that would match nothing, silently: paths are root-relative, '/'-separated, with no
    // "." or trailing '/'.
    if (text.front() == '/' || text.back() == '/' || text == "." || text.rfind("./", 0) == 0) {
      return config_error(where, "'exclude' glob '" + text +
                                     "' matches nothing: globs are relative to the input folder, "
                                     "without a leading '/' or './' or a trailing '/' (a folder: "
                                     "'textures/wip', any folder so named: 'wip' or '**/wip')");
    }
    out.exclude.push_back(text);
  }
  return {};
}

// Reads a "settings" object, a "rules" array and an "exclude" array out of `obj` (the top level
// or a preset).
BakeStatus read_layer(const json& obj, const std::string& where, BakeConfig& out) {
  if (BakeStatus s = read_exclude(obj, where, out); !s) return s;
  if (obj.contains("settings")) {
    if (!obj["settings"].is_object()) return config_error(where, "'settings' must be an object");
    warn_unknown_keys(obj["settings"], kSettingKeys, where, "setting", out.warnings);
    out.settings.update(obj["settings"]);
  }
  if (obj.contains("rules")) {
    if (!obj["rules"].is_array()) return config_error(where, "'rules' must be an array");
    for (const json& rule : obj["rules"]) {
      if (!rule.is_object() || !rule.contains("match") || !rule["match"].is_string() ||
          !rule.contains("settings") || !rule["settings"].is_object()) {
        return config_error(where, "each rule needs a string 'match' and an object 'settings'");
      }
      const std::string& match = rule["match"].get_ref<const std::string&>();
      if (match.size() > kMaxGlobLength)
        return glob_length_error(where, "a rule's 'match'", match.size());
      const std::string rule_where = where + " rule '" + match + "'";
      warn_unknown_keys(rule, kRuleKeys, rule_where, "key", out.warnings);
      warn_unknown_keys(rule["settings"], kSettingKeys, rule_where, "setting", out.warnings);
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

// Fails now, before any output is touched, when the project-wide settings or any rule's hold a
// bad value: each rule is checked on top of the project settings, as it will be applied.
BakeStatus validate_settings(const BakeConfig& config, const std::string& where) {
  BakeSettings probe;
  std::string error;
  if (!to_settings(config.settings, probe, error)) return config_error(where, error);
  for (const BakeRule& rule : config.rules) {
    json merged = config.settings;
    merged.update(rule.settings);
    if (!to_settings(merged, probe, error))
      return config_error(where, "rule '" + rule.match + "': " + error);
  }
  return {};
}

}  // namespace

const std::vector<std::string>& setting_keys() { return kSettingKeys; }

std::optional<std::filesystem::path> find_config(const std::filesystem::path& input_dir) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(input_dir, ec).lexically_normal();
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
  std::string where = path.string();
  json doc;
  struct TooDeep {};
  auto depth_limit = [](int depth, json::parse_event_t, json&) {
    if (depth > kMaxConfigDepth) throw TooDeep{};
    return true;
  };
  try {
    // Comments are allowed: `asset-baker init` writes a commented starter file.
    doc = json::parse(bytes.begin(), bytes.end(), depth_limit, true, true);
  } catch (const TooDeep&) {
    return config_error(where, "arrays and objects nested deeper than " +
                                   std::to_string(kMaxConfigDepth) + " levels");
  } catch (const json::parse_error& e) {
    // e.what() is "[json.exception...] parse error at line L, column C: <reason>"; the position
    // is given once, in this message's own words.
    std::string reason = e.what();
    size_t cut = reason.find(": ");
    reason = cut == std::string::npos ? reason : reason.substr(cut + 2);
    return config_error(
        where, "invalid JSON at " + text_position(bytes, e.byte ? e.byte - 1 : 0) + ": " + reason);
  }
  if (!doc.is_object())
    return config_error(where, "must hold a JSON object, not " + std::string(doc.type_name()));
  BakeConfig config;
  config.path = where;
  config.preset = preset;
  warn_unknown_keys(doc, kTopLevelKeys, where, "key", config.warnings);
  if (BakeStatus s = read_layer(doc, where, config); !s) return s;
  if (doc.contains("presets")) {
    if (!doc["presets"].is_object()) return config_error(where, "'presets' must be an object");
    config.presets = doc["presets"];
  }
  if (!preset.empty()) {
    if (!config.presets.contains(preset)) {
      std::string known;
      std::vector<std::string> names;
      for (auto it = config.presets.begin(); it != config.presets.end(); ++it) {
        known += " " + it.key();
        names.push_back(it.key());
      }
      return config_error(where, "no preset '" + preset + "'" + did_you_mean(preset, names) +
                                     " (known:" + (known.empty() ? " none" : known) + ")");
    }
    const json& p = config.presets[preset];
    std::string in_preset = where + " preset '" + preset + "'";
    if (!p.is_object()) return config_error(where, "preset '" + preset + "' must be an object");
    warn_unknown_keys(p, kPresetKeys, in_preset, "key", config.warnings);
    if (BakeStatus s = read_layer(p, in_preset, config); !s) return s;
    if (p.contains("output")) {
      // A NUL would cut the path short at the file system: another folder than the one written.
      if (!p["output"].is_string() || p["output"].get_ref<const std::string&>().empty() ||
          p["output"].get_ref<const std::string&>().find('\0') != std::string::npos) {
        return config_error(where, "preset '" + preset +
                                       "': 'output' must be a folder name (a non-empty string "
                                       "without NUL characters)");
      }
      config.output = (path.parent_path() / p["output"].get<std::string>()).string();
    }
  }
  if (BakeStatus s = validate_settings(config, where); !s) return s;
  out = std::move(config);
  return {};
}

uint64_t config_digest(const BakeConfig& config) {
  json rules = json::array();
  for (const BakeRule& rule : config.rules) rules.push_back({rule.match, rule.settings});
  json doc = {{"settings", config.settings}, {"rules", rules}};
  if (!config.exclude.empty()) doc["exclude"] = config.exclude;  // digests of older configs kept
  const std::string text = doc.dump();
  return hash_bytes(text.data(), text.size());
}

std::optional<std::string> exclusion_above(const BakeConfig& config,
                                           std::string_view relative_path) {
  for (std::string_view path = relative_path; !path.empty();) {
    if (std::optional<std::string> glob = exclusion_of(config, path)) return glob;
    const size_t slash = path.rfind('/');
    path = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  }
  return std::nullopt;
}

std::string excluded_message(const std::string& relative_path, const std::string& glob) {
  return relative_path + ": excluded by baker.json ('" + glob + "'); nothing baked";
}

std::optional<std::string> exclusion_of(const BakeConfig& config, std::string_view relative_path) {
  for (const std::string& glob : config.exclude) {
    if (glob_match(glob, relative_path)) return glob;
  }
  return std::nullopt;
}

std::string config_line(const BakeConfig& config) {
  if (config.path.empty()) return "config: none, built-in defaults";
  std::string line = "config: " + config.path;
  if (!config.preset.empty()) line += ", preset '" + config.preset + "'";
  return line;
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
