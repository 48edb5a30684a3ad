// Material ("MATL") and prefab ("PRFB") assets: round trips, the structure checks of the readers,
// and the node transform.
#include "edited_metadata.h"
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <functional>

using namespace assetlib;
using nlohmann::json;
using test::edited;

namespace {

MaterialInfo sample_material() {
  MaterialInfo m;
  m.name = "Helmet";
  m.base_color_factor[3] = 0.5f;
  m.metallic_factor = 0.25f;
  m.roughness_factor = 0.75f;
  m.emissive_factor[1] = 1;
  m.emissive_strength = 4;
  m.alpha_mode = AlphaMode::Mask;
  m.alpha_cutoff = 0.3f;
  m.double_sided = true;
  m.base_color.texture = "models/helmet/albedo.png";
  m.normal.texture = "models/helmet.glb#image/2";
  m.normal.uv_set = 1;
  m.normal.offset[0] = 0.5f;
  m.normal.rotation = 1.5f;
  m.normal.scale[1] = 2;
  m.normal.wrap_v = TextureWrap::MirroredRepeat;
  m.base_color.nearest = true;
  m.original_file = "models/helmet.glb";
  return m;
}

PrefabInfo sample_prefab() {
  PrefabInfo p;
  p.original_file = "scenes/room.gltf";
  p.cameras.push_back({"eye", CameraType::Perspective, 0.9f, 1.5f, 1, 1, 0.05f, 0});
  PrefabLight sun;
  sun.name = "sun";
  sun.type = LightType::Directional;
  sun.intensity = 3;
  p.lights.push_back(sun);
  PrefabNode root;
  root.name = "root";
  root.translation[1] = 2;
  root.light = 0;
  PrefabNode child;
  child.name = "chair";
  child.parent = 0;
  child.has_matrix = true;
  child.matrix[12] = 5;
  child.mesh = "scenes/room.gltf#mesh/0";
  child.materials = {"scenes/room.gltf#material/0", "scenes/room.gltf#material/3"};
  child.camera = 0;
  PrefabInstance instance;
  instance.translation[2] = -1;
  instance.scale[0] = 2;
  child.instances = {instance, PrefabInstance{}};
  p.nodes = {root, child};
  return p;
}

}  // namespace

TEST_CASE("materials round-trip every field") {
  MaterialInfo m = sample_material();
  AssetFile file;
  REQUIRE(pack_material(m, file).ok());
  CHECK(has_type(file, "MATL"));
  CHECK(file.blob.empty());
  MaterialInfo r;
  REQUIRE(read_material_info(file, r).ok());
  CHECK(r.name == "Helmet");
  CHECK(r.base_color_factor[3] == 0.5f);
  CHECK(r.metallic_factor == 0.25f);
  CHECK(r.roughness_factor == 0.75f);
  CHECK(r.emissive_factor[1] == 1);
  CHECK(r.emissive_strength == 4);
  CHECK(r.alpha_mode == AlphaMode::Mask);
  CHECK(r.alpha_cutoff == 0.3f);
  CHECK(r.double_sided);
  CHECK_FALSE(r.unlit);
  CHECK(r.base_color.texture == "models/helmet/albedo.png");
  CHECK(r.metallic_roughness.texture.empty());
  CHECK(r.normal.texture == "models/helmet.glb#image/2");
  CHECK(r.normal.uv_set == 1);
  CHECK(r.normal.offset[0] == 0.5f);
  CHECK(r.normal.rotation == 1.5f);
  CHECK(r.normal.scale[1] == 2);
  CHECK(r.normal.wrap_u == TextureWrap::Repeat);
  CHECK(r.normal.wrap_v == TextureWrap::MirroredRepeat);
  CHECK(r.base_color.nearest);
  CHECK_FALSE(r.normal.nearest);
  CHECK(r.original_file == "models/helmet.glb");
  // Deterministic bytes.
  AssetFile again;
  REQUIRE(pack_material(m, again).ok());
  CHECK(again.json == file.json);
}

TEST_CASE("material readers refuse what is not a material, naming the key") {
  AssetFile file;
  REQUIRE(pack_material(sample_material(), file).ok());
  MaterialInfo r;
  auto refused = [&](const AssetFile& f, ErrorCode code, const char* text) {
    Status s = read_material_info(f, r);
    INFO(text << ": " << s.message);
    CHECK(s.code == code);
    CHECK(s.message.find(text) != std::string::npos);
  };
  refused(edited(file, [](json& m) { m.erase("roughness_factor"); }), ErrorCode::MissingKey,
          "roughness_factor");
  refused(edited(file, [](json& m) { m["alpha_mode"] = "ADDITIVE"; }), ErrorCode::InvalidValue,
          "alpha_mode");
  refused(edited(file, [](json& m) { m["double_sided"] = 1; }), ErrorCode::WrongKeyType,
          "double_sided");
  refused(edited(file, [](json& m) { m["normal_texture"]["uv_set"] = 2; }), ErrorCode::InvalidValue,
          "uv_set");
  refused(edited(file,
                 [](json& m) {
                   m["base_color_factor"] = {1, 1, 1};
                 }),
          ErrorCode::InvalidValue, "base_color_factor");
  refused(edited(file,
                 [](json& m) {
                   m["chunks"] = {{0, 4, 0, 4}};
                 }),
          ErrorCode::InvalidValue, "chunk");
  AssetFile with_blob = file;
  with_blob.blob.resize(8);
  refused(with_blob, ErrorCode::InvalidValue, "blob");
  AssetFile texture = file;
  std::memcpy(texture.type, "TEXI", 4);
  refused(texture, ErrorCode::UnknownType, "MATL");

  MaterialInfo bad = sample_material();
  bad.metallic_factor = NAN;
  CHECK(pack_material(bad, file).code == ErrorCode::InvalidArgument);
  bad = sample_material();
  bad.occlusion.uv_set = 3;
  CHECK(pack_material(bad, file).code == ErrorCode::InvalidArgument);
}

TEST_CASE("prefabs round-trip nodes, cameras, lights and instances") {
  AssetFile file;
  REQUIRE(pack_prefab(sample_prefab(), file).ok());
  CHECK(has_type(file, "PRFB"));
  PrefabInfo r;
  REQUIRE(read_prefab_info(file, r).ok());
  REQUIRE(r.nodes.size() == 2);
  CHECK(r.nodes[0].name == "root");
  CHECK(r.nodes[0].parent == -1);
  CHECK_FALSE(r.nodes[0].has_matrix);
  CHECK(r.nodes[0].translation[1] == 2);
  CHECK(r.nodes[0].light == 0);
  CHECK(r.nodes[1].parent == 0);
  CHECK(r.nodes[1].has_matrix);
  CHECK(r.nodes[1].matrix[12] == 5);
  CHECK(r.nodes[1].mesh == "scenes/room.gltf#mesh/0");
  CHECK(r.nodes[1].materials.size() == 2);
  CHECK(r.nodes[1].camera == 0);
  REQUIRE(r.nodes[1].instances.size() == 2);
  CHECK(r.nodes[1].instances[0].translation[2] == -1);
  CHECK(r.nodes[1].instances[0].scale[0] == 2);
  CHECK(r.nodes[1].instances[1].rotation[3] == 1);
  REQUIRE(r.cameras.size() == 1);
  CHECK(r.cameras[0].type == CameraType::Perspective);
  CHECK(r.cameras[0].yfov == 0.9f);
  CHECK(r.cameras[0].zfar == 0);
  REQUIRE(r.lights.size() == 1);
  CHECK(r.lights[0].type == LightType::Directional);
  CHECK(r.lights[0].intensity == 3);
  CHECK(r.original_file == "scenes/room.gltf");
}

TEST_CASE("prefabs carry node skins and clips, both absent in older files") {
  PrefabInfo p = sample_prefab();
  p.nodes[1].skin = "scenes/room.gltf#skin/0";
  p.clips = {"scenes/room.gltf#clip/0", "scenes/room.gltf#clip/1"};
  AssetFile file;
  REQUIRE(pack_prefab(p, file));
  PrefabInfo r;
  REQUIRE(read_prefab_info(file, r));
  CHECK(r.nodes[0].skin.empty());
  CHECK(r.nodes[1].skin == "scenes/room.gltf#skin/0");
  CHECK(r.clips == p.clips);
  AssetFile older = edited(file, [](json& m) {
    m.erase("clips");
    for (json& n : m["nodes"]) n.erase("skin");
  });
  REQUIRE(read_prefab_info(older, r));
  CHECK(r.clips.empty());
  CHECK(r.nodes[1].skin.empty());
  CHECK(read_prefab_info(edited(file, [](json& m) { m["clips"] = {1}; }), r).code ==
        ErrorCode::WrongKeyType);
  CHECK(read_prefab_info(edited(file, [](json& m) { m["clips"] = "a"; }), r).code ==
        ErrorCode::WrongKeyType);
  CHECK(read_prefab_info(edited(file, [](json& m) { m["nodes"][1]["skin"] = 0; }), r).code ==
        ErrorCode::WrongKeyType);
}

TEST_CASE("prefab readers and writers refuse broken structure") {
  AssetFile file;
  REQUIRE(pack_prefab(sample_prefab(), file).ok());
  PrefabInfo r;
  auto refused = [&](const AssetFile& f, ErrorCode code, const char* text) {
    Status s = read_prefab_info(f, r);
    INFO(text << ": " << s.message);
    CHECK(s.code == code);
    CHECK(s.message.find(text) != std::string::npos);
  };
  // A parent that is the node itself or later: a cycle, or a child before its parent.
  refused(edited(file, [](json& m) { m["nodes"][1]["parent"] = 1; }), ErrorCode::InvalidValue,
          "parent");
  refused(edited(file, [](json& m) { m["nodes"][0]["parent"] = 1; }), ErrorCode::InvalidValue,
          "parent");
  refused(edited(file, [](json& m) { m["nodes"][0]["parent"] = -2; }), ErrorCode::InvalidValue,
          "parent");
  refused(edited(file, [](json& m) { m["nodes"][1]["camera"] = 1; }), ErrorCode::InvalidValue,
          "camera");
  refused(edited(file, [](json& m) { m["nodes"][0]["light"] = 7; }), ErrorCode::InvalidValue,
          "light");
  refused(edited(file,
                 [](json& m) {
                   m["nodes"][1]["matrix"] = {1, 2, 3};
                 }),
          ErrorCode::InvalidValue, "matrix");
  refused(edited(file,
                 [](json& m) {
                   m["nodes"][1]["instances"][0] = {1, 2};
                 }),
          ErrorCode::InvalidValue, "instance");
  refused(edited(file, [](json& m) { m["nodes"][1]["materials"] = {1}; }), ErrorCode::WrongKeyType,
          "materials");
  refused(edited(file, [](json& m) { m["lights"][0]["type"] = "area"; }), ErrorCode::InvalidValue,
          "type");
  refused(edited(file, [](json& m) { m["cameras"][0].erase("znear"); }), ErrorCode::MissingKey,
          "znear");
  refused(edited(file, [](json& m) { m["nodes"][0]["translation"][0] = "x"; }),
          ErrorCode::WrongKeyType, "translation");

  PrefabInfo bad = sample_prefab();
  bad.nodes[0].parent = 1;
  CHECK(pack_prefab(bad, file).code == ErrorCode::InvalidArgument);
  bad = sample_prefab();
  bad.nodes[1].light = 3;
  CHECK(pack_prefab(bad, file).code == ErrorCode::InvalidArgument);
  bad = sample_prefab();
  bad.nodes[1].instances[0].rotation[0] = INFINITY;
  CHECK(pack_prefab(bad, file).code == ErrorCode::InvalidArgument);
}

TEST_CASE("a node's local matrix is translation x rotation x scale, or its matrix") {
  PrefabNode n;
  n.translation[0] = 1;
  n.translation[1] = 2;
  n.translation[2] = 3;
  // 90 degrees about +Z: x -> y.
  n.rotation[2] = std::sqrt(0.5f);
  n.rotation[3] = std::sqrt(0.5f);
  n.scale[0] = 2;
  float m[16];
  prefab_local_matrix(n, m);
  // The point (1, 0, 0): scaled to (2, 0, 0), rotated to (0, 2, 0), translated to (1, 4, 3).
  float p[3];
  for (int r = 0; r < 3; ++r) p[r] = m[0 + r] * 1 + m[12 + r];
  CHECK(p[0] == Approx(1).margin(1e-6));
  CHECK(p[1] == Approx(4).margin(1e-6));
  CHECK(p[2] == Approx(3).margin(1e-6));
  CHECK(m[15] == 1);
  n.has_matrix = true;
  for (int i = 0; i < 16; ++i) n.matrix[i] = float(i);
  prefab_local_matrix(n, m);
  CHECK(m[7] == 7);
}

TEST_CASE("mesh materials carry the name of their material asset, absent in older files") {
  test::GridMesh grid = test::grid_mesh(4);
  MeshInfo info = test::grid_info(grid);
  info.materials.resize(1);
  info.materials[0].material = "models/grid.obj#material/0";
  AssetFile file;
  REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                    grid.indices.size() * 4, file)
              .ok());
  MeshInfo r;
  REQUIRE(read_mesh_info(file, r).ok());
  CHECK(r.materials[0].material == "models/grid.obj#material/0");
  AssetFile older = edited(file, [](json& m) { m["materials"][0].erase("material"); });
  REQUIRE(read_mesh_info(older, r).ok());
  CHECK(r.materials[0].material.empty());
  AssetFile wrong = edited(file, [](json& m) { m["materials"][0]["material"] = 3; });
  CHECK(read_mesh_info(wrong, r).code == ErrorCode::WrongKeyType);
}

TEST_CASE("every reader refuses a float beyond the float range, and packs again what it accepts") {
  // 1.01e39 is a finite double but no finite float (fuzz_asset found a material with it as a
  // texture offset: read as infinity, then refused by pack_material).
  const double too_big = 1.01e39;
  AssetFile material;
  REQUIRE(pack_material(sample_material(), material));
  AssetFile prefab;
  REQUIRE(pack_prefab(sample_prefab(), prefab));
  test::GridMesh grid = test::grid_mesh(2);
  AssetFile mesh;
  REQUIRE(pack_mesh(test::grid_info(grid), grid.vertices.data(),
                    grid.vertices.size() * sizeof(grid.vertices[0]), grid.indices.data(),
                    grid.indices.size() * 4, mesh));

  struct Case {
    const char* what;
    const AssetFile* file;
    std::function<void(json&, double)> edit;
  };
  const Case cases[] = {
      {"material texture offset", &material,
       [](json& m, double v) { m["emissive_texture"]["offset"][0] = v; }},
      {"material factor array", &material,
       [](json& m, double v) { m["base_color_factor"][2] = v; }},
      {"material factor", &material, [](json& m, double v) { m["roughness_factor"] = v; }},
      {"prefab translation", &prefab,
       [](json& m, double v) { m["nodes"][0]["translation"][1] = v; }},
      {"mesh bounds", &mesh, [](json& m, double v) { m["bounds"]["origin"][0] = v; }},
      {"mesh material colour", &mesh,
       [](json& m, double v) { m["materials"][0]["base_color"][0] = v; }},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    AssetFile huge = edited(*c.file, [&](json& m) { c.edit(m, too_big); });
    AssetFile largest = edited(*c.file, [&](json& m) { c.edit(m, 1.0e38); });
    AssetFile out;
    if (has_type(*c.file, "MATL")) {
      MaterialInfo info;
      CHECK(read_material_info(huge, info).code == ErrorCode::InvalidValue);
      REQUIRE(read_material_info(largest, info));
      CHECK(pack_material(info, out));
    } else if (has_type(*c.file, "PRFB")) {
      PrefabInfo info;
      CHECK(read_prefab_info(huge, info).code == ErrorCode::InvalidValue);
      REQUIRE(read_prefab_info(largest, info));
      CHECK(pack_prefab(info, out));
    } else {
      MeshInfo info;
      CHECK(read_mesh_info(huge, info).code == ErrorCode::InvalidValue);
      CHECK(read_mesh_info(largest, info));
    }
  }
}
