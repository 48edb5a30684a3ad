// The table of asset kinds (common/asset_kinds.h): which source extensions bake to what.
#include "common/asset_kinds.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <string>

using baker::AssetKind;
using baker::source_kind;

namespace {

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::toupper(c)); });
  return text;
}

}  // namespace

TEST_CASE("kinds: every documented image extension is a texture, in any case", "[kinds]") {
  for (std::string ext : {".png", ".jpg", ".jpeg", ".tga", ".bmp", ".psd", ".gif", ".hdr", ".pic",
                          ".pnm", ".ppm", ".pgm"}) {
    INFO(ext);
    std::string path = "textures/a";
    path += ext;
    CHECK(source_kind(path) == AssetKind::Texture);
    CHECK(source_kind(upper(path)) == AssetKind::Texture);
  }
  CHECK(source_kind("a/B.Png") == AssetKind::Texture);
  CHECK(source_kind("a/b.JpEg") == AssetKind::Texture);
}

TEST_CASE("kinds: OBJ is a mesh, in any case", "[kinds]") {
  CHECK(source_kind("models/a.obj") == AssetKind::Mesh);
  CHECK(source_kind("A.OBJ") == AssetKind::Mesh);
  CHECK(source_kind("a.Obj") == AssetKind::Mesh);
}

TEST_CASE("kinds: glTF, text and binary, is a scene, in any case", "[kinds]") {
  CHECK(source_kind("scenes/a.gltf") == AssetKind::Scene);
  CHECK(source_kind("scenes/a.glb") == AssetKind::Scene);
  CHECK(source_kind("A.GLTF") == AssetKind::Scene);
  CHECK(source_kind("a.Glb") == AssetKind::Scene);
}

TEST_CASE("kinds: other files are not sources", "[kinds]") {
  for (const char* path :
       {"a/b.mtl", "a.tx", "a.mesh", "a.txt", "a.bin", "a.mat", "a.prefab", "a.webp", "a.exr",
        "a.ktx2", "a.png.bak", "png", "a/obj", "a.png/readme", "", ".", "a.", "a.pn"}) {
    INFO(path);
    CHECK_FALSE(source_kind(path));
  }
}

TEST_CASE("kinds: names and output extensions of the kinds", "[kinds]") {
  CHECK(std::string(baker::kind_name(AssetKind::Texture)) == "texture");
  CHECK(std::string(baker::kind_name(AssetKind::Mesh)) == "mesh");
  CHECK(std::string(baker::output_extension(AssetKind::Texture)) == ".tx");
  CHECK(std::string(baker::output_extension(AssetKind::Mesh)) == ".mesh");
  CHECK(std::string(baker::kind_name(AssetKind::Scene)) == "scene");
  CHECK(std::string(baker::output_extension(AssetKind::Scene)) == ".prefab");
}

TEST_CASE("kinds: only the lower-case baked extensions are output extensions", "[kinds]") {
  CHECK(baker::is_output_extension(".tx"));
  CHECK(baker::is_output_extension(".mesh"));
  CHECK(baker::is_output_extension(".mat"));
  CHECK(baker::is_output_extension(".prefab"));
  CHECK(baker::is_output_extension(".skel"));
  CHECK(baker::is_output_extension(".clip"));
  CHECK_FALSE(baker::is_output_extension(".TX"));  // callers pass lower_extension's result
  CHECK_FALSE(baker::is_output_extension("tx"));
  CHECK_FALSE(baker::is_output_extension(".png"));
  CHECK_FALSE(baker::is_output_extension(".json"));
  CHECK_FALSE(baker::is_output_extension(""));
}

TEST_CASE("kinds: image and model formats the baker does not read are named with what to do",
          "[kinds]") {
  using baker::unread_asset_format;
  CHECK(unread_asset_format("textures/Wall.WEBP") ==
        "a WebP image, which the baker does not read; convert it to PNG or JPEG (HDR for HDR)");
  CHECK(unread_asset_format("a/b.ktx2")->starts_with("a KTX2 image"));
  CHECK(unread_asset_format("models/hero.fbx") ==
        "an FBX model, which the baker does not read; export it as glTF 2.0 or OBJ");
  for (const char* other : {"README.md", "notes.txt", "a.png", "b.obj", "c", ".gitignore"})
    CHECK_FALSE(unread_asset_format(other));
}
