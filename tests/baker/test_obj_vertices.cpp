// The OBJ importer's indexed output: one vertex per distinct (position, UV, normal) the corners
// refer to, and PositionTable, which numbers those combinations in linear time whatever the file.
#include "../cpu_time.h"
#include "import/obj_import.h"
#include "import/position_table.h"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

struct Imported {
  baker::BakeStatus status;
  baker::ImportedMesh mesh;
  std::vector<assetlib::MaterialInfo> materials;
  std::vector<std::string> warnings;
};

Imported import(const std::string& text) {
  baker::ImportInputs inputs;
  inputs.read_file = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
  inputs.texture_name = [](const std::string&, baker::TextureRole, std::string&) {
    return std::nullopt;
  };
  Imported out;
  out.status =
      baker::import_obj(text, "models/part.obj", inputs, out.mesh, out.materials, out.warnings);
  return out;
}

std::array<float, 3> normal_of(const Imported& i, size_t corner) {
  const baker::MeshVertex& v = i.mesh.soup[i.mesh.corners.at(corner)];
  return {v.normal[0], v.normal[1], v.normal[2]};
}

}  // namespace

TEST_CASE("OBJ corners share one vertex per position, UV and normal") {
  SECTION("a smooth quad: 4 vertices for 6 corners, each used") {
    Imported i = import("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
    REQUIRE(i.status.ok());
    CHECK(i.mesh.corners.size() == 6);
    CHECK(i.mesh.soup.size() == 4);
    CHECK(std::set<uint32_t>(i.mesh.corners.begin(), i.mesh.corners.end()).size() == 4);
  }
  SECTION("a UV seam splits a position in two") {
    Imported i = import(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvt 0.5 0.5\n"
        "f 1/1 2/2 3/3\nf 2/4 4/2 3/3\n");
    REQUIRE(i.status.ok());
    CHECK(i.mesh.corners.size() == 6);
    CHECK(i.mesh.soup.size() == 5);  // position 2 with UV 2 and with UV 4
  }
  SECTION("a flat face (smoothing group 0 beside group 1) keeps its own corners") {
    Imported i =
        import("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\ns 1\nf 1 2 3\nf 1 3 4\ns off\nf 1 4 2\n");
    REQUIRE(i.status.ok());
    CHECK(i.mesh.corners.size() == 9);
    CHECK(i.mesh.soup.size() == 4 + 3);
    // The flat face's corners all carry its own normal: +y.
    for (size_t k = 6; k < 9; ++k) {
      auto n = normal_of(i, k);
      CHECK(n[0] == Approx(0).margin(1e-6));
      CHECK(n[1] == Approx(1));
      CHECK(n[2] == Approx(0).margin(1e-6));
    }
  }
  SECTION("s off on every face is flat, a file that never says s is smooth") {
    const std::string cube =
        "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\n"
        "v -1 1 1\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
    for (const char* statement : {"s off\n", "s 0\n"}) {
      Imported flat = import(statement + cube);
      REQUIRE(flat.status.ok());
      CHECK(flat.mesh.soup.size() >= 24);  // per face; the mesh stages merge equal corners
      for (size_t k = 0; k < flat.mesh.corners.size(); ++k) {
        auto n = normal_of(flat, k);
        CHECK(std::fabs(n[0]) + std::fabs(n[1]) + std::fabs(n[2]) == Approx(1));
      }
    }
    Imported smooth = import(cube);
    REQUIRE(smooth.status.ok());
    CHECK(smooth.mesh.soup.size() == 8);
  }
  SECTION("the file's own normals are kept per corner") {
    Imported i = import(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nvn 0 0 -1\nf 1//1 2//1 3//1\nf 1//2 3//2 2//2\n");
    REQUIRE(i.status.ok());
    CHECK(i.mesh.soup.size() == 6);
    CHECK(normal_of(i, 0)[2] == 1.0f);
    CHECK(normal_of(i, 3)[2] == -1.0f);
  }
}

TEST_CASE("PositionTable numbers pairs in order of first lookup, past its chain limit too") {
  std::mt19937 random(7);
  baker::PositionTable table(8);
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> expected;
  // 8 positions with up to 100 keys each: chains pass the limit and the table switches to hashing.
  for (int n = 0; n < 5000; ++n) {
    uint32_t position = random() % 8;
    uint64_t key = uint64_t(random() % 100) << 40 | (random() % 3);
    auto [it, added] = expected.try_emplace({position, key}, uint32_t(expected.size()));
    REQUIRE(table.find_or_add(position, key) == it->second);
  }
  CHECK(table.size() == expected.size());
}

TEST_CASE("one position in a hundred thousand smoothing groups imports in linear time") {
  // Every face has its own smoothing group and all share position 1: one chain per group would
  // make each lookup walk all the groups before it (10^10 steps).
  const int faces = 150000;
  std::string text = "v 0 0 0\n";
  for (int f = 0; f < faces; ++f) {
    text += "v " + std::to_string(f + 1) + " 0 0\nv 0 " + std::to_string(f + 1) + " 0\n";
  }
  for (int f = 0; f < faces; ++f) {
    text += "s " + std::to_string(f + 1) + "\nf 1 " + std::to_string(2 * f + 2) + " " +
            std::to_string(2 * f + 3) + "\n";
  }
  Imported i;
  const double seconds = test::cpu_seconds([&] { i = import(text); });
  REQUIRE(i.status.ok());
  CHECK(i.mesh.corners.size() == size_t(3 * faces));
  CHECK(i.mesh.soup.size() == size_t(3 * faces));  // position 1 once per group
  CHECK(normal_of(i, 0)[2] == Approx(1));
  CHECK(seconds < 20);  // 0.5 s here in Release; 57 s with chains alone
}
