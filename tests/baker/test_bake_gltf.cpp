// glTF scenes through the baker (bake/bake_gltf.h) on real corpus files and generated ones: node
// hierarchies, transforms, materials, texture slots and roles, meshes (Draco, meshopt, sparse,
// strips, fans, missing normals, a second UV set), cameras and lights, each checked against the
// glTF's own JSON.
#include "gltf_fixture.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>

using namespace assetlib;
using nlohmann::json;

namespace {

// The nodes of the default scene in the baker's order (depth first, parents first), each node
// listed once per path to it: what the prefab must hold.
std::vector<size_t> expected_order(const json& g) {
  std::vector<size_t> roots;
  if (g.contains("scenes")) {
    for (const json& n : g["scenes"][g.value("scene", 0)]["nodes"]) roots.push_back(n);
  }
  std::vector<size_t> order;
  std::vector<size_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    size_t n = stack.back();
    stack.pop_back();
    order.push_back(n);
    const json& node = g["nodes"][n];
    if (!node.contains("children")) continue;
    for (auto it = node["children"].rbegin(); it != node["children"].rend(); ++it)
      stack.push_back(*it);
  }
  return order;
}

void check_against_json(const std::string& relative) {
  INFO(relative);
  test::BakedScene baked = test::bake_corpus_gltf(relative);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  json g = test::gltf_json(test::corpus(relative));
  PrefabInfo prefab = baked.prefab();
  std::vector<size_t> order = expected_order(g);
  REQUIRE(prefab.nodes.size() == order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const json& node = g["nodes"][order[i]];
    const PrefabNode& p = prefab.nodes[i];
    INFO("node " << order[i]);
    CHECK(p.name == node.value("name", ""));
    CHECK(p.has_matrix == node.contains("matrix"));
    if (node.contains("matrix")) {
      for (int k = 0; k < 16; ++k) CHECK(p.matrix[k] == node["matrix"][k].get<float>());
    }
    for (int k = 0; k < 3 && node.contains("translation"); ++k)
      CHECK(p.translation[k] == node["translation"][k].get<float>());
    for (int k = 0; k < 4 && node.contains("rotation"); ++k)
      CHECK(p.rotation[k] == node["rotation"][k].get<float>());
    CHECK((p.parent < 0 || size_t(p.parent) < i));
    if (node.contains("mesh")) {
      std::string mesh = relative + "#mesh/" + std::to_string(node["mesh"].get<int>());
      CHECK(p.mesh == mesh);
      MeshInfo info = baked.mesh(mesh);
      REQUIRE(p.materials.size() == info.submeshes.size());
      for (size_t s = 0; s < info.submeshes.size(); ++s)
        CHECK(p.materials[s] == info.materials[info.submeshes[s].material].material);
    }
  }
  // Every material of the file is an asset with its factors.
  for (size_t m = 0; g.contains("materials") && m < g["materials"].size(); ++m) {
    const json& jm = g["materials"][m];
    MaterialInfo info = baked.material(relative + "#material/" + std::to_string(m));
    CHECK(info.name == jm.value("name", ""));
    json pbr = jm.value("pbrMetallicRoughness", json::object());
    CHECK(info.metallic_factor == pbr.value("metallicFactor", 1.0f));
    CHECK(info.roughness_factor == pbr.value("roughnessFactor", 1.0f));
    for (int k = 0; k < 4 && pbr.contains("baseColorFactor"); ++k)
      CHECK(info.base_color_factor[k] == pbr["baseColorFactor"][k].get<float>());
    CHECK(alpha_mode_name(info.alpha_mode) == jm.value("alphaMode", std::string("OPAQUE")));
    CHECK(info.double_sided == jm.value("doubleSided", false));
  }
  // Every mesh with triangles is an asset that unpacks.
  for (size_t m = 0; m < g["meshes"].size(); ++m) {
    const baker::BakedAsset* asset = baked.find(relative + "#mesh/" + std::to_string(m));
    REQUIRE(asset);
    MeshInfo info = baked.mesh(asset->name);
    std::vector<std::byte> v(info.vertex_buffer_size), i(info.index_buffer_size);
    CHECK(unpack_mesh(info, asset->file.blob.data(), asset->file.blob.size(), v.data(), v.size(),
                      i.data(), i.size())
              .ok());
  }
}

// The triangles of a baked mesh as position triples, and each one's normal (from the vertices).
struct Triangles {
  std::vector<std::array<std::array<float, 3>, 3>> corners;
  std::vector<std::array<float, 3>> normals;
};

Triangles triangles_of(const test::BakedScene& baked, const std::string& name) {
  const test::FloatMesh mesh = test::float_mesh(baked, name);
  const MeshInfo& info = mesh.info;
  const std::vector<Vertex_PNCVT_F32>& v = mesh.vertices;
  const std::vector<std::byte>& idx = mesh.indices;
  Triangles t;
  for (uint32_t i = 0; i < info.index_count; i += 3) {
    std::array<std::array<float, 3>, 3> tri;
    for (uint32_t k = 0; k < 3; ++k) {
      uint32_t vi = 0;
      std::memcpy(&vi, idx.data() + (i + k) * info.index_size, info.index_size);
      std::copy_n(v[vi].position, 3, tri[k].begin());
      if (k == 0) t.normals.push_back({v[vi].normal[0], v[vi].normal[1], v[vi].normal[2]});
    }
    t.corners.push_back(tri);
  }
  return t;
}

// The geometric normal's z of a triangle (its winding in the xy plane).
float winding_z(const std::array<std::array<float, 3>, 3>& t) {
  float ax = t[1][0] - t[0][0], ay = t[1][1] - t[0][1];
  float bx = t[2][0] - t[0][0], by = t[2][1] - t[0][1];
  return ax * by - ay * bx;
}

}  // namespace

TEST_CASE("glTF scenes keep their hierarchy, transforms, meshes and materials") {
  for (const char* file :
       {"intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF/DamagedHelmet.gltf",
        "intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF-Binary/DamagedHelmet.glb",
        "bevy/assets/models/FlightHelmet/FlightHelmet.gltf", "vulkan-guide/assets/house.glb",
        "draco-testdata/CesiumMilkTruck/glTF/CesiumMilkTruck.gltf",
        "draco-testdata/InterpolationTest/glTF/InterpolationTest.gltf",
        "draco-testdata/KhronosSampleModels/Duck/glTF_Binary/Duck.glb",
        "bevy/assets/models/CornellBox/CornellBox.glb", "bevy/assets/models/cubes/Cubes.glb",
        "draco-testdata/CubeScaledInstances/glTF/cube_att.gltf",
        "bevy/assets/models/AlienCake/tile.glb"}) {
    check_against_json(file);
  }
}

TEST_CASE("material slots name their texture in the role the slot needs") {
  std::string file = "intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF/DamagedHelmet.gltf";
  test::BakedScene baked = test::bake_corpus_gltf(file);
  REQUIRE(baked.status.ok());
  MaterialInfo m = baked.material(file + "#material/0");
  std::string dir = "intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF/";
  CHECK(m.base_color.texture == dir + "Default_albedo.jpg#color");
  CHECK(m.metallic_roughness.texture == dir + "Default_metalRoughness.jpg#data");
  CHECK(m.normal.texture == dir + "Default_normal.jpg#normal");
  CHECK(m.occlusion.texture == dir + "Default_AO.jpg#data");
  CHECK(m.emissive.texture == dir + "Default_emissive.jpg#color");
  CHECK(m.emissive_factor[0] == 1);
  // External images are baked by their own jobs, not read by the glTF's.
  for (const std::string& read : baked.files_read) CHECK(read.find(".jpg") == std::string::npos);
  // The mesh keeps a summary naming the material asset.
  MeshInfo mesh = baked.mesh(file + "#mesh/0");
  REQUIRE(mesh.materials.size() == 1);
  CHECK(mesh.materials[0].material == file + "#material/0");
  CHECK(mesh.materials[0].base_color_texture == dir + "Default_albedo.jpg#color");
  CHECK(mesh.materials[0].normal_texture == dir + "Default_normal.jpg#normal");
}

TEST_CASE("images inside a GLB bake as parts of it, once per role") {
  std::string file =
      "intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF-Binary/DamagedHelmet.glb";
  test::BakedScene baked = test::bake_corpus_gltf(file);
  REQUIRE(baked.status.ok());
  MaterialInfo m = baked.material(file + "#material/0");
  json g = test::gltf_json(test::corpus(file));
  int normal_image =
      g["textures"][g["materials"][0]["normalTexture"]["index"].get<int>()]["source"];
  std::string normal = file + "#image/" + std::to_string(normal_image) + "#normal";
  CHECK(m.normal.texture == normal);
  const baker::BakedAsset* texture = baked.find(normal);
  REQUIRE(texture);
  CHECK(texture->path == file + ".parts/" + std::to_string(normal_image) + ".normal.tx");
  TextureInfo info;
  REQUIRE(read_texture_info(texture->file, info).ok());
  CHECK(info.format == TextureFormat::BC5_UNORM);
  CHECK(info.width == 2048);
  // Base colour: sRGB colour, under the image's own name.
  int albedo = g["textures"][g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"]
                                 .get<int>()]["source"];
  const baker::BakedAsset* colour = baked.find(file + "#image/" + std::to_string(albedo));
  REQUIRE(colour);
  REQUIRE(read_texture_info(colour->file, info).ok());
  CHECK(info.format == TextureFormat::BC1_RGB_SRGB);
}

TEST_CASE("texture transforms, samplers, unlit, emissive strength and a second UV set") {
  std::string transform =
      "draco-testdata/KhronosSampleModels/TextureTransformTest/glTF/TextureTransformTest.gltf";
  test::BakedScene t = test::bake_corpus_gltf(transform);
  REQUIRE(t.status.ok());
  MaterialInfo offset_u = t.material(transform + "#material/0");
  CHECK(offset_u.base_color.offset[0] == 0.5f);
  CHECK(offset_u.base_color.offset[1] == 0.0f);
  CHECK(offset_u.base_color.scale[0] == 1.0f);

  std::string settings =
      "draco-testdata/KhronosSampleModels/TextureSettingsTest/glTF/TextureSettingsTest.gltf";
  test::BakedScene s = test::bake_corpus_gltf(settings);
  REQUIRE(s.status.ok());
  json g = test::gltf_json(test::corpus(settings));
  std::set<std::pair<TextureWrap, TextureWrap>> wraps;
  for (size_t m = 0; m < g["materials"].size(); ++m) {
    MaterialInfo info = s.material(settings + "#material/" + std::to_string(m));
    if (!info.base_color.texture.empty())
      wraps.insert({info.base_color.wrap_u, info.base_color.wrap_v});
  }
  CHECK(wraps.count({TextureWrap::Repeat, TextureWrap::MirroredRepeat}));
  CHECK(wraps.count({TextureWrap::MirroredRepeat, TextureWrap::Repeat}));
  CHECK(wraps.count({TextureWrap::Repeat, TextureWrap::ClampToEdge}));

  std::string unlit = "draco-testdata/KhronosSampleModels/UnlitTest/glTF/UnlitTest.gltf";
  test::BakedScene u = test::bake_corpus_gltf(unlit);
  REQUIRE(u.status.ok());
  CHECK(u.material(unlit + "#material/0").unlit);

  std::string cornell = "bevy/assets/models/CornellBox/CornellBox.glb";
  test::BakedScene c = test::bake_corpus_gltf(cornell);
  REQUIRE(c.status.ok());
  CHECK(c.material(cornell + "#material/0").emissive_strength == 100);

  std::string multi = "draco-testdata/MultiUVTest/glTF/MultiUVTest.gltf";
  test::BakedScene mu = test::bake_corpus_gltf(multi);
  REQUIRE(mu.status.ok());
  MaterialInfo m = mu.material(multi + "#material/0");
  CHECK(m.emissive.uv_set == 1);
  CHECK(m.base_color.uv_set == 0);
  CHECK(mu.mesh(multi + "#mesh/0").vertex_format == VertexFormat::PNCVVT_F32);
  baker::BakeSettings compact;
  compact.mesh.vertex_format = "PNCVT_OCT";
  CHECK(test::bake_corpus_gltf(multi, compact).mesh(multi + "#mesh/0").vertex_format ==
        VertexFormat::PNCVVT_OCT);
  baker::BakeSettings one_uv;
  one_uv.mesh.vertex_format = "PNCV_F32";
  test::BakedScene dropped = test::bake_corpus_gltf(multi, one_uv);
  CHECK(dropped.warned("samples the second UV set"));
}

TEST_CASE("cameras, lights and nodes shared by several parents reach the prefab") {
  std::string duck = "draco-testdata/KhronosSampleModels/Duck/glTF_Binary/Duck.glb";
  PrefabInfo d = test::bake_corpus_gltf(duck).prefab();
  REQUIRE(d.cameras.size() == 1);
  CHECK(d.cameras[0].type == CameraType::Perspective);
  CHECK(std::count_if(d.nodes.begin(), d.nodes.end(),
                      [](const PrefabNode& n) { return n.camera == 0; }) == 1);

  std::string cubes = "bevy/assets/models/cubes/Cubes.glb";
  PrefabInfo c = test::bake_corpus_gltf(cubes).prefab();
  REQUIRE(c.lights.size() == 1);
  CHECK(c.lights[0].type == LightType::Point);
  CHECK(c.lights[0].intensity == Approx(79.577472));
  CHECK(c.nodes[0].light == 0);

  std::string shared = "draco-testdata/CubeScaledInstances/glTF/cube_att.gltf";
  test::BakedScene s = test::bake_corpus_gltf(shared);
  CHECK(s.warned("instanced under each"));
  PrefabInfo p = s.prefab();
  CHECK(std::count_if(p.nodes.begin(), p.nodes.end(),
                      [](const PrefabNode& n) { return !n.mesh.empty(); }) == 4);
}

TEST_CASE("Draco and meshopt compressed meshes bake the triangles of the uncompressed ones") {
  test::BakedScene plain = test::bake_corpus_gltf("draco-testdata/Box/glTF_Binary/Box.glb");
  test::BakedScene draco = test::bake_corpus_gltf("draco-testdata/Box/glTF_Binary/Box_Draco.glb");
  REQUIRE(plain.status.ok());
  INFO(draco.status.message());
  REQUIRE(draco.status.ok());
  auto sorted = [](Triangles t) {
    std::vector<std::array<float, 9>> flat;
    for (auto& tri : t.corners) {
      std::sort(tri.begin(), tri.end());
      std::array<float, 9> f;
      for (int k = 0; k < 9; ++k)
        f[size_t(k)] = std::round(tri[size_t(k / 3)][size_t(k % 3)] * 1000) / 1000;
      flat.push_back(f);
    }
    std::sort(flat.begin(), flat.end());
    return flat;
  };
  CHECK(sorted(triangles_of(plain, "draco-testdata/Box/glTF_Binary/Box.glb#mesh/0")) ==
        sorted(triangles_of(draco, "draco-testdata/Box/glTF_Binary/Box_Draco.glb#mesh/0")));

  std::string pirate = "meshoptimizer/demo/pirate.glb";
  test::BakedScene m = test::bake_corpus_gltf(pirate);
  INFO(m.status.message());
  REQUIRE(m.status.ok());
  json g = test::gltf_json(test::corpus(pirate));
  size_t indices = g["accessors"][g["meshes"][0]["primitives"][0]["indices"].get<int>()]["count"];
  CHECK(m.mesh(pirate + "#mesh/0").index_count == indices);
}

TEST_CASE("sparse accessors are applied") {
  std::string file =
      "draco-testdata/KhronosSampleModels/SimpleSparseAccessor/glTF/SimpleSparseAccessor.gltf";
  test::BakedScene baked = test::bake_corpus_gltf(file);
  REQUIRE(baked.status.ok());
  // The base positions are two rows at y = 0 and y = 1; the sparse values move vertices 8, 10 and
  // 12 to (1, 2), (3, 3) and (5, 4).
  Triangles t = triangles_of(baked, file + "#mesh/0");
  std::set<std::array<float, 3>> corners;
  for (const auto& tri : t.corners) corners.insert(tri.begin(), tri.end());
  CHECK(corners.count({1, 2, 0}));
  CHECK(corners.count({3, 3, 0}));
  CHECK(corners.count({5, 4, 0}));
  CHECK_FALSE(corners.count({1, 1, 0}));  // replaced by the sparse value
  CHECK(corners.count({2, 1, 0}));        // not replaced
}

TEST_CASE("triangle strips and fans become lists with one winding, missing normals are flat") {
  // A quad as a strip of 4 vertices, and as a fan of 4.
  std::vector<float> quad = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  std::vector<float> fan = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  for (auto [mode, positions] : {std::pair{5, quad}, std::pair{6, fan}}) {
    INFO("mode " << mode);
    test::BakedScene baked =
        test::bake_gltf_bytes(test::one_primitive(positions, {}, mode).bytes(), "s.gltf");
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    Triangles t = triangles_of(baked, "s.gltf#mesh/0");
    REQUIRE(t.corners.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
      CHECK(winding_z(t.corners[i]) > 0);   // both counter-clockwise, as the first
      CHECK(t.normals[i][2] == Approx(1));  // generated flat: the face normal
    }
  }
  // Points and lines are skipped with a warning naming the primitive.
  test::GeneratedGltf lines = test::one_primitive(quad, {0, 1, 2, 3}, 1);
  lines.doc["meshes"][0]["primitives"].push_back(lines.doc["meshes"][0]["primitives"][0]);
  lines.doc["meshes"][0]["primitives"][1]["mode"] = 4;
  lines.doc["meshes"][0]["primitives"][1]["indices"] =
      lines.add(std::array<uint16_t, 6>{0, 1, 2, 2, 1, 3}.data(), 12, 5123, "SCALAR", 6);
  test::BakedScene mixed = test::bake_gltf_bytes(lines.bytes(), "l.gltf");
  REQUIRE(mixed.status.ok());
  CHECK(mixed.warned("meshes[0].primitives[0]: lines are not baked"));
  CHECK(mixed.mesh("l.gltf#mesh/0").index_count == 6);
}

TEST_CASE("sampler filters, unlisted extensions and untangented normal maps are warned about") {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, 4);
  g.doc["materials"] = {{{"normalTexture", {{"index", 0}}}}};
  g.doc["textures"] = {{{"source", 0}, {"sampler", 0}}};
  g.doc["images"] = {{{"uri", "n.png"}}};
  g.doc["samplers"] = {{{"minFilter", 9728}, {"magFilter", 9728}}};
  g.doc["meshes"][0]["primitives"][0]["material"] = 0;
  const std::map<std::string, std::string> files = {{"n.png", "(an image)"}};
  SECTION("a minFilter taking the nearest texel") {
    test::BakedScene nearest = test::bake_gltf_bytes(g.bytes(), "f.gltf", files);
    REQUIRE(nearest.status.ok());
    CHECK(nearest.warned("samplers 0: minFilter takes the nearest texel"));
    CHECK(nearest.material("f.gltf#material/0").normal.nearest);  // magFilter is kept
    g.doc["samplers"][0]["minFilter"] = 9987;
    CHECK_FALSE(test::bake_gltf_bytes(g.bytes(), "f.gltf", files).warned("minFilter"));
  }
  SECTION("filters that are no GL filter are refused, as wrap modes are") {
    g.doc["samplers"][0]["magFilter"] = 1234;
    test::BakedScene mag = test::bake_gltf_bytes(g.bytes(), "f.gltf", files);
    CHECK_THAT(mag.status.reason, Catch::Contains("samplers[0].magFilter: is not a magnification"));
    g.doc["samplers"][0]["magFilter"] = 9729;
    g.doc["samplers"][0]["minFilter"] = 4321;
    test::BakedScene min = test::bake_gltf_bytes(g.bytes(), "f.gltf", files);
    CHECK_THAT(min.status.reason, Catch::Contains("samplers[0].minFilter: is not a minification"));
  }
  SECTION("an extension used but not listed in extensionsUsed") {
    g.doc["materials"][0]["extensions"] = {{"KHR_materials_clearcoat", json::object()}};
    test::BakedScene unlisted = test::bake_gltf_bytes(g.bytes(), "f.gltf", files);
    REQUIRE(unlisted.status.ok());
    CHECK(
        unlisted.warned("extensions KHR_materials_clearcoat not baked (used, though "
                        "extensionsUsed does not list them)"));
    g.doc["extensionsUsed"] = {"KHR_materials_clearcoat"};
    test::BakedScene listed = test::bake_gltf_bytes(g.bytes(), "f.gltf", files);
    CHECK(listed.warned("extensions KHR_materials_clearcoat not baked (not required"));
    CHECK_FALSE(listed.warned("does not list them"));
  }
  SECTION("a normal map on a vertex format without tangents") {
    baker::BakeSettings compact = test::float_vertex_settings();
    compact.mesh.vertex_format = "P32N8C8V16";
    CHECK(test::bake_gltf_bytes(g.bytes(), "f.gltf", files, compact)
              .warned("has a normal map, but vertex_format P32N8C8V16 holds no tangents"));
    CHECK_FALSE(test::bake_gltf_bytes(g.bytes(), "f.gltf", files).warned("holds no tangents"));
  }
}

TEST_CASE("normalized on a float accessor is refused, naming normalized") {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, 4);
  g.doc["accessors"][0]["normalized"] = true;  // POSITION, floats
  test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "n.gltf");
  CHECK_FALSE(baked.status.ok());
  CHECK_THAT(baked.status.reason,
             Catch::Contains("accessors[0].normalized: is true on a component type glTF never "
                             "normalizes"));
}

TEST_CASE("unsupported required extensions are refused, naming them") {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, 4);
  g.doc["extensionsUsed"] = json::array({"KHR_texture_basisu"});
  g.doc["extensionsRequired"] = json::array({"KHR_texture_basisu"});
  test::BakedScene basisu = test::bake_gltf_bytes(g.bytes(), "b.gltf");
  CHECK(basisu.status.code == baker::BakeError::UnsupportedFeature);
  CHECK(basisu.status.reason.find("KHR_texture_basisu") != std::string::npos);
  g.doc["extensionsRequired"] = json::array();
  test::BakedScene used = test::bake_gltf_bytes(g.bytes(), "b.gltf");
  REQUIRE(used.status.ok());
  CHECK(used.warned("extensions KHR_texture_basisu not baked"));
}

TEST_CASE("a glTF bakes to the same bytes on one thread and on several") {
  // FlightHelmet: 6 meshes of unequal size, so the threads finish them out of order.
  const std::string helmet = "bevy/assets/models/FlightHelmet/FlightHelmet.gltf";
  baker::BakeSettings settings;
  settings.mesh.lod_count = 1;
  test::BakedScene one = test::bake_corpus_gltf(helmet, settings, 1);
  test::BakedScene three = test::bake_corpus_gltf(helmet, settings, 3);
  REQUIRE(one.status.ok());
  REQUIRE(three.status.ok());
  CHECK(one.assets.size() > 10);
  REQUIRE(one.assets.size() == three.assets.size());
  for (size_t i = 0; i < one.assets.size(); ++i) {
    INFO(one.assets[i].name);
    CHECK(one.assets[i].name == three.assets[i].name);
    CHECK(one.assets[i].path == three.assets[i].path);
    CHECK(one.assets[i].file.json == three.assets[i].file.json);
    CHECK(one.assets[i].file.blob == three.assets[i].file.blob);
  }
  CHECK(one.warnings == three.warnings);
}

TEST_CASE("a material sampling a UV set its primitive lacks is warned about") {
  const std::vector<float> triangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::vector<float> uvs = {0, 0, 1, 0, 0, 1};
  const std::map<std::string, std::string> image = {{"scenes/t.png", "an image"}};
  for (uint32_t sampled : {0u, 1u}) {
    for (bool with_uv0 : {false, true}) {
      INFO("texCoord " << sampled << (with_uv0 ? ", TEXCOORD_0 present" : ", no UVs"));
      test::GeneratedGltf g = test::one_primitive(triangle, {0, 1, 2}, 4);
      if (with_uv0) {
        size_t at = g.add(uvs.data(), uvs.size() * 4, 5126, "VEC2", 3);
        g.doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = at;
      }
      g.doc["images"] = {{{"uri", "t.png"}}};
      g.doc["textures"] = {{{"source", 0}}};
      g.doc["materials"] = {{{"pbrMetallicRoughness",
                              {{"baseColorTexture", {{"index", 0}, {"texCoord", sampled}}}}}}};
      g.doc["meshes"][0]["primitives"][0]["material"] = 0;
      test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "scenes/x.gltf", image);
      INFO(baked.status.message());
      REQUIRE(baked.status.ok());
      const bool lacking = sampled == 1 || !with_uv0;
      CHECK(baked.warned("its material samples TEXCOORD_" + std::to_string(sampled) +
                         ", which the primitive does not have") == lacking);
    }
  }
}

TEST_CASE("node rotations are made unit, a matrix beside TRS is used, each with a warning") {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 1, 2}, 4);
  g.doc["nodes"][0]["rotation"] = {0, 0, 0, 2};
  g.doc["nodes"].push_back(
      {{"matrix", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1}}, {"translation", {9, 9, 9}}});
  // Node 1 under two parents (instanced twice) is still one node to warn about.
  g.doc["nodes"].push_back({{"children", {1}}});
  g.doc["nodes"].push_back({{"children", {1}}});
  g.doc["scenes"][0]["nodes"] = {0, 2, 3};
  test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "t.gltf");
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  CHECK(baked.warned("1 node rotation(s) are not unit quaternions (invalid glTF); made unit"));
  CHECK(
      baked.warned("1 node(s) have both a matrix and translation, rotation or scale (invalid "
                   "glTF); the matrix is used"));
  CHECK(baked.warned("several parents"));
  PrefabInfo p = baked.prefab();
  REQUIRE(p.nodes.size() == 5);
  CHECK(p.nodes[0].rotation[3] == 1.0f);
  CHECK(p.nodes[2].has_matrix);
  CHECK(p.nodes[2].matrix[12] == 5.0f);
  // A rotation of length 0 is no rotation, as viewers draw it.
  g.doc["nodes"][0]["rotation"] = {0, 0, 0, 0};
  test::BakedScene zero = test::bake_gltf_bytes(g.bytes(), "t.gltf");
  REQUIRE(zero.status.ok());
  CHECK(zero.warned("1 node rotation(s) are not unit quaternions"));
  CHECK(zero.prefab().nodes[0].rotation[3] == 1.0f);
  // A rotation within float rounding of unit keeps its authored bytes, and no warning.
  g.doc["nodes"][0]["rotation"] = {0, 0, 0.70710677, 0.70710677};
  g.doc["nodes"][1].erase("translation");
  test::BakedScene unit = test::bake_gltf_bytes(g.bytes(), "t.gltf");
  CHECK_FALSE(unit.warned("unit quaternions"));
  CHECK_FALSE(unit.warned("matrix and"));
  CHECK(unit.prefab().nodes[0].rotation[3] == 0.70710677f);
}

TEST_CASE("EXT_mesh_gpu_instancing: instances baked, rotations made unit, bad values refused") {
  auto refused = [](const test::BakedScene& baked, const std::string& text) {
    INFO(baked.status.message());
    return !baked.status.ok() && baked.status.message().find(text) != std::string::npos;
  };
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 1, 2}, 4);
  const std::vector<float> translations = {1, 2, 3, 4, 5, 6};
  const std::vector<float> rotations = {0, 0, 0, 2, 0, 0.70710677f, 0, 0.70710677f};
  const std::vector<float> scales = {1, 1, 1, 2, 2, 2};
  size_t t = g.add(translations.data(), translations.size() * 4, 5126, "VEC3", 2);
  size_t r = g.add(rotations.data(), rotations.size() * 4, 5126, "VEC4", 2);
  size_t s = g.add(scales.data(), scales.size() * 4, 5126, "VEC3", 2);
  g.doc["extensionsUsed"] = {"EXT_mesh_gpu_instancing"};
  nlohmann::json& attributes =
      g.doc["nodes"][0]["extensions"]["EXT_mesh_gpu_instancing"]["attributes"];
  attributes = {{"TRANSLATION", t}, {"ROTATION", r}, {"SCALE", s}};
  {
    test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "t.gltf");
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    CHECK(baked.warned("1 EXT_mesh_gpu_instancing rotation(s) are not unit quaternions"));
    const PrefabInfo prefab = baked.prefab();  // a copy: prefab() returns a new one each call
    const auto& instances = prefab.nodes[0].instances;
    REQUIRE(instances.size() == 2);
    CHECK(instances[0].rotation[3] == 1.0f);         // (0, 0, 0, 2) made unit
    CHECK(instances[1].rotation[1] == 0.70710677f);  // unit already: as authored
    CHECK(instances[1].translation[2] == 6.0f);
    CHECK(instances[1].scale[0] == 2.0f);
  }
  SECTION("rotations as integers: normalized signed bytes or shorts only") {
    // 45 degrees about z quantised to bytes: 90/127 is 0.2 % off unit, which valid files cannot
    // avoid, so it is made unit without the invalid-glTF warning.
    const std::vector<int8_t> bytes = {0, 0, 90, 90, 0, 0, 0, 127};
    attributes["ROTATION"] = g.add(bytes.data(), bytes.size(), 5120, "VEC4", 2);
    const size_t at = attributes["ROTATION"].get<size_t>();
    g.doc["accessors"][at]["normalized"] = true;
    test::BakedScene quantised = test::bake_gltf_bytes(g.bytes(), "t.gltf");
    INFO(quantised.status.message());
    REQUIRE(quantised.status.ok());
    CHECK_FALSE(quantised.warned("EXT_mesh_gpu_instancing rotation(s)"));
    const PrefabInfo prefab = quantised.prefab();
    const auto& instances = prefab.nodes[0].instances;
    REQUIRE(instances.size() == 2);
    CHECK(instances[0].rotation[2] == Approx(0.70710678).epsilon(1e-6));
    CHECK(instances[0].rotation[3] == Approx(0.70710678).epsilon(1e-6));
    CHECK(instances[1].rotation[3] == 1.0f);
    // Plain integers, and unsigned normalized ones (no negative component), are no rotation.
    g.doc["accessors"][at]["normalized"] = false;
    CHECK(refused(test::bake_gltf_bytes(g.bytes(), "t.gltf"),
                  "ROTATION: accessor 5 has componentType 5120; instance rotations must be floats "
                  "or normalized signed bytes or shorts"));
    g.doc["accessors"][at]["normalized"] = true;
    g.doc["accessors"][at]["componentType"] = 5121;
    CHECK(refused(test::bake_gltf_bytes(g.bytes(), "t.gltf"),
                  "accessor 5 has componentType 5121 (normalized); instance rotations must be"));
  }
  SECTION("a value that is not finite") {
    const std::vector<float> bad = {1, 2, 3, 4, std::numeric_limits<float>::infinity(), 6};
    attributes["TRANSLATION"] = g.add(bad.data(), bad.size() * 4, 5126, "VEC3", 2);
    test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "t.gltf");
    CHECK(refused(baked, "TRANSLATION: instance 1 is not finite"));
  }
  SECTION("attributes of different counts") {
    attributes["SCALE"] = g.add(scales.data(), 3 * 4, 5126, "VEC3", 1);
    test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "t.gltf");
    CHECK(refused(baked, "SCALE: has another count than the other attributes"));
  }
}

TEST_CASE("glTF normals off unit length are made unit, unit ones are kept as written") {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, 4);
  const float normals[] = {0, 0, 2, 0, 0, 2, 0, 0, 2};  // twice unit length
  g.doc["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] =
      g.add(normals, sizeof normals, 5126, "VEC3", 3);
  test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "n.gltf");
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  Triangles t = triangles_of(baked, "n.gltf#mesh/0");
  REQUIRE(t.normals.size() == 1);
  CHECK(t.normals[0] == std::array<float, 3>{0, 0, 1});
}

TEST_CASE("generated tangents follow the UV set the normal map samples") {
  // TEXCOORD_1 is TEXCOORD_0 with u and v swapped: the tangent (where u grows) turns from +x to +y,
  // and the mirror flips w (w x cross(normal, tangent) points where v falls).
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, 4);
  const float normals[] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
  const float uv0[] = {0, 0, 1, 0, 0, 1}, uv1[] = {0, 0, 0, 1, 1, 0};
  auto& attributes = g.doc["meshes"][0]["primitives"][0]["attributes"];
  attributes["NORMAL"] = g.add(normals, sizeof normals, 5126, "VEC3", 3);
  attributes["TEXCOORD_0"] = g.add(uv0, sizeof uv0, 5126, "VEC2", 3);
  attributes["TEXCOORD_1"] = g.add(uv1, sizeof uv1, 5126, "VEC2", 3);
  g.doc["meshes"][0]["primitives"][0]["material"] = 0;
  g.doc["images"] = {{{"uri", "n.png"}}};
  g.doc["textures"] = {{{"source", 0}}};
  for (int set : {0, 1}) {
    INFO("normal map on TEXCOORD_" << set);
    g.doc["materials"] = {{{"normalTexture", {{"index", 0}, {"texCoord", set}}}}};
    test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "t.gltf", {{"n.png", "x"}});
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    const baker::BakedAsset* a = baked.find("t.gltf#mesh/0");
    REQUIRE(a);
    MeshInfo info = baked.mesh("t.gltf#mesh/0");
    // PNCVVT_F32 when the second set is sampled.
    REQUIRE(info.vertex_format == (set == 0 ? VertexFormat::PNCVT_F32 : VertexFormat::PNCVVT_F32));
    std::vector<std::byte> vertices(info.vertex_buffer_size), idx(info.index_buffer_size);
    REQUIRE(unpack_mesh(info, a->file.blob.data(), a->file.blob.size(), vertices.data(),
                        vertices.size(), idx.data(), idx.size())
                .ok());
    float t[4];
    const size_t at = set == 0 ? offsetof(Vertex_PNCVT_F32, tangent)
                               : offsetof(assetlib::Vertex_PNCVVT_F32, tangent);
    std::memcpy(t, vertices.data() + at, sizeof t);
    CHECK(t[0] == Approx(set == 0 ? 1 : 0).margin(1e-6));
    CHECK(t[1] == Approx(set == 0 ? 0 : 1).margin(1e-6));
    CHECK(t[3] == (set == 0 ? -1.0f : 1.0f));
  }
}

namespace {

std::vector<Vertex_PNCVT_F32> vertices_of(const test::BakedScene& baked, const std::string& mesh) {
  return test::float_mesh(baked, mesh).vertices;
}

}  // namespace

TEST_CASE("TANGENT is kept per primitive, generated for the others, ignored without NORMAL") {
  // Two quads of one material, UVs along x and y: the first with TANGENT +y, the second without.
  test::GeneratedGltf g =
      test::one_primitive({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, {0, 1, 2, 0, 2, 3}, 4);
  const float normals[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  const float uvs[] = {0, 0, 1, 0, 1, 1, 0, 1};
  const float tangents[] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
  const float second[] = {2, 0, 0, 3, 0, 0, 3, 1, 0, 2, 1, 0};
  auto& primitives = g.doc["meshes"][0]["primitives"];
  primitives[0]["attributes"]["NORMAL"] = g.add(normals, sizeof normals, 5126, "VEC3", 4);
  primitives[0]["attributes"]["TEXCOORD_0"] = g.add(uvs, sizeof uvs, 5126, "VEC2", 4);
  json other = primitives[0];
  primitives[0]["attributes"]["TANGENT"] = g.add(tangents, sizeof tangents, 5126, "VEC4", 4);
  other["attributes"]["POSITION"] = g.add(second, sizeof second, 5126, "VEC3", 4);
  g.doc["accessors"][other["attributes"]["POSITION"].get<size_t>()]["min"] = {2, 0, 0};
  g.doc["accessors"][other["attributes"]["POSITION"].get<size_t>()]["max"] = {3, 1, 0};
  primitives.push_back(other);
  test::BakedScene mixed = test::bake_gltf_bytes(g.bytes(), "t.gltf");
  INFO(mixed.status.message());
  REQUIRE(mixed.status.ok());
  for (const Vertex_PNCVT_F32& v : vertices_of(mixed, "t.gltf#mesh/0")) {
    INFO("x " << v.position[0]);
    const bool authored = v.position[0] < 1.5f;
    CHECK(v.tangent[0] == Approx(authored ? 0 : 1).margin(1e-6));
    CHECK(v.tangent[1] == Approx(authored ? 1 : 0).margin(1e-6));
    CHECK(std::fabs(v.tangent[3]) == 1.0f);  // generated: -1, as v runs against y here
  }
  // The first quad alone without NORMAL: flat normals, and its TANGENT ignored (glTF 3.7.2.1).
  primitives.erase(1);
  primitives[0]["attributes"].erase("NORMAL");
  test::BakedScene no_normal = test::bake_gltf_bytes(g.bytes(), "t.gltf");
  REQUIRE(no_normal.status.ok());
  for (const Vertex_PNCVT_F32& v : vertices_of(no_normal, "t.gltf#mesh/0")) {
    CHECK(v.tangent[0] == Approx(1));
    CHECK(v.tangent[1] == Approx(0).margin(1e-6));
  }
}

TEST_CASE("COLOR_0 of plain integers is refused, float colours outside 0..1 clamped and said") {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, 4);
  auto& attributes = g.doc["meshes"][0]["primitives"][0]["attributes"];
  const uint8_t bytes[] = {255, 0, 0, 128, 128, 128, 0, 0, 255};
  attributes["COLOR_0"] = g.add(bytes, sizeof bytes, 5121, "VEC3", 3);
  test::BakedScene plain = test::bake_gltf_bytes(g.bytes(), "c.gltf");
  CHECK_FALSE(plain.status.ok());
  CHECK_THAT(plain.status.reason,
             Catch::Contains("COLOR_0 must be floats or normalized unsigned bytes or shorts"));
  g.doc["accessors"][attributes["COLOR_0"].get<size_t>()]["normalized"] = true;
  test::BakedScene normalized = test::bake_gltf_bytes(g.bytes(), "c.gltf");
  REQUIRE(normalized.status.ok());
  CHECK_FALSE(normalized.warned("COLOR_0"));
  const float bright[] = {4, 0, 0, -1, 0.5f, 0, 0, 0, 1};
  attributes["COLOR_0"] = g.add(bright, sizeof bright, 5126, "VEC3", 3);
  test::BakedScene clamped = test::bake_gltf_bytes(g.bytes(), "c.gltf");
  REQUIRE(clamped.status.ok());
  CHECK(clamped.warned("2 COLOR_0 component(s) outside 0..1 clamped"));
  for (const Vertex_PNCVT_F32& v : vertices_of(clamped, "c.gltf#mesh/0")) {
    for (float c : v.color) CHECK((c >= 0.0f && c <= 1.0f));
  }
}

TEST_CASE("material factors outside glTF's ranges are clamped and named, those inside kept") {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, 4);
  g.doc["meshes"][0]["primitives"][0]["material"] = 0;
  g.doc["materials"] = json::array({{{"pbrMetallicRoughness",
                                      {{"baseColorFactor", {0.25, 0.5, 0.75, 1}},
                                       {"metallicFactor", 1.0000000000000002},
                                       {"roughnessFactor", 0}}},
                                     {"emissiveFactor", {1, 0, 0.5}},
                                     {"alphaCutoff", 3}}});
  test::BakedScene inside = test::bake_gltf_bytes(g.bytes(), "m.gltf");
  REQUIRE(inside.status.ok());
  CHECK_FALSE(inside.warned("clamped"));
  MaterialInfo kept = inside.material("m.gltf#material/0");
  CHECK(kept.base_color_factor[2] == 0.75f);
  CHECK(kept.metallic_factor == 1.0f);  // a double just past 1 is 1 as a float: no warning
  CHECK(kept.emissive_factor[0] == 1.0f);
  CHECK(kept.alpha_cutoff == 3.0f);  // no maximum
  g.doc["materials"][0] = {
      {"pbrMetallicRoughness",
       {{"baseColorFactor", {-1, 2, 0.5, 1.5}}, {"metallicFactor", 5}, {"roughnessFactor", -2}}},
      {"emissiveFactor", {3, -1, 0}},
      {"alphaCutoff", -1},
      {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", -3}}}}}};
  test::BakedScene outside = test::bake_gltf_bytes(g.bytes(), "m.gltf");
  REQUIRE(outside.status.ok());
  CHECK(outside.warned(
      "m.gltf: materials[0]: outside glTF's range, clamped: "
      "pbrMetallicRoughness.baseColorFactor[0] -1, pbrMetallicRoughness.baseColorFactor[1] 2, "
      "pbrMetallicRoughness.baseColorFactor[3] 1.5, pbrMetallicRoughness.metallicFactor 5, "
      "pbrMetallicRoughness.roughnessFactor -2, emissiveFactor[0] 3, emissiveFactor[1] -1, "
      "alphaCutoff -1, extensions.KHR_materials_emissive_strength.emissiveStrength -3"));
  MaterialInfo m = outside.material("m.gltf#material/0");
  const float base[4] = {0, 1, 0.5f, 1};
  for (int k = 0; k < 4; ++k) CHECK(m.base_color_factor[k] == base[k]);
  CHECK(m.metallic_factor == 1.0f);
  CHECK(m.roughness_factor == 0.0f);
  CHECK(m.emissive_factor[0] == 1.0f);
  CHECK(m.emissive_factor[1] == 0.0f);
  CHECK(m.alpha_cutoff == 0.0f);
  CHECK(m.emissive_strength == 0.0f);
}

TEST_CASE("flat normals of -0 and +0 merge, and a TANGENT w of 0 is made +1") {
  // A quad without normals: each triangle's flat normal is +z, the second's computed as (0, -0, 1)
  // (its edges (0, 1, 0) and (-1, 1, 0): y = 0 x -1 - 0 x 0).
  test::GeneratedGltf g =
      test::one_primitive({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, {0, 1, 2, 1, 2, 3}, 4);
  test::BakedScene flat = test::bake_gltf_bytes(g.bytes(), "q.gltf");
  REQUIRE(flat.status.ok());
  CHECK(flat.mesh("q.gltf#mesh/0").vertex_count == 4);
  // With normals and a tangent whose w is 0 (glTF allows only +1 and -1).
  const float normals[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  const float tangents[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  auto& attributes = g.doc["meshes"][0]["primitives"][0]["attributes"];
  attributes["NORMAL"] = g.add(normals, sizeof normals, 5126, "VEC3", 4);
  attributes["TANGENT"] = g.add(tangents, sizeof tangents, 5126, "VEC4", 4);
  test::BakedScene tangent = test::bake_gltf_bytes(g.bytes(), "q.gltf");
  REQUIRE(tangent.status.ok());
  for (const Vertex_PNCVT_F32& vertex : vertices_of(tangent, "q.gltf#mesh/0"))
    CHECK(vertex.tangent[3] == 1.0f);
}

TEST_CASE("primitives sharing one large vertex accessor decode it once, as valid files do") {
  // A 256 x 256 grid of positions (786 KB) that 200 primitives use (obj2gltf writes one vertex
  // accessor for all the materials of a mesh). Decoded per primitive, the 64x budget refused it.
  std::vector<float> positions;
  for (int i = 0; i < 65536; ++i)
    positions.insert(positions.end(), {float(i % 256), float(i / 256), 0});
  test::GeneratedGltf g = test::one_primitive(positions, {0, 1, 256}, 4);
  const json primitive = g.doc["meshes"][0]["primitives"][0];
  for (int i = 0; i < 199; ++i) g.doc["meshes"][0]["primitives"].push_back(primitive);
  test::BakedScene baked = test::bake_gltf_bytes(g.bytes(), "shared.gltf");
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  CHECK(baked.mesh("shared.gltf#mesh/0").index_count == 200 * 3);
}
