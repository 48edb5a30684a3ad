// Hostile OBJ/MTL input through the baker's importer (baker::bake_mesh, in memory): faces with
// out-of-range, zero, negative and overflowing indices, .mtl and texture paths that leave the input
// root, bytes that are not UTF-8 in names, degenerate and enormous geometry with LODs and meshlets.
// Each must end in a specific error or a valid mesh, never a crash, and the importer must never ask
// for a file outside the root.
#include "hostile_helpers.h"

#include "bake_mesh.h"

#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>

#include <map>

using namespace assetlib;
using hostile::Bytes;

namespace {

struct Baked {
  Status status;
  MeshInfo info;
  std::vector<std::string> warnings;
  std::vector<std::string> files_read;      // paths given to MeshInputs::read_file
  std::vector<std::string> textures_asked;  // paths given to MeshInputs::texture_exists
};

// Bakes `obj` as `name`; `files` are the other files of the input root (root-relative path -> text).
Baked bake(const std::string& obj, const std::string& name, const std::map<std::string, std::string>& files = {},
           baker::BakeSettings settings = {}) {
  Baked b;
  baker::MeshInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    b.files_read.push_back(path);
    auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  inputs.texture_exists = [&](const std::string& path) {
    b.textures_asked.push_back(path);
    return files.count(path) > 0;
  };
  AssetFile file;
  b.status = baker::bake_mesh(obj, name, inputs, settings, file, b.warnings);
  if (!b.status) return b;
  // What the baker accepts, the loader must read and unpack.
  Status r = read_mesh_info(file, b.info);
  INFO(name << ": the baker wrote a mesh the loader refuses: " << r.message);
  CHECK(r.ok());
  if (!r) return b;
  std::vector<std::byte> vertices(b.info.vertex_buffer_size), indices(b.info.index_buffer_size);
  CHECK(unpack_mesh(b.info, file.blob.data(), file.blob.size(), vertices.data(), vertices.size(), indices.data(),
                    indices.size())
            .ok());
  return b;
}

bool any_contains(const std::vector<std::string>& lines, const std::string& what) {
  for (const std::string& line : lines) {
    if (line.find(what) != std::string::npos) return true;
  }
  return false;
}

const std::string kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

}  // namespace

// FINDING F9: indices beyond int ("f 1 2 4294967299") are wrapped by tinyobjloader's atoi into
// valid ones (3, -1): the mesh bakes with wrong triangles and no error.
TEST_CASE("faces with out-of-range, zero, negative or overflowing indices are refused, naming the file") {
  const char* faces[] = {"f 1 2 4",          "f 1 2 -4",           "f 4 5 6",        "f 1 2 2147483647",
                         "f 1 2 2147483648", "f 1 2 4294967299",   "f 1 2 99999999999999999999",
                         "f 1 2 -2147483648", "f -1 -2 -2147483649", "f 1 2 3 4",     "f 1 2 3 -7"};
  for (const char* face : faces) {
    Baked b = bake(kTriangle + face + "\n", "models/bad.obj");
    INFO(face << " -> " << b.status.message);
    CHECK(b.status.code == ErrorCode::InvalidValue);
    CHECK(b.status.message.rfind("models/bad.obj", 0) == 0);
  }
  // Zero is not an OBJ index: tinyobjloader rejects the file.
  Baked zero = bake(kTriangle + "f 0 1 2\n", "models/zero.obj");
  CHECK(zero.status.code == ErrorCode::InvalidValue);
  // Lines and points only: no triangles.
  Baked lines = bake(kTriangle + "l 1 2 3\np 1\n", "models/lines.obj");
  CHECK(lines.status.code == ErrorCode::InvalidValue);
  CHECK(lines.status.message.find("no triangles") != std::string::npos);
}

TEST_CASE("normal and UV indices that point nowhere are dropped with one warning") {
  for (const char* face : {"f 1/5/5 2/5/5 3/5/5", "f 1//-9 2//-9 3//-9", "f 1/2147483647 2/1 3/1"}) {
    Baked b = bake(kTriangle + "vt 0 0\n" + face + "\n", "models/attr.obj");
    INFO(face << " -> " << b.status.message);
    REQUIRE(b.status.ok());
    CHECK(b.info.index_count == 3);
    CHECK(any_contains(b.warnings, "models/attr.obj: faces reference normals or UVs"));
  }
}

TEST_CASE("the broken OBJ files of the corpus are refused, naming the file") {
  for (const char* file : {"invalid-relative-vertex-index.obj", "invalid-face-definition.obj",
                           "issue-140-zero-face-idx.obj", "line-prim.obj", "points-prim.obj"}) {
    Bytes text = hostile::file_bytes(hostile::corpus(std::string("tinyobjloader/models/") + file));
    REQUIRE(!text.empty());
    Baked b = bake(std::string(text.begin(), text.end()), file);
    INFO(file << " -> " << b.status.message);
    CHECK(b.status.code == ErrorCode::InvalidValue);
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
  const std::map<std::string, std::string> files = {{"models/ok.mtl", mtl}, {"textures/good.png", "png"}};
  for (const char* lib : {"../../evil.mtl", "/etc/passwd", "C:/evil.mtl", "sub/../../../evil.mtl", "./../../evil.mtl",
                          "../../../../../../../../../../etc/passwd", "models/../../../evil.mtl"}) {
    Baked b = bake(std::string("mtllib ") + lib + "\n" + kTriangle + "usemtl m\nf 1 2 3\n", "models/escape.obj", files);
    INFO(lib << " -> " << b.status.message);
    REQUIRE(b.status.ok());  // the mesh still bakes, with the default material
    CHECK(b.files_read.empty());
    CHECK(any_contains(b.warnings, "models/escape.obj: mtllib"));
  }
  // tinyobjloader takes '\' in an mtllib name as an escape and drops it ("..\..\x" -> "....x"):
  // whatever it makes of such names, only paths inside the root may be read.
  for (const char* lib : {"..\\..\\evil.mtl", "C:\\evil.mtl", "\\\\server\\share\\evil.mtl", "..\\ok.mtl"}) {
    Baked b = bake(std::string("mtllib ") + lib + "\n" + kTriangle + "f 1 2 3\n", "models/escape.obj", files);
    INFO(lib << " -> " << b.status.message);
    CHECK(b.status.ok());
    for (const std::string& read : b.files_read) CHECK(is_safe_relative_path(read));
  }
  Baked b = bake("mtllib ok.mtl\n" + kTriangle + "usemtl m\nf 1 2 3\nusemtl n\nf 3 2 1\nusemtl ok\nf 1 3 2\n",
                 "models/tex.obj", files);
  INFO(b.status.message);
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
  CHECK(any_contains(b.warnings, "leaves the input folder"));
  CHECK(any_contains(b.warnings, "absolute path"));
}

// FINDING F7 (docs/robustness.md): JSON can only hold UTF-8, and the asset writer replaces invalid
// bytes with U+FFFD, so a texture whose file name is not UTF-8 is stored under a name that matches
// no file and no manifest entry. Such a name must be refused with a warning (or kept exactly).
TEST_CASE("texture names that are not UTF-8 are refused with a warning, not silently renamed") {
  const std::string bad_name = "textures/t\xff\xfe.png";
  const std::map<std::string, std::string> files = {{"m\xe9.mtl", "newmtl m\xe9\nmap_Kd " + bad_name + "\n"},
                                                    {bad_name, "png"}};
  Baked b = bake("mtllib m\xe9.mtl\n" + kTriangle + "usemtl m\xe9\nf 1 2 3\n", "x.obj", files);
  INFO(b.status.message);
  REQUIRE(b.status.ok());
  REQUIRE(!b.info.materials.empty());
  const std::string& stored = b.info.materials[0].base_color_texture;
  bool kept_exactly = stored == bad_name;
  bool refused_with_warning = stored.empty() && any_contains(b.warnings, "UTF-8");
  INFO("stored texture name: " << stored);
  CHECK((kept_exactly || refused_with_warning));
}

// FINDING F3 (fixed in mesh_lods.cpp): when a level of detail simplifies one submesh to nothing while the others still
// shrink, the next level asks meshopt_simplify for 3 indices out of 0: an assertion (abort) in
// Debian's meshoptimizer. Here a flat grid (simplifies well) shares the mesh with a collinear strip
// (simplifies to nothing).
TEST_CASE("LODs of meshes with a submesh that simplifies to nothing do not abort the baker") {
  std::string obj = "mtllib m.mtl\nusemtl grid\n";
  const int n = 16;
  for (int y = 0; y <= n; ++y) {
    for (int x = 0; x <= n; ++x) obj += "v " + std::to_string(x) + " 0 " + std::to_string(y) + "\n";
  }
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      int i = y * (n + 1) + x + 1;
      obj += "f " + std::to_string(i) + " " + std::to_string(i + n + 1) + " " + std::to_string(i + 1) + "\n";
      obj += "f " + std::to_string(i + 1) + " " + std::to_string(i + n + 1) + " " + std::to_string(i + n + 2) + "\n";
    }
  }
  obj += "usemtl line\nv 100 0 0\nv 101 0 0\nv 102 0 0\nv 103 0 0\nf -4 -3 -2\nf -3 -2 -1\nf -4 -2 -1\n";
  const std::map<std::string, std::string> files = {{"m.mtl", "newmtl grid\nnewmtl line\n"}};
  for (uint32_t lods : {1u, 2u, 3u, 8u}) {
    for (bool optimize : {true, false}) {
      baker::BakeSettings settings;
      settings.mesh.lod_count = lods;
      settings.mesh.optimize = optimize;
      Baked b = bake(obj, "lod.obj", files, settings);
      INFO("lod_count " << lods << " optimize " << optimize << " -> " << b.status.message);
      CHECK(b.status.ok());
    }
  }
  // Found by fuzz_obj_import (fuzz/regressions/fuzz_obj_import/lod-submesh-simplified-to-nothing.obj):
  // three small triangles, one of them degenerate, simplify to nothing at LOD 1.
  const std::string fan =
      "vn 0 0 0\nv 0.146447 0.923880 0.353553\nv 0.000000 0.923880 0.382683\nv -0.146447 0.923880 0.353553\n"
      "v -0.270598 0.923880 0.270598\nv -0.353553 0.923880 0.146447\nv -0.382683 0.923880 0.000000\n"
      "v -0.382683 0.923880 0.000023\nv -0.382683 0.923880 0.000000\nv -0.382683 0.923880 0.000023\n"
      "f 1//1 2//1 3//1\nf 4//1 5//1 6//1\nf 7//1 8//1 9//1\n";
  for (const std::string& tiny : {fan, std::string("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 3 2 1\n"),
                                  std::string("f 3 2 1 3\nv 3\nv 0\nv 2"), kTriangle + "f 1 2 3\nf 1 2 3\nf 1 1 1\n"}) {
    for (const char* format : {"PNCV_F32", "PNCVT_F32"}) {
      for (uint32_t lods : {2u, 8u}) {
        baker::BakeSettings settings;
        settings.mesh.lod_count = lods;
        settings.mesh.meshlets = true;
        settings.mesh.vertex_format = format;
        Baked b = bake(tiny, "lod.obj", {}, settings);
        INFO(tiny << " " << format << " lods " << lods << " -> " << b.status.message);
        CHECK((b.status.ok() || b.status.code == ErrorCode::InvalidValue));
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
  for (const std::string& obj : {std::string("v 3 2\nv\nv\nv 6e37\nf -4 2 -1\n"), std::string("v 0 0 0\nv 1e38 0 0\nv 0 1e38 0\nf 1 2 3\n"),
                                 std::string("v inf nan +inf\nv nan -nan -Inf\nv 3.00 NaN -NaN\nf 1 2 3\n"),
                                 std::string("v 0 0 0\nv 1 0 0\nv 0 1e39 0\nf 1 2 3\n")}) {
    Baked b = bake(obj, "huge.obj", {}, settings);
    INFO(obj << " -> " << b.status.message);
    CHECK(!b.status.ok());
    CHECK(b.status.message.rfind("huge.obj: ", 0) == 0);
  }
}

TEST_CASE("odd but valid OBJ input bakes: n-gons, mixed faces, unknown materials, CRLF, no trailing newline") {
  const char* objs[] = {
      "v 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nv 0 1 0\r\nf 1 2 3 4\r\n",
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 2 0\nvt 0 0\nf 1/1 2/1 3/1 5/1 4/1",
      "mtllib missing.mtl\nusemtl nothing\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nusemtl\nf 3 2 1\n",
      "o a\ng b c\ns 1\nv 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nvn 0 0 1\nf 1//1 2//1 3//1\ns off\nf -1 -2 -3\n",
  };
  for (const char* obj : objs) {
    Baked b = bake(obj, "odd.obj");
    INFO(obj << " -> " << b.status.message);
    CHECK(b.status.ok());
  }
}
