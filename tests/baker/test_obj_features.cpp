// OBJ files that tinyobjloader alone reads wrongly: concave polygons (fanned over their holes),
// UTF-16 text (read as "no triangles"), `mtllib` names with spaces (split into bogus names). The
// truth each test compares with is computed here from the outline or the text, independently of
// the importer.
#include "import/obj_import.h"
#include "import/text_encoding.h"
#include "mesh/polygon_triangulation.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

using baker::Vec3;
using baker::operator-;

namespace {

// Twice the signed area of the 2D outline (x, y), by the shoelace formula.
double shoelace2(const std::vector<Vec3>& outline) {
  double sum = 0;
  for (size_t i = 0; i < outline.size(); ++i) {
    const Vec3& a = outline[i];
    const Vec3& b = outline[(i + 1) % outline.size()];
    sum += double(a[0]) * b[1] - double(b[0]) * a[1];
  }
  return sum;
}

double cross2(const Vec3& o, const Vec3& a, const Vec3& b) {
  return (double(a[0]) - o[0]) * (double(b[1]) - o[1]) -
         (double(a[1]) - o[1]) * (double(b[0]) - o[0]);
}

// Even-odd test of a point against a 2D outline.
bool inside(const std::vector<Vec3>& outline, double x, double y) {
  bool in = false;
  for (size_t i = 0, j = outline.size() - 1; i < outline.size(); j = i++) {
    double xi = outline[i][0], yi = outline[i][1], xj = outline[j][0], yj = outline[j][1];
    if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
  }
  return in;
}

// The triangulation of a simple 2D outline: n - 2 triangles, all turning the outline's way, their
// areas adding up to the outline's, each centroid inside the outline.
void require_exact_cover(const std::vector<Vec3>& outline) {
  std::vector<uint32_t> corners;
  REQUIRE(baker::triangulate_polygon(outline, corners));
  REQUIRE(corners.size() == 3 * (outline.size() - 2));
  double area = 0, sign = shoelace2(outline) > 0 ? 1 : -1;
  for (size_t t = 0; t < corners.size(); t += 3) {
    const Vec3& a = outline[corners[t]];
    const Vec3& b = outline[corners[t + 1]];
    const Vec3& c = outline[corners[t + 2]];
    double twice = cross2(a, b, c) * sign;
    CHECK(twice >= 0);
    area += twice;
    if (twice > 0) {
      CHECK(inside(outline, (double(a[0]) + b[0] + c[0]) / 3, (double(a[1]) + b[1] + c[1]) / 3));
    }
  }
  CHECK(area == Approx(std::fabs(shoelace2(outline))).epsilon(1e-9));
}

std::vector<Vec3> star(size_t points, float outer, float inner) {
  std::vector<Vec3> out;
  for (size_t i = 0; i < 2 * points; ++i) {
    double angle = M_PI * double(i) / double(points);
    float r = i % 2 ? inner : outer;
    out.push_back({r * float(std::cos(angle)), r * float(std::sin(angle)), 0});
  }
  return out;
}

// A square ring (1 x 1 outside, a 0.5 x 0.5 hole: area 0.75) as one face, cut open by a bridge
// edge walked both ways: how modellers export a face with a hole.
std::vector<Vec3> ring() {
  return {{0, 0, 0},         {1, 0, 0},         {1, 1, 0},         {0, 1, 0},
          {0, 0, 0},         {0.25f, 0.25f, 0}, {0.25f, 0.75f, 0}, {0.75f, 0.75f, 0},
          {0.75f, 0.25f, 0}, {0.25f, 0.25f, 0}};
}

struct Imported {
  baker::BakeStatus status;
  baker::ImportedMesh mesh;
  std::vector<assetlib::MaterialInfo> materials;
  std::vector<std::string> warnings;
  // Corner i of the triangles (the importer gives them indexed into its vertices).
  size_t corner_count() const {
    return mesh.corners.empty() ? mesh.soup.size() : mesh.corners.size();
  }
  const baker::MeshVertex& corner(size_t i) const {
    return mesh.corners.empty() ? mesh.soup[i] : mesh.soup[mesh.corners[i]];
  }
  double area() const {
    double sum = 0;
    for (size_t i = 0; i + 2 < corner_count(); i += 3) {
      double e1[3], e2[3];
      for (int k = 0; k < 3; ++k) {
        e1[k] = double(corner(i + 1).position[k]) - corner(i).position[k];
        e2[k] = double(corner(i + 2).position[k]) - corner(i).position[k];
      }
      double c[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                     e1[0] * e2[1] - e1[1] * e2[0]};
      sum += std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / 2;
    }
    return sum;
  }
};

Imported import(const std::string& text, const std::map<std::string, std::string>& files = {}) {
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  inputs.texture_name = [](const std::string&, baker::TextureRole, std::string&) {
    return std::nullopt;
  };
  Imported out;
  out.status =
      baker::import_obj(text, "models/part.obj", inputs, out.mesh, out.materials, out.warnings);
  return out;
}

std::string obj_of(const std::vector<Vec3>& outline) {
  std::string text;
  for (const Vec3& p : outline)
    text += "v " + std::to_string(p[0]) + " " + std::to_string(p[1]) + " " + std::to_string(p[2]) +
            "\n";
  text += "f";
  for (size_t i = 1; i <= outline.size(); ++i) {
    text += ' ';
    text += std::to_string(i);
  }
  return text + "\n";
}

std::string utf16(const std::string& ascii, bool little, bool mark) {
  std::string out = mark ? (little ? std::string("\xff\xfe") : std::string("\xfe\xff")) : "";
  for (char c : ascii) {
    out += little ? std::string{c, '\0'} : std::string{'\0', c};
  }
  return out;
}

}  // namespace

TEST_CASE("concave polygons are covered exactly, in the outline's winding") {
  SECTION("an L") {
    require_exact_cover({{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 0}, {1, 2, 0}, {0, 2, 0}});
  }
  SECTION("a star, both windings") {
    std::vector<Vec3> s = star(5, 1.0f, 0.38f);
    require_exact_cover(s);
    std::reverse(s.begin(), s.end());
    require_exact_cover(s);
  }
  SECTION("a comb") {
    std::vector<Vec3> comb = {{0, 0, 0}};
    for (int tooth = 0; tooth < 6; ++tooth) {
      float x = float(tooth);
      comb.insert(comb.end(),
                  {{x + 0.2f, 0, 0}, {x + 0.2f, 3, 0}, {x + 0.8f, 3, 0}, {x + 0.8f, 0, 0}});
    }
    comb.insert(comb.end(), {{6, 0, 0}, {6, -1, 0}, {0, -1, 0}});
    require_exact_cover(comb);
  }
  SECTION("a concave quad (a dart)") {
    require_exact_cover({{0, 0, 0}, {2, 1, 0}, {0, 2, 0}, {0.5f, 1, 0}});
  }
  SECTION("a ring cut open by a bridge edge (area 0.75, no triangle over the hole)") {
    require_exact_cover(ring());
    CHECK(std::fabs(shoelace2(ring())) / 2 == Approx(0.75));
  }
  SECTION("a 1000-pointed star, within the test budget") {
    require_exact_cover(star(500, 10.0f, 9.0f));
  }
}

TEST_CASE("a polygon in any plane keeps its facing") {
  // The L standing in the x = 1 plane facing -x: every triangle's normal must face -x too.
  std::vector<Vec3> l = {{1, 0, 0}, {1, 0, 2}, {1, 1, 2}, {1, 1, 1}, {1, 2, 1}, {1, 2, 0}};
  std::vector<uint32_t> corners;
  REQUIRE(baker::triangulate_polygon(l, corners));
  for (size_t t = 0; t < corners.size(); t += 3) {
    Vec3 n = baker::cross(l[corners[t + 1]] - l[corners[t]], l[corners[t + 2]] - l[corners[t]]);
    CHECK(n[0] < 0);
  }
}

TEST_CASE("a self-crossing polygon is reported: no triangulation covers it exactly") {
  // An outline that winds round twice, then crosses itself to close: every ear turns the right
  // way, but the inner turn is covered twice.
  std::vector<Vec3> spiral;
  for (int i = 0; i < 24; ++i) {
    double angle = M_PI * double(i) / 6, r = 1.0 - 0.02 * i;
    spiral.push_back({float(r * std::cos(angle)), float(r * std::sin(angle)), 0});
  }
  std::vector<uint32_t> spiral_corners;
  CHECK_FALSE(baker::triangulate_polygon(spiral, spiral_corners));
  CHECK(spiral_corners.size() == 3 * 22);
  std::vector<Vec3> bowtie = {{0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0}, {0.5f, -1, 0}};
  std::vector<uint32_t> corners;
  CHECK_FALSE(baker::triangulate_polygon(bowtie, corners));
  CHECK(corners.size() == 9);
  Imported i = import(obj_of(bowtie));
  REQUIRE(i.status.ok());
  REQUIRE(i.warnings.size() == 1);
  CHECK(i.warnings[0].find("models/part.obj: 1 polygon(s) whose outline crosses itself") == 0);
}

TEST_CASE("a self-crossing polygon whose lobes cancel out is reported, a flat one is not") {
  // Equal lobes: the outline's net area is zero, yet it has area to cover.
  for (const std::vector<Vec3>& bowtie :
       {std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}},
        std::vector<Vec3>{{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 2, 0}, {0, 3, 0}, {2, 3, 0}}}) {
    std::vector<uint32_t> corners;
    CHECK_FALSE(baker::triangulate_polygon(bowtie, corners));
    CHECK(corners.size() == 3 * (bowtie.size() - 2));
    Imported i = import(obj_of(bowtie));
    REQUIRE(i.status.ok());
    REQUIRE(i.warnings.size() == 1);
    CHECK(i.warnings[0].find("polygon(s) whose outline crosses itself") != std::string::npos);
  }
  // Every corner on one line: nothing to cover, nothing to say.
  std::vector<Vec3> line = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  std::vector<uint32_t> corners;
  CHECK(baker::triangulate_polygon(line, corners));
  CHECK(corners.size() == 6);
}

TEST_CASE("an OBJ with concave faces bakes their true area") {
  // 256 and 300 corners: past the 255 that tinyobjloader's byte-sized corner count holds.
  for (const auto& outline :
       {ring(), star(5, 1.0f, 0.38f), star(128, 1.0f, 0.8f), star(150, 1.0f, 0.8f)}) {
    Imported i = import(obj_of(outline));
    INFO(i.status.message());
    REQUIRE(i.status.ok());
    CHECK(i.corner_count() == 3 * (outline.size() - 2));
    CHECK(i.area() == Approx(std::fabs(shoelace2(outline)) / 2).epsilon(1e-5));
    CHECK(i.warnings.empty());
  }
}

TEST_CASE("UTF-16 and byte-order-marked OBJ text bakes like UTF-8") {
  const std::string text = "# a quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
  Imported plain = import(text);
  REQUIRE(plain.status.ok());
  REQUIRE(plain.corner_count() == 6);
  for (const auto& [name, encoded] :
       {std::pair{"UTF-16LE with BOM", utf16(text, true, true)},
        std::pair{"UTF-16BE with BOM", utf16(text, false, true)},
        std::pair{"UTF-16LE without BOM", utf16(text, true, false)},
        std::pair{"UTF-8 with BOM", std::string("\xef\xbb\xbf").append(text)}}) {
    INFO(name);
    Imported i = import(encoded);
    INFO(i.status.message());
    REQUIRE(i.status.ok());
    CHECK(i.corner_count() == plain.corner_count());
    CHECK(i.area() == Approx(1.0));
  }
  Imported utf32 = import(std::string("\xff\xfe\0\0v\0\0\0", 8));
  CHECK(utf32.status.code == baker::BakeError::UnsupportedFeature);
  CHECK(utf32.status.message().find("UTF-32") != std::string::npos);
}

TEST_CASE("utf8_view reads UTF-8 text where it lies and converts only UTF-16") {
  const std::string text = "\xef\xbb\xbfv 0 0 0\n";
  std::string storage;
  std::string_view view;
  REQUIRE(baker::utf8_view(text, "a.obj", storage, view).ok());
  CHECK(view.data() == text.data() + 3);  // past the byte-order mark, not a copy
  CHECK(view == "v 0 0 0\n");
  CHECK(storage.empty());
  const std::string wide = utf16("v 0 0 0\n", true, true);
  REQUIRE(baker::utf8_view(wide, "a.obj", storage, view).ok());
  CHECK(view.data() == storage.data());
  CHECK(view == "v 0 0 0\n");
  std::string copied;
  REQUIRE(baker::utf8_text(wide, "a.obj", copied).ok());
  CHECK(copied == "v 0 0 0\n");
}

TEST_CASE("mtllib takes the rest of the line as one name, and still reads lists of names") {
  const std::string faces = "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Red\nf 1 2 3\n";
  const std::string red = "newmtl Red\nKd 1 0 0\n";
  SECTION("a name with spaces") {
    Imported i = import("mtllib My Model Materials.mtl \n" + faces,
                        {{"models/My Model Materials.mtl", red}});
    INFO(i.status.message());
    REQUIRE(i.status.ok());
    CHECK(i.warnings.empty());
    REQUIRE(i.materials.size() == 1);
    CHECK(i.materials[0].name == "Red");
  }
  SECTION("a list of names, one of them missing") {
    Imported i = import("mtllib missing.mtl red.mtl\n" + faces, {{"models/red.mtl", red}});
    REQUIRE(i.status.ok());
    CHECK(i.warnings.empty());
    REQUIRE(i.materials.size() == 1);
    CHECK(i.materials[0].name == "Red");
  }
  SECTION("tabs and spaces after the keyword") {
    Imported i = import("mtllib \t red.mtl\n" + faces, {{"models/red.mtl", red}});
    REQUIRE(i.status.ok());
    CHECK(i.warnings.empty());
    REQUIRE(i.materials.size() == 1);
  }
  SECTION("a space escaped as tinyobjloader reads it") {
    Imported i = import("mtllib My\\ Model.mtl\n" + faces, {{"models/My Model.mtl", red}});
    INFO(i.status.message());
    REQUIRE(i.status.ok());
    CHECK(i.warnings.empty());
    REQUIRE(i.materials.size() == 1);
    CHECK(i.materials[0].name == "Red");
  }
  SECTION("a name with spaces that does not exist warns once, naming the whole line") {
    Imported i = import("mtllib My Model Materials.mtl\n" + faces);
    REQUIRE(i.status.ok());
    REQUIRE(i.warnings.size() == 2);
    CHECK(i.warnings[0].find("'My Model Materials.mtl' not found") != std::string::npos);
    CHECK(i.warnings[1].find("(first: 'Red')") != std::string::npos);
  }
}

TEST_CASE("usemtl takes the rest of the line as the material's name, as newmtl does") {
  // "wood" and "wood dark" are both defined: the second face is drawn with the second, blue.
  const std::map<std::string, std::string> library = {
      {"models/wood.mtl", "newmtl wood\nKd 1 0 0\nnewmtl wood dark\nKd 0 0 1\n"}};
  Imported i = import(
      "mtllib wood.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n"
      "usemtl wood\nf 1 2 3\nusemtl wood dark \t\nf 2 4 3\n",
      library);
  INFO(i.status.message());
  REQUIRE(i.status.ok());
  CHECK(i.warnings.empty());
  REQUIRE(i.materials.size() == 2);
  REQUIRE(i.mesh.submeshes.size() == 2);
  CHECK(i.materials[i.mesh.submeshes[1].material].name == "wood dark");
  CHECK(i.materials[i.mesh.submeshes[1].material].base_color_factor[2] == 1.0f);
}

TEST_CASE("newmtl names are read without the blanks around them, as usemtl names are") {
  // tinyobjloader's LoadMtl took "newmtl  red" (two blanks) as " red", which no usemtl named.
  const std::map<std::string, std::string> library = {
      {"models/c.mtl", "newmtl  red\nKd 1 0 0\nnewmtl\tblue \t\nKd 0 0 1\n"}};
  Imported i = import(
      "mtllib c.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n"
      "usemtl red\nf 1 2 3\nusemtl blue\nf 2 4 3\n",
      library);
  INFO(i.status.message());
  REQUIRE(i.status.ok());
  CHECK(i.warnings.empty());
  REQUIRE(i.mesh.submeshes.size() == 2);
  const auto& red = i.materials[i.mesh.submeshes[0].material];
  const auto& blue = i.materials[i.mesh.submeshes[1].material];
  CHECK(red.name == "red");
  CHECK(red.base_color_factor[0] == 1.0f);
  CHECK(blue.name == "blue");
  CHECK(blue.base_color_factor[2] == 1.0f);
}

TEST_CASE("line continuations and comments after indices read as the format means") {
  const std::string plain = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n";
  Imported expected = import(plain);
  REQUIRE(expected.status.ok());
  // A '\' ending a line joins the next (tinyobjloader read it as a word: "not a number"); a '#'
  // after a face's corners starts a comment. Line ends of either kind.
  for (const std::string& text :
       {std::string("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 \\\n0\nf 1 2 3 # first half\nf 2 \\\n4 3\n"),
        std::string(
            "v 0 0 0\r\nv 1 0 \\\r\n0\r\nv 0 1 0\r\nv 1 1 0\r\nf 1 2 3#\r\nf 2 4 \\\r\n\\\r\n3")}) {
    Imported i = import(text);
    INFO(text);
    INFO(i.status.message());
    REQUIRE(i.status.ok());
    CHECK(i.warnings.empty());
    REQUIRE(i.corner_count() == expected.corner_count());
    for (size_t c = 0; c < i.corner_count(); ++c) {
      for (int k = 0; k < 3; ++k) CHECK(i.corner(c).position[k] == expected.corner(c).position[k]);
    }
  }
  // An error in a continued line names the line it starts on.
  Imported bad = import("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 \\\n2 0\n");
  REQUIRE_FALSE(bad.status.ok());
  CHECK_THAT(bad.status.reason, Catch::StartsWith("line 4: `f' line"));
  // An mtllib line is not joined: its '\' escapes a space of a library name. Nor is a comment
  // (a Windows path at its end), nor a line whose '\' comes after a NUL (the line ends there).
  const std::map<std::string, std::string> red = {{"models/red.mtl", "newmtl Red\nKd 1 0 0\n"}};
  for (const std::string& first :
       {std::string("mtllib red.mtl\\\n"), std::string("# saved to C:\\out\\\n"),
        std::string("g part\0 \\\n", 10)}) {
    Imported i = import(first + plain, red);
    INFO(first);
    INFO(i.status.message());
    REQUIRE(i.status.ok());
    CHECK(i.corner_count() == expected.corner_count());
  }
  // Nor is a continued line joined with an mtllib line after it: the library still loads.
  Imported continued = import("g part \\\nmtllib red.mtl\nusemtl Red\n" + plain, red);
  REQUIRE(continued.status.ok());
  REQUIRE(continued.materials.size() == 1);
  CHECK(continued.materials[0].name == "Red");
}

TEST_CASE("MTL lines tinyobjloader reads otherwise than the format means are read as meant") {
  const std::string library =
      "newmtl grey\nKd 0.5\nKe 2\n"       // one number: grey (it read red)
      "newmtl halo\nd -halo 0.9\n"        // it read '-halo' as 0: invisible
      "newmtl xyz\nKd xyz 0.3 0.4 0.5\n"  // it shifted the numbers along
      "newmtl rest\nmap_kd a.png\nmap_Kd -mm 0 2 a.png\nPc 0.5\nKd 2 0.5 -1\n";
  std::string obj = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n";
  for (const char* name : {"grey", "halo", "xyz", "rest"})
    obj += std::string("usemtl ") + name + "\nf 1 2 3\n";
  Imported i = import(obj, {{"models/m.mtl", library}});
  INFO(i.status.message());
  REQUIRE(i.status.ok());
  auto material = [&](const std::string& name) {
    for (const assetlib::MaterialInfo& m : i.materials) {
      if (m.name == name) return m;
    }
    FAIL("no material " << name);
    return assetlib::MaterialInfo{};
  };
  auto warned = [&](const std::string& what) {
    return std::any_of(i.warnings.begin(), i.warnings.end(),
                       [&](const std::string& w) { return w.find(what) != std::string::npos; });
  };
  const assetlib::MaterialInfo grey = material("grey");
  CHECK(grey.base_color_factor[1] == 0.5f);
  CHECK(grey.base_color_factor[2] == 0.5f);
  CHECK(grey.emissive_factor[2] == 2.0f);
  const assetlib::MaterialInfo halo = material("halo");
  CHECK(halo.base_color_factor[3] == Approx(0.9f));
  CHECK(warned(
      "material 'halo': 'd -halo' (dissolve by facing) is baked as a plain dissolve of 0.9"));
  CHECK(material("xyz").base_color_factor[0] == 1.0f);
  CHECK(warned("material 'xyz': 'Kd xyz ...' (a CIE XYZ or spectral colour) is not read"));
  CHECK(warned("material 'rest': 'map_kd' is not read (keys tell case apart: 'map_Kd')"));
  CHECK(warned("material 'rest': texture option '-mm' of 'map_Kd' is not applied"));
  CHECK(warned("material 'rest': 'Pc' (clearcoat) is not baked: no such slot"));
  CHECK(warned("material 'rest': 'Kd' outside 0..1 clamped"));
}

TEST_CASE("what an OBJ says that its mesh does not carry is warned about") {
  const std::string corners = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  const std::map<std::string, std::string> red = {{"models/red.mtl", "newmtl Red\nKd 1 0 0\n"}};
  auto warned = [](const Imported& i, const std::string& what) {
    INFO(i.status.message());
    REQUIRE(i.status.ok());
    return std::any_of(i.warnings.begin(), i.warnings.end(),
                       [&](const std::string& w) { return w.find(what) != std::string::npos; });
  };
  const std::string unknown = "usemtl names 1 material(s) no material library defines (first: ";
  // A material its libraries lack, or no library at all: the default material, said so once.
  CHECK(warned(import("mtllib red.mtl\n" + corners + "usemtl Blue\nf 1 2 3\nf 3 2 1\n", red),
               unknown + "'Blue'); their faces get the default material"));
  CHECK(warned(import(corners + "usemtl Blue\nf 1 2 3\n"), unknown + "'Blue')"));
  // A defined one, or an unknown name no face uses: nothing to say.
  CHECK(import("mtllib red.mtl\n" + corners + "usemtl Red\nf 1 2 3\n", red).warnings.empty());
  CHECK(import("mtllib red.mtl\n" + corners + "usemtl Red\nf 1 2 3\nusemtl Blue\n", red)
            .warnings.empty());
  // Lines and points beside faces are not baked.
  CHECK(warned(import(corners + "l 1 2\np 3\nf 1 2 3\n"),
               "2 line and point element(s) (`l`, `p`) are not baked"));
  CHECK(import(corners + "f 1 2 3\n").warnings.empty());
  // Faces of one or two corners are no triangles.
  CHECK(warned(import(corners + "f 1 2\nf 3\nf 1 2 3\n"),
               "2 face(s) of fewer than 3 corners are not baked"));
  // Free-form curves and surfaces beside faces are not baked; alone, they are no mesh.
  const std::string patch =
      "vp 0 0\nvp 1 0\ncstype bezier\ndeg 1 1\nsurf 0 1 0 1 1 2 3 1\n"
      "parm u 0 1\nparm v 0 1\nend\ncurv 0 1 1 2\nend\ncurv2 1 2\nend\n";
  CHECK(warned(import(corners + patch + "f 1 2 3\n"),
               "3 free-form curve and surface element(s) (`curv`, `curv2`, `surf`) are not baked"));
  Imported only_patch = import(corners + patch);
  CHECK_FALSE(only_patch.status.ok());
  CHECK_THAT(only_patch.status.reason,
             Catch::Contains("no triangles: its 3 free-form curves and surfaces"));
  // Coordinates that are not numbers read as 0 (as tinyobjloader read them), said so.
  CHECK(warned(import(corners + "v nan inf 0\nvt x 0\nf 1 2 3\nf 1 2 4\n"),
               "3 coordinate(s) are not numbers (nan, inf or text) and were read as 0"));
  // A number with more after it reads up to where it ends ("1,5" is 1: a decimal comma), said so.
  Imported comma = import(corners + "v 1,5 0,25 0\nvt 0x1p-1 0\nf 1 4 3\n");
  CHECK(warned(comma, "3 coordinate(s) go on after their number (first: '1,5'; a decimal comma?)"));
  CHECK(comma.corner(1).position[0] == 1.0f);
}

namespace {

// The materials of a one-triangle OBJ whose library models/m.mtl is `mtl`; every image exists.
std::vector<assetlib::MaterialInfo> mtl_materials(const std::string& mtl) {
  const std::string obj = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n";
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    return path == "models/m.mtl" ? std::optional<std::string>(mtl) : std::nullopt;
  };
  inputs.texture_name = [](const std::string& path, baker::TextureRole, std::string&) {
    return std::optional<std::string>(path);
  };
  Imported i;
  i.status = baker::import_obj(obj, "models/part.obj", inputs, i.mesh, i.materials, i.warnings);
  INFO(i.status.message());
  REQUIRE(i.status.ok());
  REQUIRE(i.materials.size() == 1);
  // Options that change what a map holds (-t, -mm, -cc) are read past and said to be unapplied.
  for (const std::string& w : i.warnings) CHECK(w.find("is not applied") != std::string::npos);
  return i.materials;
}

bool same_slot(const assetlib::TextureSlot& a, const assetlib::TextureSlot& b) {
  return a.texture == b.texture && a.offset[0] == b.offset[0] && a.offset[1] == b.offset[1] &&
         a.scale[0] == b.scale[0] && a.scale[1] == b.scale[1] && a.wrap_u == b.wrap_u;
}

}  // namespace

TEST_CASE("an MTL map with -clamp on samples clamped to the edge") {
  for (const char* clamp : {"-clamp on ", "", "-clamp off "}) {
    INFO(clamp);
    const assetlib::TextureSlot slot =
        mtl_materials(std::string("newmtl M\nmap_Kd ") + clamp + "decal.png\n")[0].base_color;
    CHECK(slot.texture == "models/decal.png");
    const auto expected = std::string(clamp) == "-clamp on " ? assetlib::TextureWrap::ClampToEdge
                                                             : assetlib::TextureWrap::Repeat;
    CHECK(slot.wrap_u == expected);
    CHECK(slot.wrap_v == expected);
  }
}

TEST_CASE("MTL -o, -s and -t with fewer than three numbers, and -cc, keep the texture") {
  // tinyobjloader reads three numbers after each, and took the texture name for the last one.
  const std::pair<const char*, const char*> forms[] = {
      {"map_Kd -o 0.5 0.5 my tex.png", "map_Kd -o 0.5 0.5 0 my tex.png"},
      {"map_Kd -o 0.25 my tex.png", "map_Kd -o 0.25 0 0 my tex.png"},
      {"map_Kd -s 2 2 my tex.png", "map_Kd -s 2 2 1 my tex.png"},
      {"map_Kd -s 3 -o 0.5 0.5 my tex.png", "map_Kd -s 3 1 1 -o 0.5 0.5 0 my tex.png"},
      {"map_Kd -t 0.1 0.1 -clamp on my tex.png", "map_Kd -t 0.1 0.1 0 -clamp on my tex.png"},
      {"map_Kd -cc on my tex.png", "map_Kd my tex.png"},
      {"norm -o 0.1 0.2 my tex.png", "norm -o 0.1 0.2 0 my tex.png"},
      {"bump -bm 0.3 -o 0.5 0.5 my tex.png", "bump -bm 0.3 -o 0.5 0.5 0 my tex.png"},
      {"map_Kd -mm 0.2 my tex.png", "map_Kd -mm 0.2 1 my tex.png"},
      {"map_Kd -o 1 1e-1 -s .5 my tex.png", "map_Kd -o 1 0.1 0 -s 0.5 1 1 my tex.png"}};
  for (const auto& [short_form, full_form] : forms) {
    INFO(short_form);
    const std::string head = "newmtl M\nKd 1 1 1\n";
    assetlib::MaterialInfo got = mtl_materials(head + short_form + "\n")[0];
    assetlib::MaterialInfo want = mtl_materials(head + full_form + "\n")[0];
    const bool normal = short_form[0] != 'm';
    const assetlib::TextureSlot& slot = normal ? got.normal : got.base_color;
    CHECK(slot.texture == "models/my tex.png");
    CHECK(same_slot(slot, normal ? want.normal : want.base_color));
    CHECK(got.normal_scale == want.normal_scale);
  }
  // A name that reads as a number to strtod ("inf", "0x1A") is a name.
  CHECK(mtl_materials("newmtl M\nmap_Kd -o 1 inf\n")[0].base_color.texture == "models/inf");
  // Options and no name: said so.
  const std::string obj = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n";
  Imported nameless = import(obj, {{"models/m.mtl", "newmtl M\nmap_Kd -o 1 2 3\n"}});
  REQUIRE(nameless.status.ok());
  CHECK(std::any_of(nameless.warnings.begin(), nameless.warnings.end(), [](const std::string& w) {
    return w.find("1 texture statement(s) name no file after their options") != std::string::npos;
  }));
  // The offset and scale did arrive (not the defaults).
  assetlib::MaterialInfo moved = mtl_materials("newmtl M\nmap_Kd -s 2 2 -o 0.5 0.5 a.png\n")[0];
  CHECK(moved.base_color.scale[0] == 2.0f);
  CHECK(moved.base_color.offset[0] == 0.5f);
}

TEST_CASE("a usemtl before the mtllib defining its material gets that material") {
  const std::string corners = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  const std::map<std::string, std::string> red = {{"models/red.mtl", "newmtl Red\nKd 1 0 0\n"}};
  // tinyobjloader looked the name up where usemtl stands and gave the face no material.
  Imported late =
      import(corners + "usemtl Red\nf 1 2 3\nmtllib red.mtl\nusemtl Blue\nf 3 2 1\n", red);
  INFO(late.status.message());
  REQUIRE(late.status.ok());
  REQUIRE(late.materials.size() == 2);
  CHECK(late.materials[0].name == "Red");
  CHECK(late.materials[0].base_color_factor[1] == 0.0f);
  CHECK(late.materials[1].name == "default");
  // Only the name no library defines is warned about.
  REQUIRE(late.warnings.size() == 1);
  CHECK_THAT(late.warnings[0], Catch::Contains("usemtl names 1 material(s) no material library "
                                               "defines (first: 'Blue')"));
}

TEST_CASE("a material name that newmtl defines again is warned about, the first definition used") {
  const std::string obj =
      "mtllib a.mtl\nmtllib b.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"
      "usemtl M\nf 1 2 3\n";
  auto redefined = [](const Imported& i, const std::string& library) {
    return std::count_if(i.warnings.begin(), i.warnings.end(), [&](const std::string& w) {
      return w.find("material library '" + library +
                    "': 1 newmtl statement(s) define a name "
                    "again (first: 'M')") != std::string::npos;
    });
  };
  SECTION("within one library") {
    Imported i = import(obj, {{"models/a.mtl", "newmtl M\nKd 1 0 0\nnewmtl M\nKd 0 0 1\n"}});
    REQUIRE(i.status.ok());
    REQUIRE(i.materials.size() == 1);
    CHECK(i.materials[0].base_color_factor[0] == 1.0f);
    CHECK(redefined(i, "models/a.mtl") == 1);
  }
  SECTION("by a later library") {
    Imported i = import(obj, {{"models/a.mtl", "newmtl M\nKd 1 0 0\n"},
                              {"models/b.mtl", "newmtl N\nnewmtl M\nKd 0 0 1\n"}});
    REQUIRE(i.status.ok());
    REQUIRE(i.materials.size() == 1);
    CHECK(i.materials[0].base_color_factor[0] == 1.0f);
    CHECK(redefined(i, "models/a.mtl") == 0);
    CHECK(redefined(i, "models/b.mtl") == 1);
  }
  SECTION("names defined once: nothing to say") {
    Imported i = import(
        obj, {{"models/a.mtl", "newmtl M\nKd 1 0 0\n"}, {"models/b.mtl", "newmtl N\nKd 0 0 1\n"}});
    REQUIRE(i.status.ok());
    CHECK(i.warnings.empty());
  }
}

TEST_CASE("an MTL material without Kd is white: its map_Kd is its colour, undarkened") {
  // tinyobjloader gives 0.6 with a map_Kd and 0 without one.
  CHECK(mtl_materials("newmtl M\nmap_Kd a.png\n")[0].base_color_factor[0] == 1.0f);
  CHECK(mtl_materials("newmtl M\nNs 10\n")[0].base_color_factor[1] == 1.0f);
  CHECK(mtl_materials("newmtl M\nmap_Kd a.png\nKd 0.5 0.25 1\n")[0].base_color_factor[1] == 0.25f);
}

namespace {

// The one material of a triangle drawn with material M of `mtl`, and the warnings.
Imported with_mtl(const std::string& mtl) {
  Imported i = import("mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n",
                      {{"models/m.mtl", mtl}});
  INFO(i.status.message());
  REQUIRE(i.status.ok());
  REQUIRE(i.materials.size() == 1);
  return i;
}

bool warned(const Imported& i, const std::string& what) {
  return std::any_of(i.warnings.begin(), i.warnings.end(),
                     [&](const std::string& w) { return w.find(what) != std::string::npos; });
}

}  // namespace

TEST_CASE("an MTL material of black Kd beside a map_Kd is white, as Maya means it") {
  Imported maya = with_mtl("newmtl M\nillum 4\nKd 0.00 0.00 0.00\nmap_Kd a.png\n");
  CHECK(maya.materials[0].base_color_factor[0] == 1.0f);
  CHECK(maya.materials[0].base_color_factor[2] == 1.0f);
  CHECK(
      warned(maya, "material 'M': 'Kd 0 0 0' beside map_Kd (as Maya writes it) is read as white"));
  // Without a map, black is black; beside one, a colour that is not black tints it.
  Imported black = with_mtl("newmtl M\nKd 0 0 0\n");
  CHECK(black.materials[0].base_color_factor[0] == 0.0f);
  CHECK(black.warnings.empty());
  CHECK(with_mtl("newmtl M\nKd 0 0 0.5\nmap_Kd a.png\n").materials[0].base_color_factor[0] == 0.0f);
}

TEST_CASE("an MTL 'Tr 1' alone is opaque, as MeshLab and openMVS write it for opaque materials") {
  Imported meshlab = with_mtl("newmtl M\nKd 1 1 1\nTr 1.000000\nillum 2\n");
  CHECK(meshlab.materials[0].base_color_factor[3] == 1.0f);
  CHECK(meshlab.materials[0].alpha_mode == assetlib::AlphaMode::Opaque);
  CHECK(warned(meshlab,
               "material 'M': 'Tr 1' (fully transparent) without a 'd' line is read as "
               "opaque"));
  // A d line decides, before or after Tr; a Tr below 1 is a transparency.
  CHECK(with_mtl("newmtl M\nTr 1\nd 0.25\n").materials[0].base_color_factor[3] == 0.25f);
  CHECK(with_mtl("newmtl M\nd 0.25\nTr 1\n").materials[0].base_color_factor[3] == 0.25f);
  Imported half = with_mtl("newmtl M\nTr 0.25\n");
  CHECK(half.materials[0].base_color_factor[3] == 0.75f);
  CHECK(half.warnings.empty());
}

TEST_CASE("an MTL Ks of one number is grey") {
  Imported i = with_mtl("newmtl M\nKd 0.8\nKs 0.5\nNs 50\n");
  REQUIRE(i.mesh.materials.size() == 1);
  for (int k = 0; k < 3; ++k) CHECK(i.mesh.materials[0].specular_color[k] == 0.5f);
}

TEST_CASE("MTL text ending its lines in CR, or CR CR LF, reads as with LF") {
  const std::string lf = "newmtl M\nKd 1 0 0\nPr 0.3\nillum 0\nmap_Kd -o 0.5 0.5 tex.png\n";
  std::string cr = lf, crcrlf;
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  for (char c : lf) crcrlf += c == '\n' ? std::string("\r\r\n") : std::string(1, c);
  const assetlib::MaterialInfo expected = mtl_materials(lf)[0];
  REQUIRE(expected.base_color.texture == "models/tex.png");
  for (const std::string& text : {cr, crcrlf}) {
    const assetlib::MaterialInfo m = mtl_materials(text)[0];
    CHECK(m.base_color_factor[1] == expected.base_color_factor[1]);
    CHECK(m.roughness_factor == expected.roughness_factor);
    CHECK(m.unlit);
    CHECK(same_slot(m.base_color, expected.base_color));
  }
}

TEST_CASE("a material defined twice is baked from its first definition alone") {
  Imported i =
      with_mtl("newmtl M\nKd 0.8 0.1 0.1\nNs 10\nillum 2\n\nnewmtl M\nKd 0.5\nPr 0.9\nillum 0\n");
  CHECK(i.materials[0].base_color_factor[0] == 0.8f);
  CHECK(i.materials[0].base_color_factor[1] == 0.1f);
  CHECK(i.materials[0].roughness_factor == Approx(std::sqrt(2.0 / 12.0)));
  CHECK_FALSE(i.materials[0].unlit);
}

TEST_CASE("an MTL material of illumination model 0 is unlit, every other model lit") {
  // tinyobjloader reads a missing illum as 0 too: only a stated one makes a material unlit.
  CHECK(mtl_materials("newmtl M\nillum 0\nKd 1 0 0\n")[0].unlit);
  CHECK_FALSE(mtl_materials("newmtl M\nKd 1 0 0\n")[0].unlit);
  CHECK_FALSE(mtl_materials("newmtl M\nillum 1\n")[0].unlit);
  CHECK_FALSE(mtl_materials("newmtl M\nillum 2\n")[0].unlit);
  CHECK_FALSE(mtl_materials("newmtl M\nillum\n")[0].unlit);
}

TEST_CASE("OBJ normals are made unit length, and one of no length is generated instead") {
  const std::string corners = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  Imported i = import(corners + "vn 0.3 0.4 5\nvn 0 0 1\nvn 0 0 0\nf 1//1 2//2 3//3\n");
  INFO(i.status.message());
  REQUIRE(i.status.ok());
  const float* scaled = i.corner(0).normal;
  CHECK(scaled[0] == Approx(0.3 / std::sqrt(25.25)));
  CHECK(scaled[2] == Approx(5 / std::sqrt(25.25)));
  CHECK(i.corner(1).normal[2] == 1.0f);  // unit already: as written
  // The zero normal: the face's (the triangle lies in z = 0, facing +z), with a warning.
  CHECK(i.corner(2).normal[2] == Approx(1.0));
  CHECK(std::any_of(i.warnings.begin(), i.warnings.end(), [](const std::string& w) {
    return w.find("1 corner(s) use a normal of no length") != std::string::npos;
  }));
}

TEST_CASE("OBJ vertex colours: dropped with a warning unless every v has one, clamped to 0..1") {
  Imported some = import("v 0 0 0 1 0 0\nv 1 0 0 1 0.5 0\nv 0 1 0\nf 1 2 3\n");
  REQUIRE(some.status.ok());
  CHECK(some.corner(0).color[1] == 1.0f);  // white: dropped
  CHECK(std::any_of(some.warnings.begin(), some.warnings.end(), [](const std::string& w) {
    return w.find("vertex colours dropped: 2 of 3 `v` lines have one") != std::string::npos;
  }));
  Imported bright = import("v 0 0 0 2 0 0\nv 1 0 0 1 0.5 -1\nv 0 1 0 0 0 1\nf 1 2 3\n");
  REQUIRE(bright.status.ok());
  CHECK(bright.corner(0).color[0] == 1.0f);
  CHECK(bright.corner(1).color[1] == 0.5f);
  CHECK(bright.corner(1).color[2] == 0.0f);
  CHECK(std::any_of(bright.warnings.begin(), bright.warnings.end(), [](const std::string& w) {
    return w.find("2 vertex colour component(s) outside 0..1 clamped") != std::string::npos;
  }));
  CHECK(import("v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nf 1 2 3\n").warnings.empty());
}

TEST_CASE("smoothing group numbers of any length are groups of their own") {
  // Two quads meeting at 90 degrees along x = 0, no normals: one group smooths the edge (one normal
  // at the origin), two groups keep it hard (two).
  auto normals_at_origin = [](const std::string& first, const std::string& second) {
    Imported i = import("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 -1\nv 0 1 -1\ns " + first +
                        "\nf 1 2 3 4\ns " + second + "\nf 1 4 6 5\n");
    REQUIRE(i.status.ok());
    std::set<std::array<float, 3>> normals;
    for (size_t c = 0; c < i.corner_count(); ++c) {
      const baker::MeshVertex& v = i.corner(c);
      if (v.position[0] == 0 && v.position[1] == 0 && v.position[2] == 0)
        normals.insert({v.normal[0], v.normal[1], v.normal[2]});
    }
    return normals.size();
  };
  CHECK(normals_at_origin("8", "8") == 1);
  CHECK(normals_at_origin("1", "2") == 2);
  CHECK(normals_at_origin("2147483648", "2147483648") == 1);  // was flat: an int's sign bit
  CHECK(normals_at_origin("1", "4294967297") == 2);           // was group 1: wrapped
  CHECK(normals_at_origin("18446744073709551617", "18446744073709551617") == 1);
  CHECK(normals_at_origin("007", "7") == 1);
  CHECK(normals_at_origin("off", "0") == 2);
}
