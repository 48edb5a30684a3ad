// The OBJ bake in memory, as the hostile mesh tests drive it: `files` stand for the rest of the
// input root, and whatever the baker accepts must read and unpack with the loader.
#pragma once

#include "../baked_assets.h"
#include "bake/bake_obj.h"

#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hostile {

struct BakedMesh {
  baker::BakeStatus status;
  assetlib::MeshInfo info;
  assetlib::AssetFile file;
  std::vector<std::string> warnings;
  std::vector<std::string> files_read;      // paths given to ImportInputs::read_file
  std::vector<std::string> textures_asked;  // paths given to ImportInputs::texture_name
};

// Bakes `obj` as `name`; `files` are the other files of the input root (root-relative path ->
// text).
inline BakedMesh bake_obj(const std::string& obj, const std::string& name,
                          const std::map<std::string, std::string>& files = {},
                          baker::BakeSettings settings = {}) {
  BakedMesh b;
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    b.files_read.push_back(path);
    auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  inputs.texture_name = [&](const std::string& path, baker::TextureRole,
                            std::string&) -> std::optional<std::string> {
    b.textures_asked.push_back(path);
    if (!files.count(path)) return std::nullopt;
    return path;
  };
  baker::BakedAssets baked;
  b.status = baker::bake_obj(obj, name, inputs, settings, baked, b.warnings);
  if (!b.status) return b;
  b.file = test::the_asset(baked, "MESH");
  assetlib::Status r = assetlib::read_mesh_info(b.file, b.info);
  INFO(name << ": the baker wrote a mesh the loader refuses: " << r.message);
  REQUIRE(r.ok());
  std::vector<std::byte> vertices(b.info.vertex_buffer_size), indices(b.info.index_buffer_size);
  CHECK(assetlib::unpack_mesh(b.info, b.file.blob.data(), b.file.blob.size(), vertices.data(),
                              vertices.size(), indices.data(), indices.size())
            .ok());
  return b;
}

inline bool any_contains(const std::vector<std::string>& lines, const std::string& what) {
  for (const std::string& line : lines) {
    if (line.find(what) != std::string::npos) return true;
  }
  return false;
}

}  // namespace hostile
