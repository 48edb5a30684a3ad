// glTF morph targets through the baker: applied at the mesh's default weights, on generated files
// (each attribute, sparse targets, each refusal) and on the corpus's morphed models.
#include "../cpu_time.h"
#include "gltf_fixture.h"

#include <cmath>

using namespace assetlib;
using nlohmann::json;

namespace {

// One triangle (0,0,0) (1,0,0) (0,1,0) facing +z, with normals and a tangent along +x.
struct MorphedTriangle {
  test::GeneratedGltf g = test::one_primitive({0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 1, 2}, 4);

  MorphedTriangle() {
    const float normals[] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float tangents[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
    const float uvs[] = {0, 0, 1, 0, 0, 1};
    json& attributes = primitive()["attributes"];
    attributes["NORMAL"] = g.add(normals, sizeof normals, 5126, "VEC3", 3);
    attributes["TANGENT"] = g.add(tangents, sizeof tangents, 5126, "VEC4", 3);
    attributes["TEXCOORD_0"] = g.add(uvs, sizeof uvs, 5126, "VEC2", 3);
  }
  json& primitive() { return g.doc["meshes"][0]["primitives"][0]; }
  // Adds a target of `deltas` (3 per vertex) for `attribute` to a new target, or to target `into`.
  void target(const char* attribute, const std::vector<float>& deltas, int into = -1) {
    const size_t accessor =
        g.add(deltas.data(), deltas.size() * 4, 5126, "VEC3", deltas.size() / 3);
    json& targets = primitive()["targets"];
    if (into < 0) {
      targets.push_back({{attribute, accessor}});
    } else {
      targets[size_t(into)][attribute] = accessor;
    }
  }
  void weights(const json& w) { g.doc["meshes"][0]["weights"] = w; }
  test::BakedScene bake() const { return test::bake_gltf_bytes(g.bytes(), "m.gltf"); }
};

std::vector<Vertex_PNCVT_F32> vertices_of(const test::BakedScene& baked) {
  return test::float_mesh(baked, "m.gltf#mesh/0").vertices;
}

// The baked vertex at `position` (x, y), failing the test when there is none.
const Vertex_PNCVT_F32& at(const std::vector<Vertex_PNCVT_F32>& v, float x, float y) {
  for (const Vertex_PNCVT_F32& vertex : v) {
    if (std::fabs(vertex.position[0] - x) < 1e-5f && std::fabs(vertex.position[1] - y) < 1e-5f)
      return vertex;
  }
  FAIL("no vertex at (" << x << ", " << y << ")");
  return v[0];
}

void refused(const test::BakedScene& baked, const std::string& text) {
  INFO(baked.status.message());
  CHECK_FALSE(baked.status.ok());
  CHECK(baked.status.message().find(text) != std::string::npos);
}

}  // namespace

TEST_CASE("morph targets are applied at the mesh's default weights") {
  MorphedTriangle m;
  m.target("POSITION", {0, 0, 1, 0, 0, 1, 0, 0, 1});  // the whole triangle up by 1
  m.target("POSITION", {0, 0, 0, 4, 0, 0, 0, 0, 0});  // vertex 1 along x by 4
  m.weights({0.5, 0.25});
  test::BakedScene baked = m.bake();
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  CHECK(baked.warned("morph targets of meshes 0 baked at the mesh's default weights"));
  std::vector<Vertex_PNCVT_F32> v = vertices_of(baked);
  REQUIRE(v.size() == 3);
  CHECK(at(v, 0, 0).position[2] == Approx(0.5f));
  CHECK(at(v, 2, 0).position[2] == Approx(0.5f));  // x = 1 + 0.25 * 4
  CHECK(at(v, 0, 1).position[2] == Approx(0.5f));
  MeshInfo info = baked.mesh("m.gltf#mesh/0");
  // The bounds are the morphed shape's: x 0..2, z 0.5 flat.
  CHECK(info.bounds.origin[0] + info.bounds.extents[0] == Approx(2.0f));
  CHECK(info.bounds.origin[2] == Approx(0.5f));

  SECTION("without weights, the targets weigh 0: the base shape") {
    m.g.doc["meshes"][0].erase("weights");
    test::BakedScene base = m.bake();
    REQUIRE(base.status.ok());
    CHECK(base.warned("baked at the mesh's default weights"));
    std::vector<Vertex_PNCVT_F32> b = vertices_of(base);
    CHECK(at(b, 1, 0).position[2] == 0.0f);
  }
}

TEST_CASE("morphed normals and tangents are renormalised and other deltas are warned about") {
  MorphedTriangle m;
  m.target("NORMAL", {0, 2, -1, 0, 2, -1, 0, 2, -1});  // (0,0,1) -> (0,1,0) at weight 1
  m.target("TANGENT", {-1, 0, 3, -1, 0, 3, -1, 0, 3}, 0);
  m.primitive()["targets"][0]["TEXCOORD_0"] =
      m.g.add(std::vector<float>{1, 0, 1, 0, 1, 0}.data(), 24, 5126, "VEC2", 3);
  m.weights({1.0});
  test::BakedScene baked = m.bake();
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  CHECK(baked.warned("morph target deltas of TEXCOORD_0 not applied"));
  CHECK(at(vertices_of(baked), 0, 0).uv[0] == 0.0f);  // the UV delta is not applied
  for (const Vertex_PNCVT_F32& vertex : vertices_of(baked)) {
    CHECK(vertex.normal[1] == Approx(1.0f));
    CHECK(vertex.normal[2] == Approx(0.0f).margin(1e-6));
    CHECK(vertex.tangent[2] == Approx(1.0f));  // (1,0,0) + (-1,0,3) = (0,0,3), made unit
    CHECK(vertex.tangent[3] == 1.0f);          // handedness is not morphed
  }
}

TEST_CASE("a NORMAL of no length, in the file or cancelled by a target, gets its face's normal") {
  MorphedTriangle cancelled;
  cancelled.target("NORMAL", {0, 0, -1, 0, 0, -1, 0, 0, 0});  // vertex 2 keeps its normal
  cancelled.weights({1.0});
  MorphedTriangle zero;
  const float normals[] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
  zero.primitive()["attributes"]["NORMAL"] = zero.g.add(normals, sizeof normals, 5126, "VEC3", 3);
  for (const MorphedTriangle* m : {&cancelled, &zero}) {
    test::BakedScene baked = m->bake();
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    CHECK(baked.warned("2 vertex NORMAL(s) of no length"));
    for (const Vertex_PNCVT_F32& vertex : vertices_of(baked)) CHECK(vertex.normal[2] == 1.0f);
  }
}

TEST_CASE("a sparse morph target moves only the vertices it lists") {
  MorphedTriangle m;
  // A target of zeros but for vertex 2, up by 3: sparse, without a bufferView of its own.
  const uint32_t indices[] = {2};
  const float values[] = {0, 0, 3};
  size_t index_view = m.g.add(indices, sizeof indices, 5125, "SCALAR", 1);
  size_t value_view = m.g.add(values, sizeof values, 5126, "VEC3", 1);
  index_view = m.g.doc["accessors"][index_view]["bufferView"];
  value_view = m.g.doc["accessors"][value_view]["bufferView"];
  m.g.doc["accessors"].push_back(
      {{"componentType", 5126},
       {"type", "VEC3"},
       {"count", 3},
       {"sparse",
        {{"count", 1},
         {"indices", {{"bufferView", index_view}, {"componentType", 5125}}},
         {"values", {{"bufferView", value_view}}}}}});
  m.primitive()["targets"] = {{{"POSITION", m.g.doc["accessors"].size() - 1}}};
  m.weights({0.5});
  test::BakedScene baked = m.bake();
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  std::vector<Vertex_PNCVT_F32> v = vertices_of(baked);
  CHECK(at(v, 0, 0).position[2] == 0.0f);
  CHECK(at(v, 1, 0).position[2] == 0.0f);
  CHECK(at(v, 0, 1).position[2] == Approx(1.5f));
}

TEST_CASE("a node with morph weights of its own is warned about and the mesh keeps its defaults") {
  MorphedTriangle m;
  m.target("POSITION", {0, 0, 1, 0, 0, 1, 0, 0, 1});
  m.weights({0.0});
  m.g.doc["nodes"][0]["weights"] = {1.0};
  test::BakedScene baked = m.bake();
  REQUIRE(baked.status.ok());
  CHECK(baked.warned("1 node(s) give their mesh morph weights of their own"));
  CHECK(at(vertices_of(baked), 1, 0).position[2] == 0.0f);
  m.g.doc["nodes"][0]["weights"] = {0.0};
  CHECK_FALSE(m.bake().warned("morph weights of their own"));
}

TEST_CASE("node weights are judged against each mesh's defaults read once, not once per node") {
  // 4000 nodes with weights drawing one mesh of 40000 primitives: every node walked every
  // primitive (5000 x 100000 took 32 s). Timed against the same file without node weights, so that
  // a slow build slows both.
  auto seconds_to_bake = [](bool node_weights) {
    const std::vector<float> triangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    test::GeneratedGltf g = test::one_primitive(triangle, {}, 4);
    g.doc["accessors"].push_back(
        {{"componentType", 5126}, {"type", "VEC3"}, {"count", 3}});  // zeros: no bufferView
    const nlohmann::json primitive = {{"attributes", {{"POSITION", 0}}},
                                      {"targets", {{{"POSITION", 1}}}}};
    g.doc["meshes"][0]["primitives"] = nlohmann::json::array();
    for (int p = 0; p < 40000; ++p) g.doc["meshes"][0]["primitives"].push_back(primitive);
    g.doc["nodes"] = nlohmann::json::array();
    g.doc["scenes"][0]["nodes"] = nlohmann::json::array();
    for (int n = 0; n < 4000; ++n) {
      nlohmann::json node = {{"mesh", 0}};
      if (node_weights) node["weights"] = {0};
      g.doc["nodes"].push_back(node);
      g.doc["scenes"][0]["nodes"].push_back(n);
    }
    test::BakedScene baked;
    const double seconds =
        test::cpu_seconds([&] { baked = test::bake_gltf_bytes(g.bytes(), "c.gltf"); });
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    return seconds;
  };
  const double without = seconds_to_bake(false), with = seconds_to_bake(true);
  INFO(with << " s with node weights, " << without << " s without");
  CHECK(with < 3 * without + 0.5);
}

TEST_CASE("weights without morph targets change nothing (invalid glTF that baked before)") {
  MorphedTriangle m;
  m.weights({0.5, 2.0});
  m.g.doc["nodes"][0]["weights"] = {1.0};
  test::BakedScene baked = m.bake();
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  CHECK_FALSE(baked.warned("morph"));
  CHECK(at(vertices_of(baked), 1, 0).position[2] == 0.0f);
}

TEST_CASE("broken morph targets are refused, naming where") {
  MorphedTriangle m;
  m.target("POSITION", {0, 0, 1, 0, 0, 1, 0, 0, 1});
  SECTION("weights not one per target") {
    m.weights({0.5, 0.5});
    refused(m.bake(), "meshes[0].weights: must be an array of 1 numbers, one per morph target");
  }
  SECTION("a weight that is not a finite number") {
    m.weights({"heavy"});
    refused(m.bake(), "meshes[0].weights[0]: must be a finite number");
  }
  SECTION("a target of another vertex count") {
    m.target("POSITION", {0, 0, 1, 0, 0, 1}, 0);
    m.weights({1.0});
    refused(m.bake(), "primitives[0].targets[0].POSITION: has 2 elements, POSITION 3");
  }
  SECTION("a weighted NORMAL target on a NORMAL of more elements than POSITION") {
    // The counts are checked before any delta is added (read past the deltas otherwise).
    const float normals[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    m.primitive()["attributes"]["NORMAL"] = m.g.add(normals, sizeof normals, 5126, "VEC3", 5);
    m.target("NORMAL", {0, 1, 0, 0, 1, 0, 0, 1, 0}, 0);
    m.weights({1.0});
    refused(m.bake(), "attributes.NORMAL: has 5 elements, POSITION 3");
  }
  SECTION("a target accessor that does not exist, even at weight 0") {
    m.primitive()["targets"][0]["POSITION"] = 99;
    refused(m.bake(), "primitives[0].targets[0].POSITION: accessor 99 does not exist");
  }
  SECTION("primitives with different numbers of targets") {
    json second = m.primitive();
    second.erase("targets");
    m.g.doc["meshes"][0]["primitives"].push_back(second);
    refused(m.bake(), "primitives[1].targets: has 0 morph targets, primitives[0] 1");
  }
  SECTION("a morphed position that is not finite") {
    m.target("POSITION", {3e38f, 0, 0, 0, 0, 0, 0, 0, 0}, 0);
    m.weights({3e38});
    refused(m.bake(), "attributes.POSITION: position 0 is not finite or lies beyond +-1e18");
  }
  SECTION("a target that is not VEC3") {
    m.primitive()["targets"][0]["POSITION"] =
        m.g.add(std::vector<float>{0, 0, 0, 0, 0, 0}.data(), 24, 5126, "VEC2", 3);
    m.weights({1.0});
    refused(m.bake(), "targets[0].POSITION: accessor 6 of type 'VEC2' cannot hold it");
  }
}

TEST_CASE("the corpus's morphed models bake at their default weights") {
  for (const char* file :
       {"draco-testdata/KhronosSampleModels/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf",
        "tinygltf/models/SparseMorphTargets-issue280/singleBlendshapeCube_sparse.glb"}) {
    INFO(file);
    test::BakedScene baked = test::bake_corpus_gltf(file);
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    CHECK(baked.warned("baked at the mesh's default weights; the shapes do not animate"));
    CHECK(baked.warned("animation channel(s) of morph weights dropped"));
  }
}
