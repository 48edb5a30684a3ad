// Generated tangents follow MikkTSpace (mesh/mesh_tangents.h): hand-made triangles whose frames
// are worked out below, and real glTF models whose exporter wrote MikkTSpace tangents, baked once
// with those tangents and once without.
#include "gltf_fixture.h"

#include "common/vec3.h"
#include "mesh/mesh_tangents.h"

#include <array>
#include <cmath>
#include <map>
#include <tuple>

using baker::MeshVertex;

namespace {

// UVs as stored, v pointing down: v = -y puts the image's up along +y.
MeshVertex corner(std::array<float, 3> p, std::array<float, 2> uv) {
  MeshVertex v{};
  std::copy(p.begin(), p.end(), v.position);
  v.normal[2] = 1;
  std::copy(uv.begin(), uv.end(), v.uv);
  return v;
}

void check_tangent(const MeshVertex& v, std::array<float, 3> expected, float w) {
  float length =
      std::sqrt(expected[0] * expected[0] + expected[1] * expected[1] + expected[2] * expected[2]);
  for (int k = 0; k < 3; ++k) CHECK(v.tangent[k] == Approx(expected[k] / length).margin(1e-5));
  CHECK(v.tangent[3] == w);
}

}  // namespace

TEST_CASE("the tangent points where u grows, the bitangent where the image is up") {
  std::vector<MeshVertex> soup = {corner({0, 0, 0}, {0, 0}), corner({1, 0, 0}, {1, 0}),
                                  corner({0, 1, 0}, {0, -1})};
  baker::generate_tangents(soup);
  for (const MeshVertex& v : soup) check_tangent(v, {1, 0, 0}, 1);

  std::vector<MeshVertex> mirrored = {corner({0, 0, 0}, {1, 0}), corner({1, 0, 0}, {0, 0}),
                                      corner({0, 1, 0}, {1, -1})};
  baker::generate_tangents(mirrored);
  // u grows along -x; the bitangent cross(n, t) * w = +y, the image's up.
  for (const MeshVertex& v : mirrored) check_tangent(v, {-1, 0, 0}, -1);
}

TEST_CASE("corners on a UV mirror seam get one frame per side") {
  // Two triangles sharing the edge x = 0, with UVs mirrored across it: the shared corners have the
  // same position, normal and UV, but the triangles' UV orientations differ.
  std::vector<MeshVertex> soup = {corner({0, 0, 0}, {0, 0}),  corner({1, 0, 0}, {1, 0}),
                                  corner({0, 1, 0}, {0, -1}), corner({0, 0, 0}, {0, 0}),
                                  corner({0, 1, 0}, {0, -1}), corner({-1, 0, 0}, {1, 0})};
  baker::generate_tangents(soup);
  for (int k = 0; k < 3; ++k) check_tangent(soup[size_t(k)], {1, 0, 0}, 1);
  for (int k = 3; k < 6; ++k) check_tangent(soup[size_t(k)], {-1, 0, 0}, -1);
}

TEST_CASE("an indexed vertex on a UV mirror seam is split, one copy per frame") {
  // The seam test above, indexed: the two triangles share the vertices at (0,0) and (0,1).
  std::vector<MeshVertex> vertices = {corner({0, 0, 0}, {0, 0}), corner({1, 0, 0}, {1, 0}),
                                      corner({0, 1, 0}, {0, -1}), corner({-1, 0, 0}, {1, 0})};
  std::vector<uint32_t> corners = {0, 1, 2, 0, 2, 3};
  baker::generate_tangents(vertices, corners, {});
  REQUIRE(vertices.size() == 6);  // the two seam vertices, copied for the mirrored side
  CHECK(corners[0] == 0);
  CHECK(corners[1] == 1);
  CHECK(corners[2] == 2);
  CHECK(corners[3] >= 4);
  CHECK(corners[4] >= 4);
  CHECK(corners[3] != corners[4]);
  CHECK(corners[5] == 3);
  for (size_t i = 0; i < 3; ++i) check_tangent(vertices[corners[i]], {1, 0, 0}, 1);
  for (size_t i = 3; i < 6; ++i) check_tangent(vertices[corners[i]], {-1, 0, 0}, -1);
  CHECK(vertices[corners[3]].position[0] == 0.0f);
  CHECK(vertices[corners[4]].position[1] == 1.0f);
}

TEST_CASE("a vertex with its own tangent keeps it, and still counts in its group's frame") {
  // Vertex 0 is kept: its corners keep the source's tangent, no copy is made, and the unkept
  // vertices of the same triangle get the triangle's frame as before.
  std::vector<MeshVertex> vertices = {corner({0, 0, 0}, {0, 0}), corner({1, 0, 0}, {1, 0}),
                                      corner({0, 1, 0}, {0, -1})};
  vertices[0].tangent[1] = 1;
  vertices[0].tangent[3] = -1;
  std::vector<uint32_t> corners = {0, 1, 2};
  baker::generate_tangents(vertices, corners, {true, false, false});
  REQUIRE(vertices.size() == 3);
  CHECK(corners == std::vector<uint32_t>{0, 1, 2});
  CHECK(vertices[0].tangent[0] == 0.0f);
  CHECK(vertices[0].tangent[1] == 1.0f);
  CHECK(vertices[0].tangent[3] == -1.0f);
  check_tangent(vertices[1], {1, 0, 0}, 1);
  check_tangent(vertices[2], {1, 0, 0}, 1);
}

TEST_CASE("frames are averaged by corner angle over equal position, normal and UV") {
  // At the origin: triangle A (90 degrees there, small, u along +x) and triangle B (45 degrees,
  // 50 times A's area, u along +y). MikkTSpace weights by angle, not area: 2:1 for A.
  std::vector<MeshVertex> soup = {corner({0, 0, 0}, {0, 0}),     corner({1, 0, 0}, {1, 0}),
                                  corner({0, 1, 0}, {0, -1}),    corner({0, 0, 0}, {0, 0}),
                                  corner({0, -10, 0}, {-10, 0}), corner({10, -10, 0}, {-10, 10})};
  soup[3].color[0] = 1;  // another colour: a different vertex, the same tangent group
  // A triangle without UV area at the origin takes the frame already there.
  soup.push_back(corner({0, 0, 0}, {0, 0}));
  soup.push_back(corner({-1, 1, 0}, {0, 0}));
  soup.push_back(corner({-1, 0, 0}, {0, 0}));
  baker::generate_tangents(soup);
  check_tangent(soup[0], {2, 1, 0}, 1);
  check_tangent(soup[3], {2, 1, 0}, 1);
  check_tangent(soup[6], {2, 1, 0}, 1);
  check_tangent(soup[1], {1, 0, 0}, 1);
  check_tangent(soup[4], {0, 1, 0}, 1);
  // Corners with no frame at all get a unit tangent perpendicular to the normal.
  CHECK(soup[7].tangent[2] == 0.0f);
  CHECK(std::hypot(soup[7].tangent[0], soup[7].tangent[1]) == Approx(1.0f));
}

namespace {

using VertexKey =
    std::tuple<std::array<float, 3>, std::array<float, 3>, std::array<float, 2>, float>;

// Every vertex of every mesh of a bake, by position, normal, UV and w, with its tangent.
std::map<VertexKey, std::array<float, 3>> tangents_of(const test::BakedScene& baked) {
  std::map<VertexKey, std::array<float, 3>> out;
  for (const baker::BakedAsset& a : baked.assets) {
    if (a.name.find("#mesh/") == std::string::npos) continue;
    assetlib::MeshInfo info = baked.mesh(a.name);
    REQUIRE(info.vertex_format == assetlib::VertexFormat::PNCVVT_F32);
    std::vector<assetlib::Vertex_PNCVVT_F32> v(info.vertex_count);
    std::vector<std::byte> idx(info.index_buffer_size);
    REQUIRE(assetlib::unpack_mesh(info, a.file.blob.data(), a.file.blob.size(), v.data(),
                                  info.vertex_buffer_size, idx.data(), idx.size())
                .ok());
    for (const assetlib::Vertex_PNCVVT_F32& m : v) {
      VertexKey key{{m.position[0], m.position[1], m.position[2]},
                    {m.normal[0], m.normal[1], m.normal[2]},
                    {m.uv[0], m.uv[1]},
                    m.tangent[3]};
      out[key] = {m.tangent[0], m.tangent[1], m.tangent[2]};
    }
  }
  return out;
}

}  // namespace

TEST_CASE("tangents generated for real models match the MikkTSpace tangents their exporter wrote") {
  // Exported with tangents by Unity's and Maya's (babylon.js) glTF exporters. Left out: the
  // corpus' cubes from an early Blender exporter, whose tangents point where u decreases on half
  // the faces, and the VKTS ones, whose every w is the opposite of glTF's convention.
  for (const char* relative :
       {"intellij-gltf-viewer-plugin/models/Avocado/glTF/Avocado.gltf",
        "intellij-gltf-viewer-plugin/models/WaterBottle/glTF/WaterBottle.gltf",
        "bevy/assets/models/FlightHelmet/FlightHelmet.gltf"}) {
    INFO(relative);
    baker::BakeSettings settings;
    settings.mesh.vertex_format = "PNCVVT_F32";
    test::BakedScene authored = test::bake_corpus_gltf(relative, settings);
    REQUIRE(authored.status.ok());

    nlohmann::json doc = test::gltf_json(test::corpus(relative));
    for (auto& mesh : doc["meshes"]) {
      for (auto& primitive : mesh["primitives"]) primitive["attributes"].erase("TANGENT");
    }
    std::string text = doc.dump();
    std::vector<std::byte> bytes(text.size());
    std::memcpy(bytes.data(), text.data(), text.size());
    std::map<std::string, std::string> files;
    std::filesystem::path folder = std::filesystem::path(test::corpus(relative)).parent_path();
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      std::vector<std::byte> data = test::file_bytes(entry.path().string());
      files[(std::filesystem::path(relative).parent_path() / entry.path().filename()).string()] =
          std::string(reinterpret_cast<const char*>(data.data()), data.size());
    }
    test::BakedScene generated = test::bake_gltf_bytes(bytes, relative, files, settings);
    REQUIRE(generated.status.ok());

    auto expected = tangents_of(authored);
    auto actual = tangents_of(generated);
    size_t matched = 0, close = 0;
    for (const auto& [key, t] : actual) {
      auto it = expected.find(key);
      if (it == expected.end()) continue;  // no vertex with this position, normal, UV and w
      ++matched;
      const auto& e = it->second;
      if (t[0] * e[0] + t[1] * e[1] + t[2] * e[2] > 0.99f) ++close;
    }
    INFO(matched << " of " << actual.size() << " generated vertices found with the same w, "
                 << close << " within 8 degrees");
    // The rest: vertices where the exporter's welding or its quads moved a frame a little, and
    // regions without UV area, where any frame is as good as another.
    CHECK(matched >= actual.size() * 99 / 100);
    CHECK(close >= matched * 97 / 100);
  }
}

TEST_CASE("the corner angle weight stays within 1e-6 rad of acos over the whole range") {
  // Normals and tangents weight corners by this angle; an approximation that drifted would tilt
  // every generated normal towards small corners.
  double worst = 0;
  for (int i = -100000; i <= 100000; ++i) {
    float c = float(i) / 100000.0f;
    worst = std::max(worst, std::fabs(double(baker::corner_angle_of(c)) - std::acos(double(c))));
  }
  CHECK(worst < 1e-6);
  CHECK(baker::corner_angle_of(1.0f) == 0.0f);
  CHECK(baker::corner_angle_of(1.5f) == 0.0f);  // rounding past 1 is clamped, never NaN
  CHECK(baker::corner_angle_of(-1.5f) == Approx(3.14159265));
  CHECK(baker::corner_angle_of(0.0f) == Approx(1.5707963).margin(1e-7));
  CHECK(std::isfinite(baker::corner_angle_of(-0.0f)));
}
