// The mesh pipeline on real corpus models: counts against the source, index range, the triangle
// set preserved through indexing and reordering, bounds, ACMR, LODs, meshlets, tangents.
#include "../baked_assets.h"
#include "corpus_files.h"

#include "bake/bake_obj.h"
#include "common/half_float.h"
#include "mesh/vertex_encode.h"

#include <assetlib/assetlib.h>

#include <tiny_obj_loader.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace assetlib;

namespace {

using Triangle = std::array<std::array<float, 3>, 3>;

// Canonical form: rotated so the smallest corner comes first, keeping the winding.
Triangle canonical(Triangle t) {
  auto smallest = std::min_element(t.begin(), t.end());
  std::rotate(t.begin(), smallest, t.end());
  return t;
}

std::vector<Triangle> sorted(std::vector<Triangle> tris) {
  for (Triangle& t : tris) t = canonical(t);
  std::sort(tris.begin(), tris.end());
  return tris;
}

// What the source's faces hold, read with tinyobjloader untriangulated: n - 2 triangles per face
// of n corners, covering the face's area (half the length of its Newell normal, exact for a planar
// simple polygon); and, when every face is a triangle, the triangles themselves (positions only).
struct SourceFaces {
  size_t triangle_count = 0;
  double area = 0;
  bool all_triangles = true;
  std::vector<Triangle> triangles;
};

SourceFaces source_faces(const std::string& path) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  REQUIRE(tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), folder.c_str(),
                           false));
  SourceFaces out;
  for (const auto& shape : shapes) {
    // tinyobjloader keeps a face's corner count in a byte: the counts must account for every
    // index, or a face of 256 corners or more was misread.
    size_t total = 0;
    for (unsigned corners : shape.mesh.num_face_vertices) total += corners;
    REQUIRE(total == shape.mesh.indices.size());
    size_t at = 0;
    for (unsigned corners : shape.mesh.num_face_vertices) {
      std::vector<std::array<float, 3>> p(corners);
      for (size_t c = 0; c < corners; ++c) {
        int v = shape.mesh.indices[at + c].vertex_index;
        for (size_t k = 0; k < 3; ++k) p[c][k] = attrib.vertices[3 * size_t(v) + k];
      }
      at += corners;
      if (corners < 3) continue;
      out.triangle_count += corners - 2;
      double n[3] = {0, 0, 0};
      for (size_t c = 0; c < corners; ++c) {
        const auto& a = p[c];
        const auto& b = p[(c + 1) % corners];
        n[0] += (double(a[1]) - b[1]) * (double(a[2]) + b[2]);
        n[1] += (double(a[2]) - b[2]) * (double(a[0]) + b[0]);
        n[2] += (double(a[0]) - b[0]) * (double(a[1]) + b[1]);
      }
      out.area += std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) / 2;
      if (corners == 3) {
        out.triangles.push_back({p[0], p[1], p[2]});
      } else {
        out.all_triangles = false;
      }
    }
  }
  return out;
}

double triangle_area(const Triangle& t) {
  double e1[3], e2[3];
  for (size_t k = 0; k < 3; ++k)
    e1[k] = double(t[1][k]) - t[0][k], e2[k] = double(t[2][k]) - t[0][k];
  double c[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                 e1[0] * e2[1] - e1[1] * e2[0]};
  return std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / 2;
}

struct BakedMesh {
  MeshInfo info;
  std::vector<std::byte> vertices;
  std::vector<uint32_t> indices;  // all LODs, widened to 32 bits
  std::vector<uint32_t> meshlet_data;
  std::vector<std::string> warnings;

  const float* position(uint32_t v) const {
    return reinterpret_cast<const float*>(vertices.data() + size_t(v) * info.vertex_stride);
  }
  std::vector<Triangle> triangles(uint32_t first, uint32_t count) const {
    std::vector<Triangle> tris;
    for (uint32_t i = first; i < first + count; i += 3) {
      Triangle t;
      for (size_t c = 0; c < 3; ++c) std::memcpy(t[c].data(), position(indices[i + c]), 12);
      tris.push_back(t);
    }
    return tris;
  }
};

// Bakes `path` as the bake of a tree rooted at its folder, or at `root` when given.
BakedMesh bake(const std::string& path,
               baker::BakeSettings settings = test::float_vertex_settings(),
               std::string root = {}) {
  std::filesystem::path folder =
      root.empty() ? std::filesystem::path(path).parent_path() : std::filesystem::path(root);
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string& relative) -> std::optional<std::string> {
    std::ifstream in(folder / relative);
    if (!in) return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  inputs.texture_name = [&](const std::string& relative, baker::TextureRole,
                            std::string&) -> std::optional<std::string> {
    if (!std::filesystem::exists(folder / relative)) return std::nullopt;
    return relative;
  };
  std::vector<std::byte> obj = test::file_bytes(path);
  BakedMesh b;
  baker::BakedAssets baked;
  std::string name = std::filesystem::path(path).lexically_relative(folder).generic_string();
  baker::BakeStatus s =
      baker::bake_obj(std::string_view(reinterpret_cast<const char*>(obj.data()), obj.size()), name,
                      inputs, settings, baked, b.warnings);
  INFO(s.message());
  REQUIRE(s.ok());
  const AssetFile& file = test::the_asset(baked, "MESH");
  REQUIRE(read_mesh_info(file, b.info).ok());
  b.vertices.resize(b.info.vertex_buffer_size);
  std::vector<std::byte> index_bytes(b.info.index_buffer_size);
  REQUIRE(unpack_mesh(b.info, file.blob.data(), file.blob.size(), b.vertices.data(),
                      b.vertices.size(), index_bytes.data(), index_bytes.size())
              .ok());
  size_t count = b.info.index_count + b.info.lod_index_count;
  for (size_t i = 0; i < count; ++i) {
    uint32_t v = 0;
    std::memcpy(&v, index_bytes.data() + i * b.info.index_size, b.info.index_size);
    b.indices.push_back(v);
  }
  b.meshlet_data.resize(b.info.meshlet_data_size / 4 + 1);
  REQUIRE(unpack_meshlets(b.info, file.blob.data(), file.blob.size(), b.meshlet_data.data(),
                          b.info.meshlet_data_size)
              .ok());
  return b;
}

bool inside(const MeshBounds& b, const float* p) {
  float d2 = 0;
  for (int k = 0; k < 3; ++k) {
    if (std::fabs(p[k] - b.origin[k]) > b.extents[k] * 1.0001f + 1e-5f) return false;
    d2 += (p[k] - b.origin[k]) * (p[k] - b.origin[k]);
  }
  return std::sqrt(d2) <= b.radius * 1.0001f + 1e-5f;
}

// The baked triangles against the source's faces: as many, covering the same area (a polygon cut
// into overlapping triangles or with parts missing covers more or less), and the very same
// triangles when the source has only triangles.
void check_mesh(const std::string& path, const BakedMesh& b) {
  SourceFaces source = source_faces(path);
  std::vector<Triangle> baked = b.triangles(0, b.info.index_count);
  CHECK(baked.size() == source.triangle_count);
  CHECK(b.info.vertex_count <= source.triangle_count * 3);
  CHECK(std::all_of(b.indices.begin(), b.indices.end(),
                    [&](uint32_t i) { return i < b.info.vertex_count; }));
  double area = 0;
  for (const Triangle& t : baked) area += triangle_area(t);
  CHECK(area == Approx(source.area).epsilon(1e-4));
  if (source.all_triangles) CHECK(sorted(baked) == sorted(source.triangles));
  size_t outside = 0;
  for (uint32_t v = 0; v < b.info.vertex_count; ++v)
    outside += !inside(b.info.bounds, b.position(v));
  for (const Submesh& sub : b.info.submeshes) {
    for (uint32_t i = sub.first_index; i < sub.first_index + sub.index_count; ++i) {
      outside += !inside(sub.bounds, b.position(b.indices[i]));
    }
  }
  CHECK(outside == 0);
}

}  // namespace

TEST_CASE(
    "large scanned models keep every triangle, get smooth normals and a better vertex cache") {
  for (const char* model :
       {"common-3d-test-models/data/ogre.obj", "common-3d-test-models/data/nefertiti.obj"}) {
    std::string path = test::corpus(model);
    BakedMesh b = bake(path);
    INFO(model);
    check_mesh(path, b);
    CHECK(b.info.stats.acmr_after < b.info.stats.acmr_before);
    CHECK(b.info.stats.acmr_after < 0.8f);
    // Smooth: far fewer vertices than corners (flat shading would keep all 3 per triangle).
    CHECK(b.info.vertex_count < b.info.index_count / 4);
    CHECK(b.info.index_size == (b.info.vertex_count < 0xFFFF ? 2u : 4u));
  }
}

TEST_CASE("polygons are triangulated and odd files still bake") {
  for (const char* model :
       {"draco-testdata/octagon_preserved.obj", "tinyobjloader/models/issue-319-002.obj",
        "obj2gltf/specs/data/concave/concave.obj",
        "tinyobjloader/models/smoothing-group-two-squares.obj", "tinyobjloader/models/cube.obj"}) {
    std::string path = test::corpus(model);
    if (!std::filesystem::exists(path)) continue;
    INFO(model);
    check_mesh(path, bake(path));
  }
}

TEST_CASE("several materials become one submesh each, with their textures") {
  std::string path = test::asset("models/multi_material.obj");
  BakedMesh b = bake(path, {}, test::asset(""));
  check_mesh(path, b);
  REQUIRE(b.info.submeshes.size() == 3);
  REQUIRE(b.info.materials.size() == 3);
  CHECK(b.warnings.empty());
  std::vector<std::string> textures;
  for (const MeshMaterial& m : b.info.materials) textures.push_back(m.base_color_texture);
  std::sort(textures.begin(), textures.end());
  // Logical names: paths relative to the bake root, '..' resolved.
  CHECK(textures == std::vector<std::string>{"", "textures/bricks.png", "textures/leaf_alpha.png"});
}

TEST_CASE("tangents are unit length and orthogonal to the normal where there are UVs") {
  BakedMesh b = bake(test::asset("models/cube.obj"));
  REQUIRE(b.info.vertex_format == VertexFormat::PNCVT_F32);
  for (uint32_t v = 0; v < b.info.vertex_count; ++v) {
    Vertex_PNCVT_F32 vert;
    std::memcpy(&vert, b.vertices.data() + size_t(v) * sizeof vert, sizeof vert);
    float len = std::sqrt(vert.tangent[0] * vert.tangent[0] + vert.tangent[1] * vert.tangent[1] +
                          vert.tangent[2] * vert.tangent[2]);
    float ndott = vert.normal[0] * vert.tangent[0] + vert.normal[1] * vert.tangent[1] +
                  vert.normal[2] * vert.tangent[2];
    CHECK(len == Approx(1.0f).margin(1e-4));
    CHECK(std::fabs(ndott) < 1e-4f);
    CHECK(std::fabs(vert.tangent[3]) == 1.0f);
  }
}

TEST_CASE(
    "LODs shrink, stay in range and keep the source's bounds, and meshlets cover LOD 0 once") {
  baker::BakeSettings settings;
  settings.mesh.lod_count = 3;
  settings.mesh.meshlets = true;
  std::string path = test::corpus("common-3d-test-models/data/nefertiti.obj");
  BakedMesh b = bake(path, settings);
  check_mesh(path, b);
  REQUIRE(b.info.lods.size() == 3);
  uint32_t previous = b.info.index_count;
  for (const MeshLod& lod : b.info.lods) {
    uint32_t count = 0;
    for (const IndexRange& r : lod.submeshes) count += r.index_count;
    CHECK(count < previous * 0.6);
    CHECK(lod.error < 0.05f);
    previous = count;
  }
  MeshletView view = meshlet_view(b.info, b.meshlet_data.data());
  uint64_t triangles = 0;
  std::vector<Triangle> from_meshlets;
  for (uint32_t m = 0; m < b.info.meshlet_count; ++m) {
    const Meshlet& ml = view.meshlets[m];
    CHECK(ml.vertex_count <= 64);
    CHECK(ml.triangle_count <= 124);
    triangles += ml.triangle_count;
    for (uint32_t t = 0; t < ml.triangle_count; ++t) {
      Triangle tri;
      for (size_t c = 0; c < 3; ++c) {
        uint32_t v =
            view.vertices[ml.vertex_offset + view.triangles[ml.triangle_offset + t * 3 + c]];
        std::memcpy(tri[c].data(), b.position(v), 12);
      }
      from_meshlets.push_back(tri);
    }
  }
  CHECK(triangles == b.info.index_count / 3);
  CHECK(sorted(from_meshlets) == sorted(b.triangles(0, b.info.index_count)));
}

TEST_CASE("the compact octahedral format decodes to the full-float normals") {
  baker::BakeSettings compact;
  compact.mesh.vertex_format = "PNCVT_OCT";
  BakedMesh full = bake(test::asset("models/sphere_smooth.obj"));
  BakedMesh oct = bake(test::asset("models/sphere_smooth.obj"), compact);
  REQUIRE(oct.info.vertex_stride == 28);
  REQUIRE(oct.info.vertex_count == full.info.vertex_count);
  for (uint32_t v = 0; v < oct.info.vertex_count; ++v) {
    Vertex_PNCVT_OCT o;
    Vertex_PNCVT_F32 f;
    std::memcpy(&o, oct.vertices.data() + size_t(v) * 28, 28);
    std::memcpy(&f, full.vertices.data() + size_t(v) * 60, 60);
    // The decode documented in docs/format.md.
    float x = o.normal[0] / 32767.0f, y = o.normal[1] / 32767.0f,
          z = 1.0f - std::fabs(x) - std::fabs(y);
    if (z < 0) {
      float ox = (1.0f - std::fabs(y)) * (x >= 0 ? 1.0f : -1.0f),
            oy = (1.0f - std::fabs(x)) * (y >= 0 ? 1.0f : -1.0f);
      x = ox, y = oy;
    }
    float len = std::sqrt(x * x + y * y + z * z);
    CHECK(x / len == Approx(f.normal[0]).margin(1e-3));
    CHECK(y / len == Approx(f.normal[1]).margin(1e-3));
    CHECK(z / len == Approx(f.normal[2]).margin(1e-3));
    CHECK(std::memcmp(o.position, f.position, 12) == 0);
  }
}

TEST_CASE("broken OBJ files fail with the file and the reason") {
  for (const char* model : {"tinyobjloader/models/invalid-relative-vertex-index.obj",
                            "tinyobjloader/models/line-prim.obj", "draco-testdata/inf_nan.obj"}) {
    std::vector<std::byte> obj = test::file_bytes(test::corpus(model));
    baker::BakedAssets baked;
    std::vector<std::string> warnings;
    baker::BakeStatus s =
        baker::bake_obj(std::string_view(reinterpret_cast<const char*>(obj.data()), obj.size()),
                        model, {}, {}, baked, warnings);
    INFO(model << ": " << s.message());
    CHECK(s.blames_source());
    CHECK(s.file == model);
  }
}

TEST_CASE("UVs far from 0 in a half-float vertex format are warned about, with the step there") {
  using assetlib::VertexFormat;
  std::vector<baker::MeshVertex> v(2);
  v[0].uv[0] = 7.9f;
  CHECK(baker::half_uv_loss(v, VertexFormat::PNCVT_OCT).empty());
  v[1].uv[1] = -8;
  CHECK(baker::half_uv_loss(v, VertexFormat::PNCVT_OCT) ==
        "UVs reach 8, where a half float steps by 0.0078125");
  CHECK(baker::half_uv_loss(v, VertexFormat::P32N8C8V16).size() > 0);
  CHECK(baker::half_uv_loss(v, VertexFormat::PNCVT_F32).empty());  // floats: nothing lost
  v[1].uv[1] = 0;
  v[1].uv1[0] = -300;  // the second set counts where it is stored
  CHECK(baker::half_uv_loss(v, VertexFormat::PNCVT_OCT).empty());
  CHECK(baker::half_uv_loss(v, VertexFormat::PNCVVT_OCT) ==
        "UVs reach 300, where a half float steps by 0.25");
  v[1].uv1[0] = 0;
  v[1].uv[0] = 70000;  // beyond the largest half float
  CHECK(baker::half_uv_loss(v, VertexFormat::PNCVT_OCT) ==
        "UVs reach 70000, beyond the largest half float: clamped to 65504");
}

TEST_CASE("half floats are clamped to the largest finite one and keep subnormals") {
  // meshopt_quantizeHalf gives infinity past 65504 (a UV of 70000 baked as +inf, exit 0) and 0
  // below 2^-14.
  CHECK(baker::to_half(1.0f) == 0x3c00);
  CHECK(baker::to_half(-2.5f) == 0xc100);
  CHECK(baker::to_half(65504.0f) == 0x7bff);
  CHECK(baker::to_half(70000.0f) == 0x7bff);
  CHECK(baker::to_half(-1e30f) == 0xfbff);
  CHECK(baker::to_half(0x1p-24f) == 0x0001);  // the smallest subnormal
  CHECK(baker::to_half(0x1p-15f) == 0x0200);
  CHECK(baker::to_half(-0x1p-15f) == 0x8200);
  CHECK(baker::to_half(0x1p-14f) == 0x0400);  // the smallest normal
  CHECK(baker::to_half(0x1p-26f) == 0x0000);  // rounds to 0
  CHECK(baker::to_half(std::nanf("")) == 0);
}

TEST_CASE("an OBJ UV beyond the half float range bakes clamped, with a warning") {
  const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 70000 0\nvt 0 1\nf 1/1 2/2 3/3\n";
  baker::BakedAssets baked;
  std::vector<std::string> warnings;
  REQUIRE(baker::bake_obj(obj, "tile.obj", {}, {}, baked, warnings).ok());
  const baker::BakedAsset& mesh = baked.back();
  assetlib::MeshInfo info;
  REQUIRE(assetlib::read_mesh_info(mesh.file, info).ok());
  REQUIRE(info.vertex_format == assetlib::VertexFormat::PNCVT_OCT);
  std::vector<assetlib::Vertex_PNCVT_OCT> vertices(info.vertex_count);
  std::vector<std::byte> indices(info.index_buffer_size);
  REQUIRE(assetlib::unpack_mesh(info, mesh.file.blob.data(), mesh.file.blob.size(), vertices.data(),
                                info.vertex_buffer_size, indices.data(), indices.size())
              .ok());
  size_t clamped = 0;
  for (const auto& v : vertices) {
    CHECK((v.uv[0] & 0x7c00) != 0x7c00);  // no infinity
    clamped += v.uv[0] == 0x7bff;
  }
  CHECK(clamped == 1);
  CHECK(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("UVs reach 70000, beyond the largest half float: clamped to 65504") !=
           std::string::npos;
  }));
}
