// Fuzz target 4: the baker's OBJ + MTL import (tinyobjloader -> index checks -> triangulation,
// normals, merging, optimisation -> pack), driven in memory.
//
// Input: the OBJ text, then kSeparator, then the MTL text. ImportInputs.read_file returns the MTL
// part for any path the importer asks for, and texture_name answers from a hash of the path, so
// both branches are taken. Both callbacks check that they are only ever asked for root-relative
// paths that stay inside the input root (the baker's path-safety promise). A plain .obj (no
// separator) is a valid input: its .mtl is then empty.
#include "fuzz_common.h"

#include "bake/bake_obj.h"

#include <assetlib/manifest.h>
#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace assetlib;

constexpr std::string_view kSeparator = "\n%%MTL%%\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t cut = input.find(kSeparator);
  // Exact-size copies of both parts: reading past either is a finding.
  std::string obj(input.substr(0, cut));
  std::string mtl(cut == std::string_view::npos ? std::string_view()
                                                : input.substr(cut + kSeparator.size()));

  fuzz::Choices pick(fuzz::input_hash(data, size));
  const char* const names[] = {"model.obj", "models/model.obj", "a/b/c/model.obj"};
  std::string name = names[pick.take(3)];
  baker::BakeSettings settings;
  const char* const formats[] = {"PNCV_F32",  "P32N8C8V16", "PNCVT_F32",
                                 "PNCVT_OCT", "PNCVVT_F32", "PNCVVT_OCT"};
  settings.mesh.vertex_format = formats[pick.take(6)];
  settings.mesh.optimize = pick.take(4) != 0;
  settings.mesh.meshlets = pick.flip();
  settings.mesh.lod_count = pick.take(3);  // 0, 1 or 2 coarser levels
  settings.pack.compression = pick.flip() ? Compression::None : Compression::LZ4;
  settings.pack.chunk_size = pick.flip() ? 1024 : (1u << 20);

  uint64_t texture_salt = pick.take(1u << 16);
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    fuzz::check_inside_root(path);
    if (path.size() % 7 == 3) return std::nullopt;  // sometimes the .mtl is missing
    return mtl;
  };
  inputs.texture_name = [&](const std::string& path, baker::TextureRole,
                            std::string&) -> std::optional<std::string> {
    fuzz::check_inside_root(path);
    bool exists = ((fuzz::input_hash(reinterpret_cast<const uint8_t*>(path.data()), path.size()) ^
                    texture_salt) &
                   1) == 0;
    if (!exists) return std::nullopt;
    return path;
  };

  baker::BakedAssets baked;
  std::vector<std::string> warnings;
  baker::BakeStatus s = baker::bake_obj(obj, name, inputs, settings, baked, warnings);
  if (!s) {
    // Errors carry the file apart from the reason (common/bake_status.h); warnings are printed as
    // they are, so those must name it themselves (checked below).
    FUZZ_CHECK(s.blames_source() && s.file == name && !s.reason.empty(),
               "errors name the file and say why");
    return 0;
  }
  for (const std::string& warning : warnings)
    FUZZ_CHECK(fuzz::starts_with(warning, name), "warnings name the file");

  FUZZ_CHECK(!baked.empty() && assetlib::has_type(baked.back().file, "MESH"),
             "an OBJ bakes into its materials, then its mesh");
  const AssetFile& out = baked.back().file;
  size_t materials = 0;
  for (const baker::BakedAsset& asset : baked) {
    if (&asset.file == &out) continue;
    MaterialInfo material;
    FUZZ_CHECK(read_material_info(asset.file, material).ok(),
               "the baker writes materials the loader reads");
    ++materials;
  }
  MeshInfo info;
  Status r = read_mesh_info(out, info);
  if (!r) std::fprintf(stderr, "%s\n", r.message.c_str());
  FUZZ_CHECK(r.ok(), "the baker writes meshes the loader reads");
  FUZZ_CHECK(info.original_file == name, "original_file");
  FUZZ_CHECK(info.index_count > 0 && info.index_count % 3 == 0, "whole triangles");
  FUZZ_CHECK(info.materials.size() == materials, "one material asset per mesh material");
  for (size_t i = 0; i < info.materials.size(); ++i) {
    FUZZ_CHECK(info.materials[i].material == baked[i].name, "mesh materials name their assets");
  }
  for (const MeshMaterial& m : info.materials) {
    for (const std::string* t : {&m.base_color_texture, &m.normal_texture}) {
      FUZZ_CHECK(t->empty() || is_safe_relative_path(*t), "texture names stay inside the root");
    }
  }
  std::vector<std::byte> vertices(info.vertex_buffer_size), indices(info.index_buffer_size);
  Status u = unpack_mesh(info, out.blob.data(), out.blob.size(), vertices.data(), vertices.size(),
                         indices.data(), indices.size());
  FUZZ_CHECK(u.ok(), "the baker writes meshes that unpack");
  uint64_t count = uint64_t(info.index_count) + info.lod_index_count;
  bool in_range = info.index_size == 2
                      ? fuzz::indices_below<uint16_t>(indices.data(), count, info.vertex_count)
                      : fuzz::indices_below<uint32_t>(indices.data(), count, info.vertex_count);
  FUZZ_CHECK(in_range, "every index names a vertex");
  if (info.meshlet_count > 0) {
    std::vector<uint32_t> meshlet_data(size_t((info.meshlet_data_size + 3) / 4));
    Status m = unpack_meshlets(info, out.blob.data(), out.blob.size(), meshlet_data.data(),
                               info.meshlet_data_size);
    FUZZ_CHECK(m.ok(), "the baker writes meshlets that unpack and check");
  }
  return 0;
}
