// Baking glTF files in memory for the tests (bake/bake_gltf.h), and reading what came out. Texture
// names are "<image path>#<role>", so each test sees which role a slot asked for.
#pragma once

#include "../baked_assets.h"
#include "corpus_files.h"

#include "bake/bake_gltf.h"

#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace test {

struct BakedScene {
  baker::BakeStatus status;
  baker::BakedAssets assets;
  std::vector<std::string> warnings;
  std::vector<std::string> files_read;

  const baker::BakedAsset* find(const std::string& name) const {
    for (const baker::BakedAsset& a : assets) {
      if (a.name == name) return &a;
    }
    return nullptr;
  }
  assetlib::PrefabInfo prefab() const {
    assetlib::PrefabInfo info;
    REQUIRE(!assets.empty());
    REQUIRE(assetlib::read_prefab_info(assets.back().file, info).ok());
    return info;
  }
  assetlib::MaterialInfo material(const std::string& name) const {
    const baker::BakedAsset* a = find(name);
    INFO(name);
    REQUIRE(a);
    assetlib::MaterialInfo info;
    REQUIRE(assetlib::read_material_info(a->file, info).ok());
    return info;
  }
  assetlib::MeshInfo mesh(const std::string& name) const {
    const baker::BakedAsset* a = find(name);
    INFO(name);
    REQUIRE(a);
    assetlib::MeshInfo info;
    REQUIRE(assetlib::read_mesh_info(a->file, info).ok());
    return info;
  }
  bool warned(const std::string& text) const {
    for (const std::string& w : warnings) {
      if (w.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

// The vertex and index buffers of the baked mesh `name`, baked as PNCVT_F32 (as bake_gltf_bytes
// bakes by default).
struct FloatMesh {
  assetlib::MeshInfo info;
  std::vector<assetlib::Vertex_PNCVT_F32> vertices;
  std::vector<std::byte> indices;
};

inline FloatMesh float_mesh(const BakedScene& baked, const std::string& name) {
  const baker::BakedAsset* a = baked.find(name);
  INFO(name);
  REQUIRE(a);
  FloatMesh m;
  m.info = baked.mesh(name);
  REQUIRE(m.info.vertex_format == assetlib::VertexFormat::PNCVT_F32);
  m.vertices.resize(m.info.vertex_count);
  m.indices.resize(m.info.index_buffer_size);
  REQUIRE(assetlib::unpack_mesh(m.info, a->file.blob.data(), a->file.blob.size(), m.vertices.data(),
                                m.info.vertex_buffer_size, m.indices.data(), m.indices.size())
              .ok());
  return m;
}

// Bakes `bytes` as the glTF file `name` of a tree whose other files are `files` (root-relative).
inline BakedScene bake_gltf_bytes(const std::vector<std::byte>& bytes, const std::string& name,
                                  const std::map<std::string, std::string>& files = {},
                                  baker::BakeSettings settings = float_vertex_settings(),
                                  unsigned threads = 1) {
  BakedScene out;
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    out.files_read.push_back(path);
    auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  inputs.texture_name = [&](const std::string& path, baker::TextureRole role,
                            std::string&) -> std::optional<std::string> {
    if (!files.count(path)) return std::nullopt;
    return path + "#" + baker::texture_role_name(role);
  };
  out.status = baker::bake_gltf(bytes, name, inputs, settings, threads, out.assets, out.warnings);
  return out;
}

// Bakes a corpus glTF file, the corpus being the input root.
inline BakedScene bake_corpus_gltf(const std::string& relative,
                                   baker::BakeSettings settings = float_vertex_settings(),
                                   unsigned threads = 1) {
  std::map<std::string, std::string> files;
  std::filesystem::path folder = std::filesystem::path(corpus(relative)).parent_path();
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    std::string rel = std::filesystem::path(relative).parent_path() / entry.path().filename();
    std::vector<std::byte> data = file_bytes(entry.path().string());
    files[rel] = std::string(reinterpret_cast<const char*>(data.data()), data.size());
  }
  return bake_gltf_bytes(file_bytes(corpus(relative)), relative, files, settings, threads);
}

// The JSON of a .gltf or .glb, read here independently of the baker.
inline nlohmann::json gltf_json(const std::string& path) {
  std::vector<std::byte> bytes = file_bytes(path);
  auto text = reinterpret_cast<const char*>(bytes.data());
  if (bytes.size() >= 20 && std::memcmp(text, "glTF", 4) == 0) {
    uint32_t length = 0;
    std::memcpy(&length, text + 12, 4);
    return nlohmann::json::parse(text + 20, text + 20 + length);
  }
  return nlohmann::json::parse(text, text + bytes.size());
}

// A .gltf written by a test: a JSON document and one buffer, stored as a base64 data URI.
struct GeneratedGltf {
  nlohmann::json doc;
  std::string bin;
  std::vector<std::byte> bytes() const {
    static const char* alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string b64;
    for (size_t i = 0; i < bin.size(); i += 3) {
      uint32_t n = uint32_t(uint8_t(bin[i])) << 16;
      if (i + 1 < bin.size()) n |= uint32_t(uint8_t(bin[i + 1])) << 8;
      if (i + 2 < bin.size()) n |= uint8_t(bin[i + 2]);
      for (size_t k = 0; k < 4; ++k)
        b64 += i + k <= bin.size() ? alphabet[(n >> (18 - 6 * k)) & 63] : '=';
    }
    nlohmann::json d = doc;
    d["buffers"] = {
        {{"byteLength", bin.size()}, {"uri", "data:application/octet-stream;base64," + b64}}};
    std::string text = d.dump();
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
  }
  // Appends raw data as a buffer view and an accessor of it; returns the accessor index.
  size_t add(const void* data, size_t size, int component_type, const char* type, size_t count) {
    while (bin.size() % 4) bin += '\0';
    size_t offset = bin.size();
    bin.append(static_cast<const char*>(data), size);
    doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", size}});
    doc["accessors"].push_back({{"bufferView", doc["bufferViews"].size() - 1},
                                {"componentType", component_type},
                                {"type", type},
                                {"count", count}});
    return doc["accessors"].size() - 1;
  }
};

inline GeneratedGltf one_primitive(const std::vector<float>& positions,
                                   const std::vector<uint16_t>& indices, int mode) {
  GeneratedGltf g;
  g.doc = {{"asset", {{"version", "2.0"}}}};
  size_t pos = g.add(positions.data(), positions.size() * 4, 5126, "VEC3", positions.size() / 3);
  nlohmann::json primitive = {{"attributes", {{"POSITION", pos}}}, {"mode", mode}};
  if (!indices.empty())
    primitive["indices"] =
        g.add(indices.data(), indices.size() * 2, 5123, "SCALAR", indices.size());
  g.doc["meshes"] = {{{"primitives", {primitive}}}};
  g.doc["nodes"] = {{{"mesh", 0}}};
  g.doc["scenes"] = {{{"nodes", {0}}}};
  return g;
}

}  // namespace test
