// The manifest: round trip, lookups, and refusal of paths that leave the baked folder.
#include "test_helpers.h"

#include <catch2/catch.hpp>

using namespace assetlib;

namespace {

Manifest sample_manifest() {
  Manifest m;
  m.assets.push_back(
      {"textures/b.png", "TEXI", "textures/b.tx", "xxh3-64:0123456789abcdef", 100, 400});
  m.assets.push_back({"models/a.obj", "MESH", "models/a.mesh", "xxh3-64:fedcba9876543210", 50, 90});
  return m;
}

}  // namespace

TEST_CASE("manifests round-trip sorted by name and deterministically") {
  Manifest m = sample_manifest();
  std::string text = write_manifest(m);
  std::swap(m.assets[0], m.assets[1]);
  CHECK(write_manifest(m) == text);  // order of entries does not matter
  Manifest read;
  REQUIRE(read_manifest(text, read).ok());
  REQUIRE(read.assets.size() == 2);
  CHECK(read.assets[0].name == "models/a.obj");
  const ManifestEntry* tex = find_asset(read, "textures/b.png");
  REQUIRE(tex);
  CHECK(tex->path == "textures/b.tx");
  CHECK(tex->raw_size == 400);
  CHECK(find_asset(read, "textures/c.png") == nullptr);

  test::TempDir dir("manifest");
  test::write_bytes(dir.file("manifest.json"), text.data(), text.size());
  Manifest loaded;
  REQUIRE(load_manifest(dir.file("manifest.json"), loaded).ok());
  CHECK(loaded.assets.size() == 2);
}

TEST_CASE("manifests that point outside their folder or are malformed are refused") {
  auto with_path = [](const std::string& path) {
    Manifest m = sample_manifest();
    m.assets[0].path = path;
    Manifest out;
    return read_manifest(write_manifest(m), out);
  };
  for (const char* bad :
       {"../x.tx", "/etc/passwd", "a/../../x.tx", "a//b.tx", "a\\b.tx", "./a.tx", ""}) {
    Status s = with_path(bad);
    CHECK(s.code == ErrorCode::InvalidValue);
  }
  CHECK(with_path("deep/er/ok.tx").ok());
  // The path is quoted with its control bytes escaped: a NUL would cut a message printed with
  // c_str(), an escape sequence would reach the terminal.
  Status nul = with_path(std::string("a\0b/\x1b[2J/../../x.tx", 19));
  CHECK(nul.code == ErrorCode::InvalidValue);
  CHECK(nul.message.find('\0') == std::string::npos);
  CHECK(nul.message.find("'a\\x00b/\\x1b[2J/../../x.tx'") != std::string::npos);

  Manifest out;
  CHECK(read_manifest("{", out).code == ErrorCode::InvalidJson);
  CHECK(read_manifest(R"({"version": 9, "assets": []})", out).code ==
        ErrorCode::UnsupportedVersion);
  // Any other whole number is another version, past the u32 range too (was InvalidValue).
  CHECK(read_manifest(R"({"version": 4294967296, "assets": []})", out).code ==
        ErrorCode::UnsupportedVersion);
  // Text that is not JSON is named as such; valid JSON of another kind as not an object.
  Status trailing = read_manifest(R"({"version": 1, "assets": []} trailing)", out);
  CHECK(trailing.code == ErrorCode::InvalidJson);
  CHECK(trailing.message == "manifest.json is not valid JSON");
  CHECK(read_manifest("[1, 2]", out).message == "manifest.json is not a JSON object");
  CHECK(read_manifest(R"({"version": 1})", out).code == ErrorCode::MissingKey);
  CHECK(read_manifest(R"({"version": 1, "assets": [{"name": 1}]})", out).code ==
        ErrorCode::WrongKeyType);
  Manifest dup = sample_manifest();
  dup.assets[1].name = dup.assets[0].name;
  CHECK(read_manifest(write_manifest(dup), out).code == ErrorCode::InvalidValue);
  CHECK(load_manifest("/nonexistent/manifest.json", out).code == ErrorCode::FileNotFound);
}
