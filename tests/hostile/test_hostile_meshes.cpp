// Hostile OBJ/MTL input through the baker's importer (baker::bake_mesh, in memory): faces with
// out-of-range, zero, negative and overflowing indices, .mtl and texture paths that leave the input
// root, bytes that are not UTF-8 in names, degenerate and enormous geometry with LODs and meshlets.
// Each must end in a specific error or a valid mesh, never a crash, and the importer must never ask
// for a file outside the root.
#include "hostile_helpers.h"

#include "mesh_bake.h"

#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>

#include <map>

using namespace assetlib;
using hostile::Bytes;

namespace {

const std::string kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

}  // namespace

// FINDING F9: indices beyond int ("f 1 2 4294967299") are wrapped by tinyobjloader's atoi into
// valid ones (3, -1): the mesh bakes with wrong triangles and no error.
TEST_CASE(
    "faces with out-of-range, zero, negative or overflowing indices are refused, naming the file") {
  const char* faces[] = {"f 1 2 4",
                         "f 1 2 -4",
                         "f 4 5 6",
                         "f 1 2 2147483647",
                         "f 1 2 2147483648",
                         "f 1 2 4294967299",
                         "f 1 2 99999999999999999999",
                         "f 1 2 -2147483648",
                         "f -1 -2 -2147483649",
                         "f 1 2 3 4",
                         "f 1 2 3 -7"};
  for (const char* face : faces) {
    hostile::BakedMesh b = hostile::bake_obj(kTriangle + face + "\n", "models/bad.obj");
    INFO(face << " -> " << b.status.message());
    CHECK(b.status.blames_source());
    CHECK(b.status.file == "models/bad.obj");
  }
  // Zero is not an OBJ index: tinyobjloader rejects the file.
  hostile::BakedMesh zero = hostile::bake_obj(kTriangle + "f 0 1 2\n", "models/zero.obj");
  CHECK(zero.status.code == baker::BakeError::InvalidSource);
  // Lines and points only: no triangles.
  hostile::BakedMesh lines = hostile::bake_obj(kTriangle + "l 1 2 3\np 1\n", "models/lines.obj");
  CHECK(lines.status.code == baker::BakeError::InvalidSource);
  CHECK(lines.status.message().find("no triangles") != std::string::npos);
}

TEST_CASE("normal and UV indices that point nowhere are dropped with one warning") {
  for (const char* face :
       {"f 1/5/5 2/5/5 3/5/5", "f 1//-9 2//-9 3//-9", "f 1/2147483647 2/1 3/1",
        // One UV: -2 reaches one before it (a 0-based -1, once taken for "no UV").
        "f 1/-2 2/-2 3/-2", "f 1/-2/ 2/1 3/1"}) {
    hostile::BakedMesh b =
        hostile::bake_obj(kTriangle + "vt 0 0\n" + face + "\n", "models/attr.obj");
    INFO(face << " -> " << b.status.message());
    REQUIRE(b.status.ok());
    CHECK(b.info.index_count == 3);
    CHECK(hostile::any_contains(b.warnings, "models/attr.obj: faces reference normals or UVs"));
  }
}

TEST_CASE("the broken OBJ files of the corpus are refused, naming the file") {
  for (const char* file : {"invalid-relative-vertex-index.obj", "invalid-face-definition.obj",
                           "issue-140-zero-face-idx.obj", "line-prim.obj", "points-prim.obj"}) {
    Bytes text = hostile::file_bytes(hostile::corpus(std::string("tinyobjloader/models/") + file));
    REQUIRE(!text.empty());
    hostile::BakedMesh b = hostile::bake_obj(std::string(text.begin(), text.end()), file);
    INFO(file << " -> " << b.status.message());
    CHECK(b.status.code == baker::BakeError::InvalidSource);
  }
}

TEST_CASE("mtllib and texture paths that leave the input root are refused and never read") {
  const std::string mtl =
      "newmtl m\n"
      "Kd 1 0 0\n"
      "map_Kd ../../secret.png\n"
      "norm /etc/passwd\n"
      "bump C:/Windows/x.png\n"
      "map_Ks ..\\..\\..\\x.png\n"
      "newmtl n\n"
      "map_Kd -bm 0.5 -clamp on ../../../../x.png\n"
      "norm textures/../../../y.png\n"
      "newmtl ok\n"
      "map_Kd ../textures/good.png\n";
  const std::map<std::string, std::string> files = {{"models/ok.mtl", mtl},
                                                    {"textures/good.png", "png"}};
  for (const char* lib :
       {"../../evil.mtl", "/etc/passwd", "C:/evil.mtl", "sub/../../../evil.mtl", "./../../evil.mtl",
        "../../../../../../../../../../etc/passwd", "models/../../../evil.mtl"}) {
    hostile::BakedMesh b =
        hostile::bake_obj(std::string("mtllib ") + lib + "\n" + kTriangle + "usemtl m\nf 1 2 3\n",
                          "models/escape.obj", files);
    INFO(lib << " -> " << b.status.message());
    REQUIRE(b.status.ok());  // the mesh still bakes, with the default material
    CHECK(b.files_read.empty());
    CHECK(hostile::any_contains(b.warnings, "models/escape.obj: mtllib"));
  }
  // tinyobjloader takes '\' in an mtllib name as an escape and drops it ("..\..\x" -> "....x"):
  // whatever it makes of such names, only paths inside the root may be read.
  for (const char* lib :
       {"..\\..\\evil.mtl", "C:\\evil.mtl", "\\\\server\\share\\evil.mtl", "..\\ok.mtl"}) {
    hostile::BakedMesh b = hostile::bake_obj(
        std::string("mtllib ") + lib + "\n" + kTriangle + "f 1 2 3\n", "models/escape.obj", files);
    INFO(lib << " -> " << b.status.message());
    CHECK(b.status.ok());
    for (const std::string& read : b.files_read) CHECK(is_safe_relative_path(read));
  }
  hostile::BakedMesh b = hostile::bake_obj(
      "mtllib ok.mtl\n" + kTriangle + "usemtl m\nf 1 2 3\nusemtl n\nf 3 2 1\nusemtl ok\nf 1 3 2\n",
      "models/tex.obj", files);
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  CHECK(b.files_read == std::vector<std::string>{"models/ok.mtl"});
  for (const std::string& asked : b.textures_asked) {
    INFO(asked);
    CHECK(is_safe_relative_path(asked));
  }
  for (const MeshMaterial& m : b.info.materials) {
    INFO(m.name);
    if (m.name == "ok") {
      CHECK(m.base_color_texture == "textures/good.png");
    } else {
      CHECK(m.base_color_texture.empty());
      CHECK(m.normal_texture.empty());
    }
  }
  CHECK(hostile::any_contains(b.warnings, "leaves the input folder"));
  CHECK(hostile::any_contains(b.warnings, "absolute path"));
}

// FINDING F7 (docs/robustness.md): JSON can only hold UTF-8, and the asset writer replaces invalid
// bytes with U+FFFD, so a texture whose file name is not UTF-8 is stored under a name that matches
// no file and no manifest entry. Such a name must be refused with a warning (or kept exactly).
TEST_CASE("texture names that are not UTF-8 are refused with a warning, not silently renamed") {
  const std::string bad_name = "textures/t\xff\xfe.png";
  const std::map<std::string, std::string> files = {
      {"m\xe9.mtl", "newmtl m\xe9\nmap_Kd " + bad_name + "\n"}, {bad_name, "png"}};
  hostile::BakedMesh b = hostile::bake_obj(
      "mtllib m\xe9.mtl\n" + kTriangle + "usemtl m\xe9\nf 1 2 3\n", "x.obj", files);
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  REQUIRE(!b.info.materials.empty());
  const std::string& stored = b.info.materials[0].base_color_texture;
  bool kept_exactly = stored == bad_name;
  bool refused_with_warning = stored.empty() && hostile::any_contains(b.warnings, "UTF-8");
  INFO("stored texture name: " << stored);
  CHECK((kept_exactly || refused_with_warning));
}

// FINDING F3 (fixed in mesh_lods.cpp): when a level of detail simplifies one submesh to nothing
// while the others still shrink, the next level asks meshopt_simplify for 3 indices out of 0: an
// assertion (abort) in Debian's meshoptimizer. Here a flat grid (simplifies well) shares the mesh
// with a collinear strip (simplifies to nothing).
TEST_CASE("LODs of meshes with a submesh that simplifies to nothing do not abort the baker") {
  std::string obj = "mtllib m.mtl\nusemtl grid\n";
  const int n = 16;
  for (int y = 0; y <= n; ++y) {
    for (int x = 0; x <= n; ++x) obj += "v " + std::to_string(x) + " 0 " + std::to_string(y) + "\n";
  }
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      int i = y * (n + 1) + x + 1;
      obj += "f " + std::to_string(i) + " " + std::to_string(i + n + 1) + " " +
             std::to_string(i + 1) + "\n";
      obj += "f " + std::to_string(i + 1) + " " + std::to_string(i + n + 1) + " " +
             std::to_string(i + n + 2) + "\n";
    }
  }
  obj +=
      "usemtl line\nv 100 0 0\nv 101 0 0\nv 102 0 0\nv 103 0 0\nf -4 -3 -2\nf -3 -2 -1\nf -4 -2 "
      "-1\n";
  const std::map<std::string, std::string> files = {{"m.mtl", "newmtl grid\nnewmtl line\n"}};
  for (uint32_t lods : {1u, 2u, 3u, 8u}) {
    for (bool optimize : {true, false}) {
      baker::BakeSettings settings;
      settings.mesh.lod_count = lods;
      settings.mesh.optimize = optimize;
      hostile::BakedMesh b = hostile::bake_obj(obj, "lod.obj", files, settings);
      INFO("lod_count " << lods << " optimize " << optimize << " -> " << b.status.message());
      CHECK(b.status.ok());
    }
  }
  // Found by fuzz_obj_import
  // (fuzz/regressions/fuzz_obj_import/lod-submesh-simplified-to-nothing.obj): three small
  // triangles, one of them degenerate, simplify to nothing at LOD 1.
  const std::string fan =
      "vn 0 0 0\nv 0.146447 0.923880 0.353553\nv 0.000000 0.923880 0.382683\nv -0.146447 0.923880 "
      "0.353553\n"
      "v -0.270598 0.923880 0.270598\nv -0.353553 0.923880 0.146447\nv -0.382683 0.923880 "
      "0.000000\n"
      "v -0.382683 0.923880 0.000023\nv -0.382683 0.923880 0.000000\nv -0.382683 0.923880 "
      "0.000023\n"
      "f 1//1 2//1 3//1\nf 4//1 5//1 6//1\nf 7//1 8//1 9//1\n";
  for (const std::string& tiny :
       {fan, std::string("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 3 2 1\n"),
        std::string("f 3 2 1 3\nv 3\nv 0\nv 2"), kTriangle + "f 1 2 3\nf 1 2 3\nf 1 1 1\n"}) {
    for (const char* format : {"PNCV_F32", "PNCVT_F32"}) {
      for (uint32_t lods : {2u, 8u}) {
        baker::BakeSettings settings;
        settings.mesh.lod_count = lods;
        settings.mesh.meshlets = true;
        settings.mesh.vertex_format = format;
        hostile::BakedMesh b = hostile::bake_obj(tiny, "lod.obj", {}, settings);
        INFO(tiny << " " << format << " lods " << lods << " -> " << b.status.message());
        CHECK((b.status.ok() || b.status.blames_source()));
      }
    }
  }
}

// FINDING F5 (fixed in pack_mesh): finite positions so large that the bounding radius overflows a
// float were baked with "radius": null, a mesh the loader then refused. Non-finite and enormous
// positions must be refused, with meshlets and LODs on (they must not reach meshoptimizer's
// assertions either).
TEST_CASE("non-finite and enormous positions are refused, with meshlets and LODs on") {
  baker::BakeSettings settings;
  settings.mesh.meshlets = true;
  settings.mesh.lod_count = 2;
  for (const std::string& obj :
       {std::string("v 3 2\nv\nv\nv 6e37\nf -4 2 -1\n"),
        std::string("v 0 0 0\nv 1e38 0 0\nv 0 1e38 0\nf 1 2 3\n"),
        std::string("v inf nan +inf\nv nan -nan -Inf\nv 3.00 NaN -NaN\nf 1 2 3\n"),
        std::string("v 0 0 0\nv 1 0 0\nv 0 1e39 0\nf 1 2 3\n")}) {
    hostile::BakedMesh b = hostile::bake_obj(obj, "huge.obj", {}, settings);
    INFO(obj << " -> " << b.status.message());
    CHECK(!b.status.ok());
    CHECK(b.status.message().rfind("huge.obj: ", 0) == 0);
  }
}

TEST_CASE(
    "odd but valid OBJ input bakes: n-gons, mixed faces, unknown materials, CRLF, no trailing "
    "newline") {
  const char* objs[] = {
      "v 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nv 0 1 0\r\nf 1 2 3 4\r\n",
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 2 0\nvt 0 0\nf 1/1 2/1 3/1 5/1 4/1",
      "mtllib missing.mtl\nusemtl nothing\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nusemtl\nf 3 2 1\n",
      "o a\ng b c\ns 1\nv 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nvn 0 0 1\nf 1//1 2//1 3//1\ns "
      "off\nf -1 -2 -3\n",
  };
  for (const char* obj : objs) {
    hostile::BakedMesh b = hostile::bake_obj(obj, "odd.obj");
    INFO(obj << " -> " << b.status.message());
    CHECK(b.status.ok());
  }
}
