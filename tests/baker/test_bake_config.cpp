// Settings resolution (pipeline/bake_config.h): defaults, baker.json settings, rules in order,
// presets, warnings for unknown keys, errors for wrong values, and the settings key of the cache.
#include "temp_dir.h"

#include "cli/commands.h"
#include "pipeline/bake_config.h"
#include "pipeline/glob_match.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using baker::AssetKind;
using baker::BakeConfig;
using baker::BakeError;
using baker::BakeSettings;
using baker::BakeStatus;
using baker::TextureRole;
namespace fs = std::filesystem;

namespace {

struct Loaded {
  BakeStatus status;
  BakeConfig config;
  std::string path;
};

Loaded load(const test::TempDir& dir, const std::string& text, const std::string& preset = "") {
  Loaded l;
  l.path = dir.write("baker.json", text).string();
  l.status = baker::load_config(l.path, preset, l.config);
  return l;
}

BakeSettings settings_of(const BakeConfig& config, const std::string& path,
                         AssetKind kind = AssetKind::Texture) {
  BakeSettings out;
  BakeStatus s = baker::settings_for(config, path, kind, out);
  INFO(s.message());
  REQUIRE(s.ok());
  return out;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Loading `settings_json` as the project settings fails with a Config error naming the file and
// `key`.
void check_refused(const std::string& settings_json, const std::string& key) {
  test::TempDir dir;
  Loaded l = load(dir, R"({"settings": )" + settings_json + "}");
  INFO(settings_json << " -> " << l.status.message());
  CHECK(l.status.code == BakeError::Config);
  CHECK(l.status.file == l.path);
  CHECK(contains(l.status.reason, key));
  CHECK(l.status.message() == l.path + ": " + l.status.reason);
}

// The settings key of a file of `kind` under project settings `settings_json`.
std::string key_of(const std::string& settings_json, AssetKind kind) {
  test::TempDir dir;
  Loaded l = load(dir, R"({"settings": )" + settings_json + "}");
  INFO(l.status.message());
  REQUIRE(l.status.ok());
  return settings_of(l.config, kind == AssetKind::Texture ? "a.png" : "a.obj", kind).key;
}

}  // namespace

TEST_CASE("config: without a baker.json every file gets the documented defaults", "[config]") {
  BakeSettings s = settings_of(BakeConfig{}, "textures/a.png");
  CHECK(s.pack.compression == assetlib::Compression::LZ4);
  CHECK(s.pack.lz4_hc_level == 0);
  CHECK(s.pack.chunk_size == 1048576u);
  CHECK(s.texture.role == TextureRole::Auto);
  CHECK(s.texture.mips);
  CHECK(s.texture.max_size == 0u);
  CHECK(s.texture.block_compression);
  CHECK(s.mesh.vertex_format == "PNCVT_OCT");
  CHECK(s.mesh.optimize);
  CHECK_FALSE(s.mesh.meshlets);
  CHECK(s.mesh.lod_count == 0u);
  CHECK_FALSE(s.key.empty());
}

TEST_CASE("config: an empty baker.json gives the defaults and no warning", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, "{}");
  REQUIRE(l.status.ok());
  CHECK(l.config.path == l.path);
  CHECK(l.config.warnings.empty());
  CHECK_FALSE(l.config.output);
  CHECK(settings_of(l.config, "a.png").key == settings_of(BakeConfig{}, "a.png").key);
}

TEST_CASE("config: project settings apply to every file", "[config]") {
  test::TempDir dir;
  Loaded l =
      load(dir, R"({"settings": {"compression": "None", "lz4_hc_level": 9, "chunk_size": 4096,
      "texture_role": "data", "mips": false, "max_size": 256, "block_compression": false,
      "vertex_format": "P32N8C8V16", "optimize": false, "meshlets": true, "lod_count": 3}})");
  REQUIRE(l.status.ok());
  BakeSettings s = settings_of(l.config, "deep/folder/x.png");
  CHECK(s.pack.compression == assetlib::Compression::None);
  CHECK(s.pack.lz4_hc_level == 9);
  CHECK(s.pack.chunk_size == 4096u);
  CHECK(s.texture.role == TextureRole::Data);
  CHECK_FALSE(s.texture.mips);
  CHECK(s.texture.max_size == 256u);
  CHECK_FALSE(s.texture.block_compression);
  CHECK(s.mesh.vertex_format == "P32N8C8V16");
  CHECK_FALSE(s.mesh.optimize);
  CHECK(s.mesh.meshlets);
  CHECK(s.mesh.lod_count == 3u);
}

TEST_CASE("config: matching rules apply in file order and the later one wins", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"settings": {"max_size": 1024},
      "rules": [{"match": "ui/**", "settings": {"texture_role": "ui", "max_size": 64}},
                {"match": "*.png", "settings": {"max_size": 512}},
                {"match": "ui/icons/*", "settings": {"mips": false}}]})");
  REQUIRE(l.status.ok());
  BakeSettings icon = settings_of(l.config, "ui/icons/a.png");
  CHECK(icon.texture.role == TextureRole::Ui);
  CHECK(icon.texture.max_size == 512u);
  CHECK_FALSE(icon.texture.mips);
  BakeSettings ui_jpg = settings_of(l.config, "ui/b.jpg");
  CHECK(ui_jpg.texture.max_size == 64u);
  CHECK(ui_jpg.texture.mips);
  BakeSettings other = settings_of(l.config, "world/c.jpg");
  CHECK(other.texture.role == TextureRole::Auto);
  CHECK(other.texture.max_size == 1024u);
}

TEST_CASE("config: a rule restating a key set earlier by a rule overrides it, not merges it",
          "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"rules": [{"match": "*.png", "settings": {"texture_role": "normal"}},
                                      {"match": "*.png", "settings": {"texture_role": "color"}}]})");
  REQUIRE(l.status.ok());
  CHECK(settings_of(l.config, "a.png").texture.role == TextureRole::Color);
}

TEST_CASE(
    "config: a preset's settings override the project's and its rules come after the project's",
    "[config]") {
  test::TempDir dir;
  const char* text = R"({"settings": {"lz4_hc_level": 1, "max_size": 128},
      "rules": [{"match": "*.png", "settings": {"max_size": 256, "mips": false}}],
      "presets": {"release": {"settings": {"lz4_hc_level": 9, "max_size": 2048},
                              "rules": [{"match": "*.png", "settings": {"max_size": 4096}}]}}})";
  Loaded plain = load(dir, text);
  REQUIRE(plain.status.ok());
  BakeSettings p = settings_of(plain.config, "a.png");
  CHECK(p.pack.lz4_hc_level == 1);
  CHECK(p.texture.max_size == 256u);

  Loaded release = load(dir, text, "release");
  REQUIRE(release.status.ok());
  BakeSettings r = settings_of(release.config, "a.png");
  CHECK(r.pack.lz4_hc_level == 9);
  CHECK(r.texture.max_size == 4096u);
  CHECK_FALSE(r.texture.mips);
  // A file no rule matches gets the preset's settings over the project's.
  CHECK(settings_of(release.config, "a.obj", AssetKind::Mesh).pack.lz4_hc_level == 9);
  CHECK(settings_of(release.config, "a.jpg").texture.max_size == 2048u);
}

TEST_CASE("config: a preset's output is relative to the folder of baker.json", "[config]") {
  test::TempDir dir;
  const char* text = R"({"presets": {"release": {"output": "../baked-release"}, "debug": {}}})";
  Loaded release = load(dir, text, "release");
  REQUIRE(release.status.ok());
  REQUIRE(release.config.output);
  CHECK(fs::path(*release.config.output) == dir.path() / "../baked-release");
  Loaded debug = load(dir, text, "debug");
  REQUIRE(debug.status.ok());
  CHECK_FALSE(debug.config.output);
  Loaded none = load(dir, text);
  REQUIRE(none.status.ok());
  CHECK_FALSE(none.config.output);
}

TEST_CASE("config: an unknown preset is a Config error listing the known ones", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"presets": {"release": {}, "debug": {}}})", "shipping");
  CHECK(l.status.code == BakeError::Config);
  CHECK(l.status.file == l.path);
  CHECK(contains(l.status.reason, "'shipping'"));
  CHECK(contains(l.status.reason, "release"));
  CHECK(contains(l.status.reason, "debug"));

  Loaded none = load(dir, "{}", "release");
  CHECK(none.status.code == BakeError::Config);
  CHECK(contains(none.status.reason, "known: none"));
}

TEST_CASE("config: a preset output that is not a folder name is refused", "[config]") {
  test::TempDir dir;
  // A NUL cut the path short: "a\u0000b" baked into "a".
  for (const char* output : {"3", R"("")", R"("a\u0000b")"}) {
    INFO(output);
    Loaded l = load(dir, std::string(R"({"presets": {"release": {"output": )") + output + "}}}",
                    "release");
    CHECK(l.status.code == BakeError::Config);
    CHECK(l.status.file == l.path);
    CHECK(l.status.message().find("'output' must be a folder name") != std::string::npos);
  }
}

TEST_CASE("config: unknown keys are warned about, naming the file and the key, and ignored",
          "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"setting": {}, "settings": {"mip": false},
      "rules": [{"match": "*.png", "settings": {"maxsize": 4}}]})");
  REQUIRE(l.status.ok());
  REQUIRE(l.config.warnings.size() == 3);
  for (const std::string& w : l.config.warnings) CHECK(w.rfind(l.path, 0) == 0);
  auto warned = [&](const std::string& key) {
    return std::any_of(l.config.warnings.begin(), l.config.warnings.end(),
                       [&](const std::string& w) { return contains(w, "'" + key + "'"); });
  };
  CHECK(warned("setting"));
  CHECK(warned("mip"));
  CHECK(warned("maxsize"));
  CHECK(settings_of(l.config, "a.png").key == settings_of(BakeConfig{}, "a.png").key);
}

TEST_CASE("config: unknown settings inside a preset are warned about", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"presets": {"release": {"settings": {"lz4_level": 9}}}})", "release");
  REQUIRE(l.status.ok());
  REQUIRE(l.config.warnings.size() == 1);
  CHECK(contains(l.config.warnings[0], "'lz4_level'"));
}

TEST_CASE("config: an unknown key of a preset itself is warned about", "[config]") {
  // A misspelt "setings" or "ouput" in a preset must not be ignored silently.
  test::TempDir dir;
  Loaded l = load(dir, R"({"presets": {"release": {"setings": {"lz4_hc_level": 9}}}})", "release");
  REQUIRE(l.status.ok());
  CHECK(l.config.warnings.size() == 1);
}

TEST_CASE("config: a missing file, broken JSON or a non-object is a Config error naming the file",
          "[config]") {
  test::TempDir dir;
  BakeConfig config;
  std::string missing = (dir.path() / "nope.json").string();
  BakeStatus s = baker::load_config(missing, "", config);
  CHECK(s.code == BakeError::Config);
  CHECK(s.file == missing);
  for (const char* text : {"{", "[]", "3", "", "{\"settings\": {} } trailing"}) {
    Loaded l = load(dir, text);
    INFO(text);
    CHECK(l.status.code == BakeError::Config);
    CHECK(l.status.file == l.path);
  }
}

TEST_CASE("config: values nested deeper than the limit are a Config error, not a stack overflow",
          "[config]") {
  test::TempDir dir;
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  for (const std::string& text :
       {"{\"settings\": {\"mips\": " + deep + "}}",
        "{\"rules\": [{\"match\": \"*\", \"settings\": {\"mips\": " + deep + "}}]}",
        "{\"presets\": {\"p\": {\"settings\": {\"mips\": " + deep + "}}}}"}) {
    Loaded l = load(dir, text, "p");
    INFO(l.status.message());
    CHECK(l.status.code == BakeError::Config);
    CHECK_THAT(l.status.message(), Catch::Contains("nested deeper than 64 levels"));
  }
  // At the limit: an ordinary type error.
  const int inner = baker::kMaxConfigDepth - 2;  // the top object and settings take two levels
  Loaded at_limit = load(dir, "{\"settings\": {\"mips\": " + std::string(size_t(inner), '[') +
                                  std::string(size_t(inner), ']') + "}}");
  CHECK(at_limit.status.code == BakeError::Config);
  CHECK_THAT(at_limit.status.message(), !Catch::Contains("nested deeper"));
}

TEST_CASE("config: a rule's match over the length limit is refused, a rule's unknown key warned",
          "[config]") {
  test::TempDir dir;
  Loaded long_match =
      load(dir, R"({"rules": [{"match": ")" + std::string(baker::kMaxGlobLength + 1, '*') +
                    R"(", "settings": {}}]})");
  CHECK(long_match.status.code == BakeError::Config);
  CHECK_THAT(long_match.status.message(), Catch::Contains("-character limit"));
  Loaded bogus = load(dir, R"({"rules": [{"match": "*.png", "settings": {}, "bogus": 1}]})");
  REQUIRE(bogus.status.ok());
  REQUIRE(bogus.config.warnings.size() == 1);
  CHECK_THAT(bogus.config.warnings[0], Catch::Contains("rule '*.png': unknown key 'bogus'"));
}

TEST_CASE("config: malformed settings, rules or presets are Config errors", "[config]") {
  test::TempDir dir;
  for (const char* text :
       {R"({"settings": []})", R"({"rules": {}})", R"({"rules": [3]})",
        R"({"rules": [{"settings": {}}]})", R"({"rules": [{"match": 1, "settings": {}}]})",
        R"({"rules": [{"match": "*"}]})", R"({"rules": [{"match": "*", "settings": []}]})"}) {
    Loaded l = load(dir, text);
    INFO(text << " -> " << l.status.message());
    CHECK(l.status.code == BakeError::Config);
    CHECK(l.status.file == l.path);
  }
  Loaded preset = load(dir, R"({"presets": {"release": []}})", "release");
  CHECK(preset.status.code == BakeError::Config);
  Loaded preset_rules = load(dir, R"({"presets": {"release": {"rules": {}}}})", "release");
  CHECK(preset_rules.status.code == BakeError::Config);
}

TEST_CASE("config: settings of the wrong type are refused naming the file and the key",
          "[config]") {
  check_refused(R"({"mips": "yes"})", "mips");
  check_refused(R"({"block_compression": 1})", "block_compression");
  check_refused(R"({"compression": true})", "compression");
  check_refused(R"({"lz4_hc_level": "9"})", "lz4_hc_level");
  check_refused(R"({"chunk_size": [1024]})", "chunk_size");
  check_refused(R"({"max_size": "256"})", "max_size");
  check_refused(R"({"texture_role": 1})", "texture_role");
  check_refused(R"({"vertex_format": null})", "vertex_format");
  check_refused(R"({"optimize": "false"})", "optimize");
  check_refused(R"({"meshlets": {}})", "meshlets");
  check_refused(R"({"lod_count": "2"})", "lod_count");
}

TEST_CASE("config: out-of-range and unknown setting values are refused naming the file",
          "[config]") {
  check_refused(R"({"compression": "lz4"})", "compression");
  check_refused(R"({"compression": "ZSTD"})", "compression");
  check_refused(R"({"lz4_hc_level": 13})", "lz4_hc_level");
  check_refused(R"({"lz4_hc_level": -1})", "lz4_hc_level");
  check_refused(R"({"chunk_size": 1023})", "chunk_size");
  check_refused(R"({"chunk_size": 1073741825})", "chunk_size");
  check_refused(R"({"texture_role": "albedo"})", "texture_role");
  check_refused(R"({"vertex_format": "PNCVT_F16"})", "vertex_format");
  check_refused(R"({"lod_count": 9})", "lod_count");
}

TEST_CASE("config: the limits of the ranges are accepted", "[config]") {
  test::TempDir dir;
  Loaded low =
      load(dir, R"({"settings": {"lz4_hc_level": 0, "chunk_size": 1024, "lod_count": 0}})");
  CHECK(low.status.ok());
  Loaded high =
      load(dir, R"({"settings": {"lz4_hc_level": 12, "chunk_size": 1073741824, "lod_count": 8}})");
  CHECK(high.status.ok());
  for (const char* format : {"PNCVT_F32", "PNCVT_OCT", "PNCV_F32", "P32N8C8V16"}) {
    Loaded l = load(dir, std::string(R"({"settings": {"vertex_format": ")") + format + "\"}}");
    INFO(format);
    CHECK(l.status.ok());
  }
}

TEST_CASE("config: a boolean for a number setting is refused", "[config]") {
  // nlohmann's get<T> would convert true to 1.
  check_refused(R"({"max_size": true})", "max_size");
}

TEST_CASE("config: a fraction for an integer setting is refused", "[config]") {
  // get<int> would truncate 2.5 to 2.
  check_refused(R"({"lz4_hc_level": 2.5})", "lz4_hc_level");
}

TEST_CASE("config: a negative max_size is refused", "[config]") {
  // get<uint32_t> would turn -1 into 4294967295.
  check_refused(R"({"max_size": -1})", "max_size");
}

TEST_CASE("config: a chunk_size beyond 32 bits is refused, not wrapped into range", "[config]") {
  // get<uint32_t> would wrap 4294968320 (2^32 + 1024) to 1024, inside the 1024.. range.
  check_refused(R"({"chunk_size": 4294968320})", "chunk_size");
}

TEST_CASE("config: a bad value in a rule stops the load, naming the config, the rule and the key",
          "[config]") {
  // Checked before any output is touched: a bad vertex_format in a rule used to fail every mesh
  // one by one (and the bake went on).
  test::TempDir dir;
  Loaded l = load(dir, R"({"rules": [{"match": "*.png", "settings": {"mips": true}},
                                     {"match": "**/*.obj", "settings": {"vertex_format": "XYZ"}}]})");
  INFO(l.status.message());
  CHECK(l.status.code == BakeError::Config);
  CHECK(l.status.file == l.path);
  CHECK(contains(l.status.reason, "rule '**/*.obj'"));
  CHECK(contains(l.status.reason, "vertex_format"));
}

TEST_CASE("config: a misspelt key names the key it probably meant", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"setings": {}, "settings": {"lod_cuont": 2, "mip": true},
                           "rules": [{"match": "*", "settings": {"vertex_fromat": "PNCV_F32"}}],
                           "presets": {"r": {"ouput": "x"}}})",
                  "r");
  REQUIRE(l.status.ok());
  auto warned = [&](const std::string& part) {
    return std::any_of(l.config.warnings.begin(), l.config.warnings.end(),
                       [&](const std::string& w) { return contains(w, part); });
  };
  CHECK(l.config.warnings.size() == 5);
  CHECK(warned("unknown key 'setings' ignored (did you mean 'settings'?)"));
  CHECK(warned("unknown setting 'lod_cuont' ignored (did you mean 'lod_count'?)"));
  CHECK(warned("unknown setting 'mip' ignored (did you mean 'mips'?)"));
  CHECK(warned("unknown setting 'vertex_fromat' ignored (did you mean 'vertex_format'?)"));
  CHECK(warned("preset 'r': unknown key 'ouput' ignored (did you mean 'output'?)"));
}

TEST_CASE("config: a key far from every known one is warned about without a guess", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"settings": {"colour_space": "srgb"}})");
  REQUIRE(l.status.ok());
  REQUIRE(l.config.warnings.size() == 1);
  CHECK_FALSE(contains(l.config.warnings[0], "did you mean"));
}

TEST_CASE("config: a misspelt preset names the preset it probably meant", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"presets": {"release": {}, "debug": {}}})", "relase");
  CHECK(l.status.code == BakeError::Config);
  CHECK(contains(l.status.reason, "no preset 'relase' (did you mean 'release'?)"));
  CHECK(contains(l.status.reason, "known: debug release"));
}

TEST_CASE("config: a JSON syntax error gives its line and column", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, "{\n  \"settings\": {,}\n}");
  INFO(l.status.message());
  CHECK(l.status.code == BakeError::Config);
  CHECK(contains(l.status.reason, "invalid JSON at line 2, column 16: "));
  Loaded array = load(dir, "[]");
  CHECK(contains(array.status.reason, "must hold a JSON object, not array"));
}

TEST_CASE("config: comments are allowed", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, "// project defaults\n{ \"settings\": { /* no mips */ \"mips\": false } }");
  REQUIRE(l.status.ok());
  CHECK_FALSE(settings_of(l.config, "a.png").texture.mips);
}

TEST_CASE("config: the starter file of asset-baker init loads and changes no default", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, baker::starter_config());
  INFO(l.status.message());
  REQUIRE(l.status.ok());
  CHECK(l.config.warnings.empty());
  // It documents every setting: each key is there.
  for (const std::string& key : baker::setting_keys()) {
    INFO(key);
    CHECK(l.config.settings.contains(key));
  }
  BakeConfig defaults;
  for (AssetKind kind : {AssetKind::Texture, AssetKind::Mesh, AssetKind::Scene}) {
    CHECK(settings_of(l.config, "models/a.obj", kind).key ==
          settings_of(defaults, "models/a.obj", kind).key);
  }
}

TEST_CASE("config: the example in docs/baker.md loads and its ui rule matches the bundled UI",
          "[config]") {
  // The docs' own example once used "ui/**", which is anchored at the root and so missed
  // textures/ui/button.png.
  std::ifstream docs(std::string(ASSETLIB_ASSETS_DIR) + "/../docs/baker.md");
  std::stringstream text;
  text << docs.rdbuf();
  std::string md = text.str();
  size_t begin = md.find("## baker.json\n\n```json\n");
  REQUIRE(begin != std::string::npos);
  begin = md.find('\n', md.find("```json", begin)) + 1;
  std::string example = md.substr(begin, md.find("```", begin) - begin);
  test::TempDir dir;
  Loaded l = load(dir, example, "release");
  INFO(example << l.status.message());
  REQUIRE(l.status.ok());
  CHECK(l.config.warnings.empty());
  REQUIRE(fs::exists(std::string(ASSETLIB_ASSETS_DIR) + "/textures/ui/button.png"));
  CHECK(settings_of(l.config, "textures/ui/button.png").texture.role == TextureRole::Ui);
  CHECK(settings_of(l.config, "textures/ui/button.png").pack.lz4_hc_level == 9);
}

TEST_CASE("config: the same settings give the same key and restating a default changes nothing",
          "[config]") {
  CHECK(key_of("{}", AssetKind::Texture) == key_of("{}", AssetKind::Texture));
  CHECK(key_of(R"({"mips": true, "compression": "LZ4"})", AssetKind::Texture) ==
        key_of("{}", AssetKind::Texture));
  CHECK(key_of(R"({"vertex_format": "PNCVT_OCT", "lod_count": 0})", AssetKind::Mesh) ==
        key_of("{}", AssetKind::Mesh));
  CHECK(key_of("{}", AssetKind::Texture) != key_of("{}", AssetKind::Mesh));
}

TEST_CASE("config: a mesh setting changes a mesh's key but not a texture's", "[config]") {
  for (const char* s : {R"({"vertex_format": "PNCVT_F32"})", R"({"optimize": false})",
                        R"({"meshlets": true})", R"({"lod_count": 2})"}) {
    INFO(s);
    CHECK(key_of(s, AssetKind::Texture) == key_of("{}", AssetKind::Texture));
    CHECK(key_of(s, AssetKind::Mesh) != key_of("{}", AssetKind::Mesh));
  }
}

TEST_CASE("config: a texture setting changes a texture's key but not a mesh's", "[config]") {
  for (const char* s : {R"({"texture_role": "normal"})", R"({"mips": false})",
                        R"({"max_size": 64})", R"({"block_compression": false})"}) {
    INFO(s);
    CHECK(key_of(s, AssetKind::Mesh) == key_of("{}", AssetKind::Mesh));
    CHECK(key_of(s, AssetKind::Texture) != key_of("{}", AssetKind::Texture));
  }
}

TEST_CASE("config: a packing setting changes the key of both kinds", "[config]") {
  for (const char* s :
       {R"({"compression": "None"})", R"({"lz4_hc_level": 4})", R"({"chunk_size": 65536})"}) {
    INFO(s);
    CHECK(key_of(s, AssetKind::Mesh) != key_of("{}", AssetKind::Mesh));
    CHECK(key_of(s, AssetKind::Texture) != key_of("{}", AssetKind::Texture));
  }
}

TEST_CASE("config: a baker.json in the input folder is found before one in an ancestor",
          "[config]") {
  test::TempDir dir;
  dir.write("baker.json", "{}");
  fs::path inner = dir.write("a/b/baker.json", "{}");
  std::optional<fs::path> found = baker::find_config(dir.path() / "a/b");
  REQUIRE(found);
  CHECK(fs::equivalent(*found, inner));
}

TEST_CASE("config: without one in the input folder the nearest ancestor's baker.json is found",
          "[config]") {
  // A folder without baker.json is the usual case, not an error that ends the search.
  test::TempDir dir;
  fs::path outer = dir.write("baker.json", "{}");
  fs::path nearer = dir.write("a/baker.json", "{}");
  fs::create_directories(dir.path() / "a/b/c");
  std::optional<fs::path> found = baker::find_config(dir.path() / "a/b/c");
  REQUIRE(found);
  CHECK(fs::equivalent(*found, nearer));
}

TEST_CASE("config: exclude globs leave out files and folders, a preset's added", "[config]") {
  test::TempDir dir;
  Loaded l = load(dir, R"({"exclude": ["**/wip", "lost+found", "*.psd"],
                           "presets": {"ship": {"exclude": ["debug/**"]}}})",
                  "ship");
  REQUIRE(l.status.ok());
  CHECK(l.config.warnings.empty());
  CHECK(baker::exclusion_of(l.config, "art/wip") == "**/wip");
  CHECK(baker::exclusion_of(l.config, "lost+found") == "lost+found");
  CHECK(baker::exclusion_of(l.config, "a/b/c.psd") == "*.psd");
  CHECK(baker::exclusion_of(l.config, "debug/grid.png") == "debug/**");
  CHECK_FALSE(baker::exclusion_of(l.config, "art/wip/a.png"));  // the folder's glob, not its files'
  CHECK(baker::exclusion_above(l.config, "art/wip/a.png") == "**/wip");
  CHECK_FALSE(baker::exclusion_above(l.config, "art/final/a.png"));
  // What is excluded is part of what the configuration makes a bake do.
  Loaded none = load(dir, R"({})");
  REQUIRE(none.status.ok());
  CHECK(baker::config_digest(none.config) != baker::config_digest(l.config));
}

TEST_CASE("config: a malformed exclude is a Config error naming the file", "[config]") {
  test::TempDir dir;
  for (const char* text :
       {R"({"exclude": "*.psd"})", R"({"exclude": [1]})", R"({"exclude": [""]})",
        R"({"presets": {"p": {"exclude": {}}}})", R"({"exclude": ["/textures/ui"]})",
        R"({"exclude": ["textures/ui/"]})", R"({"exclude": ["./wip"]})", R"({"exclude": ["."]})"}) {
    INFO(text);
    Loaded l = load(dir, text, std::string(text).find("presets") != std::string::npos ? "p" : "");
    CHECK(l.status.code == BakeError::Config);
    CHECK_THAT(l.status.message(), Catch::Contains("baker.json"));
  }
  Loaded long_glob =
      load(dir, R"({"exclude": [")" + std::string(baker::kMaxGlobLength + 1, '*') + R"("]})");
  CHECK(long_glob.status.code == BakeError::Config);
  CHECK_THAT(long_glob.status.message(), Catch::Contains("-character limit"));
}
