// Small OBJ files that made a stage of the mesh bake superlinear (docs/robustness.md, "Baker"):
// huge polygons (tinyobjloader's ear clipping), a vertex shared by 100000 triangles
// (meshoptimizer's vertex cache optimiser, simplifier and meshlet builder), disconnected and
// far-apart triangles (the meshlet builder's k-d tree), thousands of materials over many vertices
// (every meshoptimizer call is O(all vertices)), subdivision tags copied into every group, a
// material library named under thousands of spellings. Each must be refused with a clear error or
// bake in linear time (with a warning naming the fallback); each bake runs in a child process with
// an alarm, so that a hang fails the test instead of stalling it.
#include "hostile_helpers.h"

#include "import/obj_import.h"
#include "mesh/mesh_budget.h"
#include "mesh/mesh_lods.h"
#include "mesh/mesh_meshlets.h"
#include "mesh/mesh_order.h"
#include "mesh_bake.h"

#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>

using namespace assetlib;

namespace {

// Bakes in a child under an alarm: 0 baked, 1 refused, 2 failed otherwise; killed = a hang.
hostile::ChildResult bake_in_child(const std::string& obj, baker::BakeSettings settings = {},
                                   const std::map<std::string, std::string>& files = {},
                                   unsigned seconds = hostile::kHangSeconds) {
  return hostile::run_in_child([&] {
    alarm(seconds);
    hostile::BakedMesh b = hostile::bake_obj(obj, "models/hostile.obj", files, settings);
    return b.status.ok() ? 0 : b.status.code == baker::BakeError::LimitExceeded ? 1 : 2;
  });
}

std::string circle(size_t corners) {
  std::string obj;
  for (size_t i = 0; i < corners; ++i) {
    double a = 2 * M_PI * double(i) / double(corners);
    obj += "v " + std::to_string(std::cos(a)) + " " + std::to_string(std::sin(a)) + " 0\n";
  }
  return obj;
}

// One face over vertices first..first + corners - 1.
std::string polygon(size_t first, size_t corners) {
  std::string face = "f";
  for (size_t i = 0; i < corners; ++i) face.append(" ").append(std::to_string(first + i));
  return face + "\n";
}

// `triangles` triangles around vertex 1.
std::string fan(size_t triangles) {
  std::string obj = "v 0 0 0\n";
  for (size_t i = 0; i <= triangles; ++i) {
    double a = 2 * M_PI * double(i) / double(triangles + 1);
    obj += "v " + std::to_string(std::cos(a)) + " " + std::to_string(std::sin(a)) + " 0\n";
  }
  for (size_t i = 0; i < triangles; ++i) {
    obj += "f 1 " + std::to_string(i + 2) + " " + std::to_string(i + 3) + "\n";
  }
  return obj;
}

// Four triangles a billion units away, on vertices first_vertex.. (1-based).
std::string far_triangles(size_t first_vertex) {
  std::string obj;
  for (size_t k = 1; k <= 4; ++k) {
    std::string x = std::to_string(k) + "e9";
    obj += "v " + x + " 0 0\nv " + x + " 1000 0\nv " + x + " 0 1000\n";
    size_t v = first_vertex + 3 * (k - 1);
    obj +=
        "f " + std::to_string(v) + " " + std::to_string(v + 1) + " " + std::to_string(v + 2) + "\n";
  }
  return obj;
}

// An n x n grid of quads as 2 n^2 triangles; flat: every triangle on vertices of its own (as a
// flat-shaded export writes them), else shared. `vertices` gets the vertex count.
std::string grid(size_t n, bool flat, size_t& vertices) {
  std::string obj;
  vertices = 0;
  auto add = [&](size_t x, size_t y) {
    obj += "v " + std::to_string(x) + " " + std::to_string(y) + " 0\n";
    return ++vertices;
  };
  if (!flat) {
    for (size_t y = 0; y <= n; ++y) {
      for (size_t x = 0; x <= n; ++x) add(x, y);
    }
  }
  auto at = [&](size_t x, size_t y) { return flat ? add(x, y) : y * (n + 1) + x + 1; };
  auto face = [&](size_t a, size_t b, size_t c) {
    obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(c) + "\n";
  };
  for (size_t y = 0; y < n; ++y) {
    for (size_t x = 0; x < n; ++x) {
      size_t a = at(x, y), b = at(x + 1, y), c = at(x + 1, y + 1);
      face(a, b, c);
      a = at(x, y), b = at(x + 1, y + 1), c = at(x, y + 1);
      face(a, b, c);
    }
  }
  return obj;
}

baker::BakeSettings lods_and_meshlets() {
  baker::BakeSettings s;
  s.mesh.lod_count = 2;
  s.mesh.meshlets = true;
  return s;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

// FINDING F17: tinyobjloader triangulates a face by ear clipping, quadratic in its corners: one
// face of 40000 corners took 23 s, a 20 MB one never ended.
TEST_CASE("a face over the corner limit is refused before parsing, naming the file and the line") {
  for (size_t corners : {baker::kMaxPolygonCorners + 1, size_t(40000)}) {
    std::string obj = circle(corners) + polygon(1, corners);
    hostile::ChildResult r = bake_in_child(obj);
    REQUIRE(r.exited);
    CHECK(r.status == 1);
    hostile::BakedMesh b = hostile::bake_obj(obj, "models/disc.obj");
    INFO(b.status.message());
    CHECK(b.status.code == baker::BakeError::LimitExceeded);
    CHECK(b.status.file == "models/disc.obj");
    CHECK(contains(b.status.reason, "line " + std::to_string(corners + 1) + ": a face of " +
                                        std::to_string(corners) + " corners"));
  }
  size_t corners = baker::kMaxPolygonCorners;
  hostile::BakedMesh ok =
      hostile::bake_obj(circle(corners) + polygon(1, corners), "models/disc.obj");
  INFO(ok.status.message());
  REQUIRE(ok.status.ok());
  CHECK(ok.info.index_count == 3 * (corners - 2));
}

// tinyobjloader ends a line at '\n', '\r' or "\r\n", and reads a line only up to a NUL: a check
// that split lines only at '\n' would see one harmless line where tinyobjloader parses many faces.
TEST_CASE("the checks on the OBJ text split lines where tinyobjloader does, at a lone CR too") {
  hostile::BakedMesh wide =
      hostile::bake_obj("v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 4294967299\r", "models/cr.obj");
  INFO(wide.status.message());
  CHECK(wide.status.code == baker::BakeError::LimitExceeded);
  CHECK(contains(wide.status.reason, "line 4"));

  size_t corners = baker::kMaxPolygonCorners + 1;
  std::string cr = circle(corners) + polygon(1, corners);
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  hostile::BakedMesh big = hostile::bake_obj(cr, "models/cr.obj");
  INFO(big.status.message());
  CHECK(big.status.code == baker::BakeError::LimitExceeded);
  CHECK(contains(big.status.reason, "corners is over the"));

  // What follows a NUL is not read by tinyobjloader, so it is not checked either.
  std::string nul = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3";
  nul += '\0';
  nul += " 4294967299\n";
  hostile::BakedMesh n = hostile::bake_obj(nul, "models/nul.obj");
  INFO(n.status.message());
  CHECK(n.status.ok());
}

TEST_CASE(
    "faces of many corners share one triangulation budget, quads and triangles cost nothing") {
  // 1000 corners cost 10^6 each: 40 such faces (about 160 KB) are over 2^24 + 64 per byte.
  const size_t corners = 1000;
  std::string many = circle(corners), few = many;
  for (int i = 0; i < 40; ++i) many += polygon(1, corners);
  for (int i = 0; i < 8; ++i) few += polygon(1, corners);
  hostile::ChildResult r = bake_in_child(many);
  REQUIRE(r.exited);
  CHECK(r.status == 1);
  hostile::BakedMesh b = hostile::bake_obj(many, "models/many.obj");
  INFO(b.status.message());
  CHECK(b.status.code == baker::BakeError::LimitExceeded);
  CHECK(contains(b.status.reason, "corners squared of triangulation, over the budget"));
  hostile::BakedMesh f = hostile::bake_obj(few, "models/few.obj");
  INFO(f.status.message());
  REQUIRE(f.status.ok());
  CHECK(f.info.index_count == 8 * 3 * (corners - 2));
  // 100000 quads and 20000 pentagons: far more faces, no budget spent.
  std::string quads = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n", pentagons = circle(5);
  for (int i = 0; i < 100000; ++i) quads += "f 1 2 4 3\n";
  for (int i = 0; i < 20000; ++i) pentagons += "f 1 2 3 4 5\n";
  CHECK(hostile::bake_obj(quads, "models/quads.obj").status.ok());
  CHECK(hostile::bake_obj(pentagons, "models/pentagons.obj").status.ok());
}

// FINDING F18: a fan of 200000 triangles around one vertex (8 MB of OBJ) took 23 s in
// meshopt_optimizeVertexCache and longer in the simplifier and the meshlet builder.
TEST_CASE("a vertex shared by 100000 triangles bakes in linear time by the fallbacks") {
  std::string obj = fan(100000);
  hostile::ChildResult r = bake_in_child(obj, lods_and_meshlets());
  REQUIRE(r.exited);
  CHECK(r.status == 0);
  hostile::BakedMesh b = hostile::bake_obj(obj, "models/fan.obj", {}, lods_and_meshlets());
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  CHECK(b.info.index_count == 3 * 100000);
  CHECK(b.info.meshlet_count > 0);
  REQUIRE(b.warnings.size() == 1);
  CHECK(contains(b.warnings[0], "models/fan.obj: linear fallbacks"));
  CHECK(contains(b.warnings[0], "vertex cache order by FIFO"));
  CHECK(contains(b.warnings[0], "LODs by sloppy simplification"));
  CHECK(contains(b.warnings[0], "meshlets in index order"));
  // At the threshold the mesh takes meshoptimizer's usual path, without a warning.
  hostile::BakedMesh small = hostile::bake_obj(fan(baker::kMaxOptimizedValence), "models/small.obj",
                                               {}, lods_and_meshlets());
  REQUIRE(small.status.ok());
  CHECK_FALSE(hostile::any_contains(small.warnings, "linear fallbacks"));
}

// A UV sphere of `segments` around each pole, `rings` from pole to pole.
std::string uv_sphere(int segments, int rings) {
  std::string obj = "v 0 1 0\n";
  char line[96];
  for (int j = 1; j < rings; ++j) {
    const double theta = M_PI * j / rings;
    for (int i = 0; i < segments; ++i) {
      const double phi = 2 * M_PI * i / segments;
      std::snprintf(line, sizeof line, "v %.7f %.7f %.7f\n", std::sin(theta) * std::cos(phi),
                    std::cos(theta), std::sin(theta) * std::sin(phi));
      obj += line;
    }
  }
  obj += "v 0 -1 0\n";
  auto ring = [&](int j, int i) { return 2 + (j - 1) * segments + i % segments; };
  const int bottom = 2 + (rings - 1) * segments;
  for (int i = 0; i < segments; ++i) {
    obj += "f 1 " + std::to_string(ring(1, i + 1)) + " " + std::to_string(ring(1, i)) + "\n";
    obj += "f " + std::to_string(bottom) + " " + std::to_string(ring(rings - 1, i)) + " " +
           std::to_string(ring(rings - 1, i + 1)) + "\n";
  }
  for (int j = 1; j < rings - 1; ++j) {
    for (int i = 0; i < segments; ++i) {
      const std::string a = std::to_string(ring(j, i)), b = std::to_string(ring(j, i + 1)),
                        c = std::to_string(ring(j + 1, i + 1)), d = std::to_string(ring(j + 1, i));
      obj += "f " + a + " " + b + " " + c + "\nf " + a + " " + c + " " + d + "\n";
    }
  }
  return obj;
}

// FINDING F89: each sloppy level was simplified from the one before and its error measured
// against it: coarser levels claimed less error than finer ones (0.00097, then 0.00011).
TEST_CASE("sloppy LOD errors grow level by level, each measured from LOD 0") {
  baker::BakeSettings settings;
  settings.mesh.lod_count = 4;
  hostile::BakedMesh b = hostile::bake_obj(uv_sphere(1100, 40), "models/sphere.obj", {}, settings);
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  REQUIRE(hostile::any_contains(b.warnings, "LODs by sloppy simplification"));
  REQUIRE(b.info.lods.size() >= 3);
  for (size_t k = 1; k < b.info.lods.size(); ++k) {
    INFO("level " << k);
    CHECK(b.info.lods[k].error >= b.info.lods[k - 1].error);
  }
}

// FINDING F19: meshopt_buildMeshlets' k-d tree over triangle centres collapses into one leaf when
// the centres coincide or a few lie far away; each lookup then scans every triangle (100000
// flat-shaded triangles and 4 far ones: 46 s).
TEST_CASE(
    "disconnected triangles at one place or beside far-away ones get meshlets in linear time") {
  baker::BakeSettings meshlets;
  meshlets.mesh.meshlets = true;
  std::string soup;
  for (size_t i = 0; i < 30000; ++i) soup += "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n";
  soup += far_triangles(3 * 30000 + 1);
  size_t vertices = 0;
  std::string flat = grid(120, true, vertices);
  std::string flat_far = flat + far_triangles(vertices + 1);
  for (const auto& [name, obj] :
       {std::pair{"models/soup.obj", soup}, std::pair{"models/flat.obj", flat_far}}) {
    hostile::ChildResult r = bake_in_child(obj, meshlets);
    REQUIRE(r.exited);
    CHECK(r.status == 0);
    hostile::BakedMesh b = hostile::bake_obj(obj, name, {}, meshlets);
    INFO(name << ": " << b.status.message());
    REQUIRE(b.status.ok());
    CHECK(b.info.meshlet_count > 0);
    CHECK(hostile::any_contains(b.warnings, "meshlets in index order"));
  }
  // The same grid without the far triangles is an ordinary mesh: meshoptimizer's own clustering.
  hostile::BakedMesh plain = hostile::bake_obj(flat, "models/flat.obj", {}, meshlets);
  REQUIRE(plain.status.ok());
  CHECK_FALSE(hostile::any_contains(plain.warnings, "linear fallbacks"));
}

// FINDING F20: every meshoptimizer call costs O(all vertices); once per submesh, 10000
// one-triangle materials beside a 90000-vertex grid took 197 s with LODs and meshlets.
TEST_CASE(
    "thousands of materials over many vertices bake in linear time, each submesh on its own "
    "vertices") {
  size_t vertices = 0;
  std::string obj = "mtllib m.mtl\nusemtl grid\n" + grid(150, false, vertices);
  std::string mtl = "newmtl grid\nKd 1 1 1\n";
  const size_t materials = 3000;
  for (size_t m = 0; m < materials; ++m) {
    std::string name =
        std::string("m").append(std::to_string(m));  // `"m" + s` trips GCC 12's -Wrestrict
    mtl += "newmtl " + name + "\nKd 0.5 0.5 0.5\n";
    obj += "usemtl " + name + "\nf " + std::to_string(m + 1) + " " + std::to_string(m + 2) + " " +
           std::to_string(m + 153) + "\n";
  }
  std::map<std::string, std::string> files = {{"models/m.mtl", mtl}};
  hostile::ChildResult r = bake_in_child(obj, lods_and_meshlets(), files);
  REQUIRE(r.exited);
  CHECK(r.status == 0);
  hostile::BakedMesh b = hostile::bake_obj(obj, "models/materials.obj", files, lods_and_meshlets());
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  CHECK(b.info.submeshes.size() == materials + 1);
  CHECK(hostile::any_contains(b.warnings, "LODs of each submesh simplified on its own vertices"));
  CHECK(b.info.lods.size() > 1);
  // Without LODs, taking each submesh on its own vertices changes nothing: no warning.
  hostile::BakedMesh plain = hostile::bake_obj(obj, "models/materials.obj", files);
  REQUIRE(plain.status.ok());
  CHECK_FALSE(hostile::any_contains(plain.warnings, "own vertices"));
}

namespace {

// The (n + 1)^2 vertices of an n x n grid of unit quads in x and y, z from `height`.
std::vector<baker::MeshVertex> grid(uint32_t n, float (*height)(uint32_t x, uint32_t y)) {
  std::vector<baker::MeshVertex> vertices;
  for (uint32_t y = 0; y <= n; ++y) {
    for (uint32_t x = 0; x <= n; ++x) {
      baker::MeshVertex v{};
      v.position[0] = float(x);
      v.position[1] = float(y);
      v.position[2] = height(x, y);
      vertices.push_back(v);
    }
  }
  return vertices;
}

// The submeshes of an n x n grid whose even rows of quads are one submesh and odd rows another,
// so that each submesh's vertices are spread over the whole vertex buffer; appends their indices.
std::vector<Submesh> interleaved_rows(uint32_t n, std::vector<uint32_t>& indices) {
  std::vector<Submesh> submeshes;
  for (uint32_t parity : {0u, 1u}) {
    Submesh sub{};
    sub.first_index = uint32_t(indices.size());
    for (uint32_t y = parity; y < n; y += 2) {
      for (uint32_t x = 0; x < n; ++x) {
        uint32_t a = y * (n + 1) + x, b = a + 1, c = a + n + 2, d = a + n + 1;
        indices.insert(indices.end(), {a, b, c, a, c, d});
      }
    }
    sub.index_count = uint32_t(indices.size()) - sub.first_index;
    submeshes.push_back(sub);
  }
  return submeshes;
}

// Wavy heights, so that overdraw ordering has something to sort.
float wavy(uint32_t x, uint32_t y) { return float((x * 7 + y * 3) % 5) * 0.1f; }

}  // namespace

TEST_CASE("meshlets of submeshes on their own vertices are the meshlets of the whole mesh") {
  const uint32_t n = 24;
  const std::vector<baker::MeshVertex> vertices = grid(n, wavy);
  std::vector<uint32_t> indices;
  const std::vector<Submesh> submeshes = interleaved_rows(n, indices);
  std::vector<Submesh> whole_subs = submeshes, split_subs = submeshes;
  MeshletData whole, split;
  baker::MeshFallbacks fallbacks;
  baker::build_meshlets(vertices, indices, whole_subs, false, whole, fallbacks);
  baker::build_meshlets(vertices, indices, split_subs, true, split, fallbacks);
  CHECK_FALSE(fallbacks.any());
  REQUIRE(whole.meshlets.size() > 2);
  REQUIRE(split.meshlets.size() == whole.meshlets.size());
  CHECK(std::memcmp(split.meshlets.data(), whole.meshlets.data(),
                    whole.meshlets.size() * sizeof(Meshlet)) == 0);
  CHECK(split.vertices == whole.vertices);
  CHECK(split.triangles == whole.triangles);
  for (size_t i = 0; i < submeshes.size(); ++i) {
    CHECK(split_subs[i].first_meshlet == whole_subs[i].first_meshlet);
    CHECK(split_subs[i].meshlet_count == whole_subs[i].meshlet_count);
  }
}

namespace {

// The interleaved rows of an n x n grid, and a third submesh of two triangles from the first
// vertices to the last: its span is too wide to scan, so SubmeshVertices sorts it.
std::vector<Submesh> rows_and_far_corners(uint32_t n, std::vector<uint32_t>& indices) {
  std::vector<Submesh> submeshes = interleaved_rows(n, indices);
  const uint32_t last = (n + 1) * (n + 1) - 1;
  Submesh far{};
  far.first_index = uint32_t(indices.size());
  indices.insert(indices.end(), {last, 1, 0, 1, last, last - 1});
  far.index_count = 6;
  submeshes.push_back(far);
  return submeshes;
}

}  // namespace

TEST_CASE("ordering submeshes on their own vertices gives the order of the whole mesh") {
  const uint32_t n = 24;
  std::vector<baker::MeshVertex> source = grid(n, wavy);
  std::vector<uint32_t> source_indices;
  std::vector<baker::ImportedSubmesh> submeshes;
  for (const Submesh& s : rows_and_far_corners(n, source_indices))
    submeshes.push_back({s.first_index, s.index_count, 0});
  // A fan 50 units away around a vertex in more than kMaxOptimizedValence triangles: ordered by
  // FIFO, whose dead ends scan vertex numbers; and far enough that an overdraw order taking the
  // centre of every vertex, not of the submesh's own, would order the grid differently.
  const uint32_t centre = uint32_t(source.size()), blades = baker::kMaxOptimizedValence + 100;
  for (uint32_t k = 0; k <= blades + 1; ++k) {
    baker::MeshVertex v{};
    const float angle = float(k) * 6.2831853f / float(blades + 1);
    v.position[0] = 50.0f + (k == 0 ? 0.0f : std::cos(angle));
    v.position[1] = 50.0f + (k == 0 ? 0.0f : std::sin(angle));
    v.position[2] = k == 0 ? 1.0f : float(k % 7) * 0.1f;
    source.push_back(v);
  }
  const uint32_t fan_first = uint32_t(source_indices.size());
  for (uint32_t k = 1; k <= blades; ++k)
    source_indices.insert(source_indices.end(), {centre, centre + k, centre + k + 1});
  submeshes.push_back({fan_first, 3 * blades, 0});
  std::vector<baker::MeshVertex> whole = source, own = source;
  std::vector<uint32_t> whole_indices = source_indices, own_indices = source_indices;
  baker::MeshFallbacks whole_fallbacks, own_fallbacks;
  baker::order_for_gpu(whole, whole_indices, submeshes, false, whole_fallbacks);
  baker::order_for_gpu(own, own_indices, submeshes, true, own_fallbacks);
  CHECK(whole_fallbacks.fifo_cache);
  CHECK(own_fallbacks.fifo_cache);
  REQUIRE(whole_indices != source_indices);  // something was reordered
  CHECK(own_indices == whole_indices);
  REQUIRE(own.size() == whole.size());
  CHECK(std::memcmp(own.data(), whole.data(), whole.size() * sizeof(baker::MeshVertex)) == 0);
}

TEST_CASE("a submesh on its own vertices keeps their order, whether scanned or sorted") {
  const uint32_t n = 24;
  const std::vector<baker::MeshVertex> vertices = grid(n, wavy);
  std::vector<uint32_t> indices;
  const std::vector<Submesh> submeshes = rows_and_far_corners(n, indices);
  // Two small ones whose spans interleave: the first's marks must be gone when the second scans.
  std::vector<Submesh> all = submeshes;
  for (std::array<uint32_t, 3> corners : {std::array{5u, 6u, 7u}, std::array{4u, 8u, 9u}}) {
    all.push_back({uint32_t(indices.size()), 3, 0, {}, 0, 0});
    indices.insert(indices.end(), corners.begin(), corners.end());
  }
  baker::SubmeshVertices local(vertices);
  // Twice over, so that each submesh follows another on the same scratch table.
  for (int pass = 0; pass < 2; ++pass) {
    for (const Submesh& s : all) {
      INFO("submesh at " << s.first_index << ", pass " << pass);
      const uint32_t* range = indices.data() + s.first_index;
      local.assign(range, s.index_count);
      std::vector<uint32_t> used(range, range + s.index_count);
      std::sort(used.begin(), used.end());
      used.erase(std::unique(used.begin(), used.end()), used.end());
      REQUIRE(local.vertex_count() == used.size());
      std::vector<uint32_t> numbers(used.size());
      for (uint32_t k = 0; k < numbers.size(); ++k) numbers[k] = k;
      local.to_mesh(numbers.data(), numbers.size());
      CHECK(numbers == used);  // local vertex k is the k-th smallest
      for (size_t k = 0; k < used.size(); ++k)
        CHECK(std::equal(&local.positions[3 * k], &local.positions[3 * k + 3],
                         vertices[used[k]].position));
      std::vector<uint32_t> back = local.indices;
      local.to_mesh(back.data(), back.size());
      CHECK(back == std::vector<uint32_t>(range, range + s.index_count));
    }
  }
}

TEST_CASE("LODs of a mesh of several submeshes keep the seams between them closed") {
  // A wavy 40 x 40 grid of quads in 8 stripes, a submesh each, sharing the vertices of their
  // seams. Each submesh is simplified on its own: moving a seam on one side only opened cracks.
  const uint32_t n = 40, stripes = 8;
  const std::vector<baker::MeshVertex> vertices = grid(n, [](uint32_t x, uint32_t y) {
    return std::sin(float(x) * 0.3f) * std::cos(float(y) * 0.2f);
  });
  std::vector<uint32_t> indices;
  std::vector<Submesh> submeshes;
  for (uint32_t s = 0; s < stripes; ++s) {
    Submesh sub{};
    sub.first_index = uint32_t(indices.size());
    for (uint32_t y = 0; y < n; ++y) {
      for (uint32_t x = s * n / stripes; x < (s + 1) * n / stripes; ++x) {
        uint32_t a = y * (n + 1) + x, b = a + 1, c = a + n + 2, d = a + n + 1;
        indices.insert(indices.end(), {a, b, c, a, c, d});
      }
    }
    sub.index_count = uint32_t(indices.size()) - sub.first_index;
    submeshes.push_back(sub);
  }
  // Edges used by one triangle of all the ranges together: the outline, plus any crack.
  auto open_edges = [&](const std::vector<uint32_t>& all, const std::vector<IndexRange>& ranges) {
    std::map<std::pair<uint32_t, uint32_t>, int> uses;
    for (const IndexRange& r : ranges) {
      for (uint32_t t = r.first_index; t < r.first_index + r.index_count; t += 3) {
        for (uint32_t k = 0; k < 3; ++k) {
          uint32_t a = all[t + k], b = all[t + (k + 1) % 3];
          ++uses[{std::min(a, b), std::max(a, b)}];
        }
      }
    }
    return std::count_if(uses.begin(), uses.end(), [](const auto& e) { return e.second == 1; });
  };
  std::vector<IndexRange> level0;
  for (const Submesh& s : submeshes) level0.push_back({s.first_index, s.index_count});
  for (bool split : {false, true}) {
    INFO((split ? "submeshes on their own vertices" : "one vertex buffer"));
    std::vector<uint32_t> all = indices;
    std::vector<MeshLod> lods;
    baker::MeshFallbacks fallbacks;
    baker::build_lods(vertices, submeshes, 1, split, all, lods, fallbacks);
    REQUIRE(lods.size() == 1);
    uint32_t kept = 0;
    for (const IndexRange& r : lods[0].submeshes) kept += r.index_count;
    CHECK(kept < indices.size() * 3 / 4);  // simplified, not left alone
    CHECK(open_edges(all, lods[0].submeshes) == open_edges(all, level0));
  }
}

// FINDING F21: tinyobjloader copies every `t` (subdivision tag) line read so far into each group it
// closes, and one tag line may ask for 3 x 8192 values: 20000 tags and 20000 groups (630 KB) grew
// to 24 GB. The baker never reads tags: it skips those lines.
TEST_CASE("subdivision tags are skipped, not copied into every group") {
  std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  for (int i = 0; i < 4; ++i) obj += "t crease 8192/8192/8192\n";
  std::string plain = obj.substr(0, obj.find("t "));
  for (int i = 0; i < 200; ++i) {
    std::string group = "g g" + std::to_string(i) + "\nf 1 2 3\n";
    obj += group;
    plain += group;
  }
  hostile::ChildResult r = bake_in_child(obj);
  REQUIRE(r.exited);
  CHECK(r.status == 0);
  if (!hostile::kSanitized) CHECK(r.rss_growth_kib < 32 * 1024);  // 800 copies of 320 KB before
  hostile::BakedMesh tagged = hostile::bake_obj(obj, "models/tags.obj"),
                     untagged = hostile::bake_obj(plain, "models/tags.obj");
  REQUIRE(tagged.status.ok());
  REQUIRE(untagged.status.ok());
  CHECK(tagged.file.json == untagged.file.json);
  CHECK(tagged.file.blob == untagged.file.blob);
}

// FINDING F22: tinyobjloader skips only a library name it has read before under the same spelling:
// 20000 `mtllib dN/../a.mtl` lines (450 KB) parsed the library 20000 times (44 s, 15 GB).
TEST_CASE("a material library named under many spellings is read once") {
  std::string mtl;
  for (int i = 0; i < 100; ++i) mtl += "newmtl m" + std::to_string(i) + "\nKd 1 0 0\n";
  std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  for (int i = 0; i < 1000; ++i)
    obj += "mtllib d" + std::to_string(i) + "/../a.mtl\nmtllib missing.mtl\n";
  obj += "usemtl m7\nf 1 2 3\n";
  hostile::BakedMesh b = hostile::bake_obj(obj, "models/libs.obj", {{"models/a.mtl", mtl}});
  INFO(b.status.message());
  REQUIRE(b.status.ok());
  CHECK(std::count(b.files_read.begin(), b.files_read.end(), "models/a.mtl") == 1);
  CHECK(std::count(b.files_read.begin(), b.files_read.end(), "models/missing.mtl") == 1);
  CHECK(std::count_if(b.warnings.begin(), b.warnings.end(), [](const std::string& w) {
          return w.find("missing.mtl") != std::string::npos;
        }) == 1);
  REQUIRE(b.info.materials.size() == 1);
  CHECK(b.info.materials[0].name == "m7");
}

// Joining a continued line must look at each line once: a first version searched the whole joined
// text again for each line it added (800 KB of `mtlli \` lines took 38 s).
TEST_CASE("an OBJ of 200000 continued lines reads in linear time") {
  std::string obj;
  for (int i = 0; i < 200000; ++i) obj += "g a \\\n";
  obj += "\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  hostile::ChildResult r = bake_in_child(obj);
  REQUIRE(r.exited);  // not killed by the alarm
  CHECK(r.status == 0);
}
