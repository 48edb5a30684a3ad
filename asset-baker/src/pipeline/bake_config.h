// baker.json: project settings, glob rules and presets, resolved into the settings of one file.
//
//   {
//     "settings": { "compression": "LZ4", "mips": true },  // project defaults
//     "rules": [ { "match": "**/ui/**", "settings": { "texture_role": "ui" } } ],  // later win
//     "exclude": [ "**/wip/**", "lost+found" ],  // never walked, never baked
//     "presets": { "release": { "settings": { "lz4_hc_level": 9 }, "rules": [...],
//                               "exclude": [...], "output": "baked-release" } }
//   }
//
// Every settings key is listed in docs/baker.md. Unknown keys are warned about (naming the key
// probably meant), wrong types are errors.
#pragma once

#include "common/asset_kinds.h"
#include "common/bake_settings.h"
#include "common/bake_status.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace baker {

// A baker.json larger than this is not a configuration (refused before reading).
inline constexpr uint64_t kMaxConfigBytes = uint64_t(16) << 20;
// Deepest nesting of arrays and objects a baker.json may have: a real one needs 4 (a rule's
// settings' list); copying and printing a value recurse, and 100000 levels overflowed the stack.
inline constexpr int kMaxConfigDepth = 64;

struct BakeRule {
  std::string match;
  nlohmann::json settings;
};

struct BakeConfig {
  std::string path;    // the baker.json read, empty for built-in defaults
  std::string preset;  // the preset applied, empty for none
  nlohmann::json presets = nlohmann::json::object();  // every preset the file defines, by name
  nlohmann::json settings = nlohmann::json::object();
  std::vector<BakeRule> rules;
  std::vector<std::string> exclude;   // globs of files and folders left out, the preset's added
  std::optional<std::string> output;  // set by a preset, relative to the config's folder
  std::vector<std::string> warnings;
};

// Every key a "settings" object may hold (docs/baker.md lists them).
const std::vector<std::string>& setting_keys();

// The nearest baker.json in `input_dir` or its ancestors.
std::optional<std::filesystem::path> find_config(const std::filesystem::path& input_dir);

// Reads `path` (JSON; // and /* */ comments allowed) and applies `preset` (empty for none). Every
// value is checked here, rules included, so a bad one stops the bake before any output is touched.
// Errors give the line and column of a JSON syntax error; an unknown preset lists the known ones.
BakeStatus load_config(const std::filesystem::path& path, const std::string& preset,
                       BakeConfig& out);

// A digest of what the configuration makes a bake do (its settings and rules, the preset's
// merged in): shards baked with other settings must not merge.
uint64_t config_digest(const BakeConfig& config);

// The "exclude" glob that leaves out the file or folder `relative_path` (root-relative, '/'), or
// nullopt. An excluded folder is not listed at all (a lost+found that cannot be read stops no
// bake), and nothing under it is a source; an excluded file is not a source. Every walk of the
// input (bake, plan, bake-one, collect) leaves out the same files.
std::optional<std::string> exclusion_of(const BakeConfig& config, std::string_view relative_path);

// The "exclude" glob that leaves out `relative_path` itself or the nearest folder above it (what
// a walk never reaches), or nullopt.
std::optional<std::string> exclusion_above(const BakeConfig& config,
                                           std::string_view relative_path);

// What a bake of the one source `relative_path` says when `glob` excludes it: it bakes nothing and
// succeeds (a build system runs an edge for every file it globs).
std::string excluded_message(const std::string& relative_path, const std::string& glob);

// What a bake prints first: "config: <path>, preset 'p'" or "config: none, built-in defaults".
std::string config_line(const BakeConfig& config);

// The settings of `relative_path` (root-relative, '/'): defaults, project settings, then every
// matching rule in file order.
BakeStatus settings_for(const BakeConfig& config, const std::string& relative_path, AssetKind kind,
                        BakeSettings& out);

}  // namespace baker
