// Fuzz target 5: the baker's glTF import (container, JSON, buffers, accessors, EXT_meshopt and
// Draco decoding, materials, skins, animations, scene -> meshes, materials, embedded textures,
// skeletons, clips, prefab), in memory.
//
// Input: a .gltf or .glb, optionally followed by kSeparator and the bytes of an external buffer;
// ImportInputs.read_file returns that part for any path the importer asks for, and texture_name
// answers from a hash of the path. Both callbacks check that they are only asked for root-relative
// paths inside the root. Whatever the importer accepts must read back with the loader: every mesh
// unpacks with indices below its vertex count (and a skinned one its skin stream), every material,
// skeleton and prefab reads, every clip unpacks, every prefab, mesh, skeleton and clip reference
// names an asset of the bake or a node of the prefab; whatever it refuses names the file and a
// reason.
#include "fuzz_common.h"

#include "bake/bake_gltf.h"

#include <assetlib/assetlib.h>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace assetlib;

constexpr std::string_view kSeparator = "\n%%BIN%%\n";

void check_mesh(const AssetFile& file, const std::map<std::string, std::string>& types) {
  MeshInfo info;
  FUZZ_CHECK(read_mesh_info(file, info).ok(), "the baker writes meshes the loader reads");
  if (info.skin_format != SkinFormat::None) {
    std::vector<std::byte> skin(info.skin_buffer_size);
    FUZZ_CHECK(
        unpack_mesh_skin(info, file.blob.data(), file.blob.size(), skin.data(), skin.size()).ok(),
        "the baker writes skin streams that unpack");
    auto skeleton = types.find(info.skeleton);
    FUZZ_CHECK(skeleton != types.end() && skeleton->second == "SKEL",
               "a skinned mesh names a baked skeleton");
  }
  std::vector<std::byte> vertices(info.vertex_buffer_size), indices(info.index_buffer_size);
  FUZZ_CHECK(unpack_mesh(info, file.blob.data(), file.blob.size(), vertices.data(), vertices.size(),
                         indices.data(), indices.size())
                 .ok(),
             "the baker writes meshes that unpack");
  uint64_t count = uint64_t(info.index_count) + info.lod_index_count;
  FUZZ_CHECK(info.index_size == 2
                 ? fuzz::indices_below<uint16_t>(indices.data(), count, info.vertex_count)
                 : fuzz::indices_below<uint32_t>(indices.data(), count, info.vertex_count),
             "every index names a vertex");
}

// Skeletons read back and name prefab nodes; clips unpack and move prefab nodes.
void check_motion(const AssetFile& file, size_t nodes) {
  if (has_type(file, "SKEL")) {
    SkeletonInfo skeleton;
    FUZZ_CHECK(read_skeleton_info(file, skeleton).ok(), "skeletons read back");
    for (const SkeletonJoint& j : skeleton.joints)
      FUZZ_CHECK(j.node >= -1 && j.node < int64_t(nodes), "joints name prefab nodes");
  }
  if (has_type(file, "CLIP")) {
    ClipInfo clip;
    FUZZ_CHECK(read_clip_info(file, clip).ok(), "clips read back");
    std::vector<float> keys(clip.key_float_count);
    FUZZ_CHECK(unpack_clip(clip, file.blob.data(), file.blob.size(), keys.data(), keys.size()).ok(),
               "clips unpack");
    for (const ClipChannel& c : clip.channels) FUZZ_CHECK(c.node < nodes, "channels move nodes");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t cut = input.find(kSeparator);
  std::string gltf(input.substr(0, cut));
  std::string bin =
      cut == std::string_view::npos ? "" : std::string(input.substr(cut + kSeparator.size()));

  fuzz::Choices pick(fuzz::input_hash(data, size));
  const std::string name = pick.flip() ? "scenes/f.gltf" : "scenes/f.glb";
  baker::BakeSettings settings;
  const char* const formats[] = {"PNCVT_F32", "PNCVT_OCT", "PNCV_F32", "P32N8C8V16"};
  settings.mesh.vertex_format = formats[pick.take(4)];
  settings.mesh.meshlets = pick.flip();
  settings.mesh.lod_count = pick.take(2);
  settings.texture.max_size = 16;  // embedded images: decoded and checked, compressed small
  uint64_t salt = pick.take(1u << 16);
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    fuzz::check_inside_root(path);
    if (bin.empty()) return std::nullopt;
    return bin;
  };
  inputs.texture_name = [&](const std::string& path, baker::TextureRole,
                            std::string&) -> std::optional<std::string> {
    fuzz::check_inside_root(path);
    if ((fuzz::input_hash(reinterpret_cast<const uint8_t*>(path.data()), path.size()) ^ salt) & 1)
      return std::nullopt;
    return path;
  };
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(gltf.data()),
                               reinterpret_cast<const std::byte*>(gltf.data()) + gltf.size());
  baker::BakedAssets baked;
  std::vector<std::string> warnings;
  baker::BakeStatus s = baker::bake_gltf(bytes, name, inputs, settings, 1, baked, warnings);
  for (const std::string& w : warnings)
    FUZZ_CHECK(fuzz::starts_with(w, name), "warnings name the file");
  if (!s) {
    FUZZ_CHECK(s.blames_source() && s.file == name && !s.reason.empty(),
               "errors name the file and say why");
    return 0;
  }
  FUZZ_CHECK(!baked.empty() && has_type(baked.back().file, "PRFB") && baked.back().name == name,
             "a glTF bakes into its parts, then its prefab");
  std::map<std::string, std::string> types;  // name -> type
  for (const baker::BakedAsset& a : baked) {
    FUZZ_CHECK(is_safe_relative_path(a.path), "outputs stay inside the output folder");
    FUZZ_CHECK(types.emplace(a.name, std::string(a.file.type, 4)).second, "names are unique");
    MaterialInfo material;
    if (has_type(a.file, "MATL"))
      FUZZ_CHECK(read_material_info(a.file, material).ok(), "materials read back");
    TextureInfo texture;
    if (has_type(a.file, "TEXI"))
      FUZZ_CHECK(read_texture_info(a.file, texture).ok(), "textures read back");
  }
  // Meshes once every name is known: a skinned one names a skeleton baked after it.
  for (const baker::BakedAsset& a : baked) {
    if (has_type(a.file, "MESH")) check_mesh(a.file, types);
  }
  PrefabInfo prefab;
  FUZZ_CHECK(read_prefab_info(baked.back().file, prefab).ok(), "the prefab reads back");
  for (const PrefabNode& n : prefab.nodes) {
    FUZZ_CHECK(n.mesh.empty() || types[n.mesh] == "MESH", "nodes name baked meshes");
    for (const std::string& m : n.materials)
      FUZZ_CHECK(types[m] == "MATL", "nodes name baked materials");
    FUZZ_CHECK(n.skin.empty() || types[n.skin] == "SKEL", "nodes name baked skeletons");
  }
  for (const std::string& c : prefab.clips) FUZZ_CHECK(types[c] == "CLIP", "clips are baked");
  for (const baker::BakedAsset& a : baked) check_motion(a.file, prefab.nodes.size());
  return 0;
}
