// parse_obj against tinyobjloader's LoadObj, which it replaced for speed: the same numbers (bit for
// bit), corners, faces, materials and smoothing groups on the corpus and on quirky lines, so that
// every OBJ bakes to the bytes it baked to before; and its own errors naming the line.
#include "corpus_files.h"
#include "import/mtl_materials.h"
#include "import/obj_parse.h"

#include <tiny_obj_loader.h>
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// .mtl files read from `folder` (root-relative names are file names there).
baker::ImportInputs inputs_in(const std::string& folder) {
  baker::ImportInputs inputs;
  inputs.read_file = [folder](const std::string& path) -> std::optional<std::string> {
    std::vector<std::byte> bytes = test::file_bytes(folder + "/" + path);
    if (bytes.empty()) return std::nullopt;
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  };
  inputs.texture_name = [](const std::string&, baker::TextureRole, std::string&) {
    return std::nullopt;
  };
  return inputs;
}

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  // memcmp takes no null pointer, even for 0 bytes: empty vectors may hold one.
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// parse_obj of `text` as the file `path` (no material library loads) into `g`.
baker::BakeStatus parse_text(const std::string& text, baker::ObjGeometry& g,
                             const std::string& path = "models/a.obj") {
  baker::ImportInputs inputs = inputs_in(".");
  std::vector<std::string> warnings;
  std::vector<tinyobj::material_t> materials;
  baker::MtlLibraries reader(path, inputs, warnings);
  return baker::parse_obj(text, path, reader, materials, g);
}

// Parses `text` both ways and checks they agree; returns parse_obj's status.
baker::BakeStatus check_same_as_tinyobjloader(const std::string& text,
                                              const std::string& folder = ".") {
  INFO(text.substr(0, 200));
  baker::ImportInputs inputs = inputs_in(folder);
  std::vector<std::string> warnings;

  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> tiny_materials;
  std::string warn, err;
  std::istringstream stream(baker::escape_mtllib_lines(text));
  baker::MtlLibraries tiny_reader("x.obj", inputs, warnings);
  bool loaded = tinyobj::LoadObj(&attrib, &shapes, &tiny_materials, &warn, &err, &stream,
                                 &tiny_reader, false, false);

  baker::ObjGeometry g;
  std::vector<tinyobj::material_t> materials;
  baker::MtlLibraries reader("x.obj", inputs, warnings);
  baker::BakeStatus status = baker::parse_obj(text, "x.obj", reader, materials, g);
  CHECK(status.ok() == loaded);
  if (!loaded || !status.ok()) return status;

  CHECK(same_floats(g.positions, attrib.vertices));
  CHECK(same_floats(g.normals, attrib.normals));
  CHECK(same_floats(g.uvs, attrib.texcoords));
  CHECK(same_floats(g.colors, attrib.colors));
  CHECK(materials.size() == tiny_materials.size());
  size_t face = 0, corner = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    size_t at = 0;
    for (size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f, ++face) {
      REQUIRE(face < g.faces.size());
      const baker::ObjFace& ours = g.faces[face];
      CHECK(ours.corner_count % 256 == shape.mesh.num_face_vertices[f]);
      CHECK(ours.material == shape.mesh.material_ids[f]);
      CHECK(ours.smoothing_group == shape.mesh.smoothing_group_ids[f]);
      CHECK(ours.number == f + 1);
      CHECK(g.group_names[ours.group] == shape.name);
      for (size_t k = 0; k < ours.corner_count; ++k, ++corner) {
        const tinyobj::index_t& theirs = shape.mesh.indices[at + k];
        const baker::ObjCorner& c = g.corners[ours.first_corner + k];
        // A relative index before the first element: tinyobjloader keeps its value (-1 then
        // reads as "none"), parse_obj reads kBeforeFirst (out of range either way).
        auto same = [](int ours_index, int their_index) {
          return ours_index == their_index ||
                 (ours_index == baker::kBeforeFirst && their_index < 0);
        };
        CHECK(same(c.position, theirs.vertex_index));
        CHECK(same(c.uv, theirs.texcoord_index));
        CHECK(same(c.normal, theirs.normal_index));
      }
      at += ours.corner_count;
    }
  }
  CHECK(face == g.faces.size());
  CHECK(corner == g.corners.size());
  return status;
}

std::string file_text(const fs::path& path) {
  std::vector<std::byte> bytes = test::file_bytes(path.string());
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace

TEST_CASE("parse_obj reads the corpus OBJ files as tinyobjloader does") {
  size_t files = 0;
  for (const char* folder : {"tinyobjloader/models", "common-3d-test-models/data"}) {
    fs::path dir = test::corpus(folder);
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() != ".obj") continue;
      INFO(entry.path().string());
      check_same_as_tinyobjloader(file_text(entry.path()), dir.string());
      ++files;
    }
  }
  if (files == 0) WARN("corpus not found: " << test::corpus(""));
}

TEST_CASE("parse_obj reads numbers to the same bits as tinyobjloader") {
  const char* numbers[] = {
      "0", "-0", "1", "+3.1417e+2", "-0.0E-3", "1.0324", "-1.41", "11e2", ".7e+2", "-.5234", ".",
      "-", "+.", "0.1234567890123456789", "123456789012345678901234567890", "1e-320", "1e", "1e+",
      "1.5e0005", "2.5abc", "abc", "nan", "inf", "1e2147483648", "1e99999999999", "0.000000001",
      "3.4028235e38", "1.17549435e-38",
      // Either side of the reader's power tables (fraction digit 40,
      // exponent +-64): table and std::pow give the same bits.
      "0.123456789012345678901234567890123456789", "0.1234567890123456789012345678901234567891",
      "0.12345678901234567890123456789012345678912", "7e-64", "7e-65", "3.5e-63",
      "0.00000000000000000000000000000000000000000000000000000001e64",
      "0.000000000000000000000000000000000000000000000000000000001e65",
      "-0.000000000000000000000000000000000000000000000000000000012e63"};
  std::string text;
  for (const char* n : numbers) {
    text += std::string("v ") + n + " " + n + " " + n + "\n";
    text += std::string("vt ") + n + " " + n + "\n";
    text += std::string("vn ") + n + " 1 " + n + "\n";
  }
  text += "f 1 2 3\n";
  REQUIRE(check_same_as_tinyobjloader(text).ok());
}

TEST_CASE("coordinates beyond the float range are refused naming the line") {
  // tinyobjloader read them as infinities, which no vertex format holds (a UV of inf baked).
  for (const char* line : {"v 1e400 0 0", "vt 0 -1e400", "vn 1e2147483647 0 0", "vt 1e39 0"}) {
    INFO(line);
    std::vector<std::string> warnings;
    baker::MtlLibraries reader("x.obj", inputs_in("."), warnings);
    std::vector<tinyobj::material_t> materials;
    baker::ObjGeometry g;
    std::string text = std::string("v 0 0 0\nv 1 0 0\n") + line + "\nf 1 2 3\n";
    baker::BakeStatus s = baker::parse_obj(text, "x.obj", reader, materials, g);
    CHECK(s.code == baker::BakeError::InvalidSource);
    CHECK(s.message().find("line 3: coordinate '") != std::string::npos);
    CHECK(s.message().find("does not read as a finite float") != std::string::npos);
  }
}

TEST_CASE("parse_obj reads quirky lines as tinyobjloader does") {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 1\nvn 0 0 1\n";
  const char* cases[] = {
      "f 1 2 3\n",
      "f -4 -3 -2\n",
      "f 1/1 2/2 3/1\n",
      "f 1//1 2//1 3//1\n",
      "f 1/1/1 2/2/1 3/1/1 4/2/1\n",
      "f 1/ 2 3\n",
      "f +1 2 3\n",
      "f 1 2\nf 1 2 3 4\n",
      "\tf\t1 2 3  \r\nf 2 3 4\rf 1 3 4\n",
      "g a b\nf 1 2 3\ng\nf 1 2 3\no  obj name \nf 2 3 4\nf 1 2 4\n",
      "s 1\nf 1 2 3\ns off\nf 1 2 3\ns -4\nf 1 2 3\ns 7x\nf 1 2 3\ns\nf 1 2 3\n",
      "usemtl missing\nf 1 2 3\n",
      "v 1 2 3 0.5 0.5 0.5\nf 1 2 3\n",
      "l 1 2\np 1\nf 1 2 3\n",
      "vw 0 0 0.25 1 0.25\nf 1 2 3\n",
      "t tag 1/0/0 1\nf 1 2 3\n",
      "# f 0 0 0\nf 1 2 3\n",
      "f 1 2 3",
      // Where the one-pass reading of plain faces hands over to the general one.
      "f 000000001 2 3\n",
      "f 0000000001 2 3\n",
      "f 1x 2 3\n",
      "f 1/1/1x 2 3\n",
      "f 1/-1/-1 2/-2/-1 3/-1/-1\n",
      "f 1//-1 -3//1 3//1\n",
      "f 1/1/ 2 3\n",
      "f 1\t2\t\t3\t\n",
  };
  for (const char* c : cases) CHECK(check_same_as_tinyobjloader(tri + c).ok());
  // A NUL ends what is read of a line.
  using namespace std::string_literals;
  CHECK(check_same_as_tinyobjloader(tri + "f 1 2 3\0 4\nv 9 9 9\0 5\nf 1 2 5\n"s).ok());

  // Colours only when every position has one.
  std::string colored = "v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nf 1 2 3\n";
  CHECK(check_same_as_tinyobjloader(colored).ok());
  CHECK(check_same_as_tinyobjloader(colored + "v 1 1 1\n").ok());

  // What tinyobjloader refused is refused.
  for (const char* bad :
       {"f 0 1 2\n", "f 1/0 2 3\n", "f a b c\n", "l 1 0\n", "p 0\n", "vw 0 \n", "vw 0 -1 0.5\n",
        "f 1 2 -0\n", "f 1//0 2//1 3//1\n", "f 1/1/1/ 2 3\n", "f 1 2 3 -\n", "f 1 2 3/\n"}) {
    CHECK_FALSE(check_same_as_tinyobjloader(tri + bad).ok());
  }
}

TEST_CASE("parse_obj names the line of what it refuses") {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  auto parse = [](const std::string& text) {
    baker::ObjGeometry g;
    return parse_text(text, g);
  };
  baker::BakeStatus zero = parse(tri + "f 1 2 3\nf 1 0 2\n");
  CHECK(zero.code == baker::BakeError::InvalidSource);
  CHECK(zero.file == "models/a.obj");
  CHECK(zero.reason.find("line 5: ") == 0);
  baker::BakeStatus wide = parse(tri + "\r\nf 1 2 04294967299\n");
  CHECK(wide.code == baker::BakeError::LimitExceeded);
  CHECK(wide.reason == "line 5: index 4294967299 is beyond 2147483647");
  baker::BakeStatus far_back = parse(tri + "f 1 2 -2147483648\n");
  CHECK(far_back.reason == "line 4: index -2147483648 is beyond -2147483647");
  baker::BakeStatus slashed = parse(tri + "f 1/1 2/1 3/-99999999999\n");
  CHECK(slashed.reason == "line 4: index -99999999999 is beyond -2147483647");
  // A face over the corner limit is refused before its corners are kept: a line of millions of
  // corners must not allocate for them.
  std::string huge = tri + "f";
  for (int i = 0; i < 1000000; ++i) huge += " 1";
  baker::ObjGeometry g;
  baker::BakeStatus over = parse_text(huge, g);
  CHECK(over.code == baker::BakeError::LimitExceeded);
  CHECK(over.reason.find("line 4: a face of 1000000 corners") == 0);
  CHECK(g.corners.capacity() <= 4 * baker::kMaxPolygonCorners);
  baker::BakeStatus joint = parse(tri + "vw 1 -2 0.5\n");
  CHECK(joint.code == baker::BakeError::InvalidSource);
  CHECK(joint.reason.find("line 4: ") == 0);
}

TEST_CASE("a '#' ends a face, line or point wherever it stands") {
  // tinyobjloader refused these lines (it read the '#' as an index); exporters write such comments.
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 1\n";
  auto corners_of = [&](const std::string& text) {
    baker::ObjGeometry g;
    REQUIRE(parse_text(tri + text, g).ok());
    std::vector<int> out;
    for (const baker::ObjFace& f : g.faces) {
      out.push_back(int(f.corner_count));
      for (uint32_t k = 0; k < f.corner_count; ++k) {
        const baker::ObjCorner& c = g.corners[f.first_corner + k];
        out.insert(out.end(), {c.position, c.uv, c.normal});
      }
    }
    return out;
  };
  const std::vector<int> plain = corners_of("f 1/1 2/2 3/1 4/2\n");
  CHECK(corners_of("f 1/1 2/2 3/1 4/2 # quad\n") == plain);
  CHECK(corners_of("f 1/1 2/2 3/1 4/2#quad\n") == plain);
  CHECK(corners_of("f 1/1 2/2 3/1 4/2 #\tf 1 2 3\n") == plain);
  CHECK(corners_of("l 1 2 # edge\nf 1/1 2/2 3/1 4/2\n") == plain);
  CHECK(corners_of("f 1 2 3 #\n") == corners_of("f 1 2 3\n"));
  // A comment cuts a corner short as the line's end would: "1/#" is "1/", refused alike.
  baker::ObjGeometry g;
  baker::BakeStatus cut = parse_text(tri + "f 1/# 2 3\n", g);
  CHECK(cut.code == baker::BakeError::InvalidSource);
  CHECK(cut.reason.find("line 7: ") == 0);
}

TEST_CASE("statements OBJ does not define are counted, the ones it defines skipped quietly") {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n";
  baker::ObjGeometry known;
  REQUIRE(parse_text(tri + "f 1 2 3\nvp 0.5\ncstype bspline\ndeg 3\nparm u 0 1\nend\nlod 1\n"
                           "bevel off\nc_interp on\nusemap -\nmaplib a.map\nshadow_obj s.obj\n"
                           "t crease 2/1 1 2\ns 1\ng\no\ns\nmtllib\nusemtl\nv\n",
                     known)
              .ok());
  CHECK(known.unknown_statements == 0);
  baker::ObjGeometry g;
  REQUIRE(parse_text(tri + "f 1 2 3\nfo 2 4 3\nF 2 4 3\nf1 2 4\nend\n", g).ok());
  CHECK(g.faces.size() == 1);
  CHECK(g.unknown_statements == 3);
  CHECK(g.first_unknown_statement == "fo");
  CHECK(g.first_unknown_line == 6);
}

TEST_CASE("v and vn lines of fewer than 3 coordinates are counted, vt lines of one are not") {
  baker::ObjGeometry g;
  REQUIRE(
      parse_text("v 0 0 0\nv 1 0\nv 0 1 0\nvn 0 1\nvn 0 0 1\nvt 0.5\nv 2 2\nf 1 2 3\n", g).ok());
  CHECK(g.short_lines == 3);
  CHECK(g.positions[5] == 0.0f);  // the missing z of `v 1 0`
  baker::ObjGeometry full;
  REQUIRE(parse_text("v 0 0 0\nv 1 0 0 # z\nv 0 1 0 1\nvn 0 0 1\nvt 0.5\nf 1 2 3\n", full).ok());
  CHECK(full.short_lines == 0);
}
