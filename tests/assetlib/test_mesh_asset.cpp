// Mesh assets: both vertex formats, both index widths, bounds, submeshes and materials.
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace assetlib;

namespace {

struct Unpacked {
  MeshInfo info;
  std::vector<std::byte> vertices, indices;
};

Unpacked unpack(const AssetFile& file) {
  Unpacked u;
  REQUIRE(read_mesh_info(file, u.info).ok());
  u.vertices.resize(u.info.vertex_buffer_size);
  u.indices.resize(u.info.index_buffer_size);
  REQUIRE(unpack_mesh(u.info, file.blob.data(), file.blob.size(), u.vertices.data(),
                      u.vertices.size(), u.indices.data(), u.indices.size())
              .ok());
  return u;
}

// A grid of `n` x `n` quads packed with the default options.
AssetFile packed_grid(uint32_t n) {
  test::GridMesh grid = test::grid_mesh(n);
  AssetFile file;
  REQUIRE(pack_mesh(test::grid_info(grid), grid.vertices.data(), grid.vertices.size() * 44,
                    grid.indices.data(), grid.indices.size() * 4, file)
              .ok());
  return file;
}

template <typename T>
bool same_bytes(const std::vector<std::byte>& bytes, const std::vector<T>& values) {
  return bytes.size() == values.size() * sizeof(T) &&
         std::memcmp(bytes.data(), values.data(), bytes.size()) == 0;
}

}  // namespace

TEST_CASE("vertex formats describe themselves for Vulkan") {
  CHECK(vertex_format_stride(VertexFormat::PNCV_F32) == 44);
  CHECK(vertex_format_stride(VertexFormat::P32N8C8V16) == 24);
  VertexAttribute attrs[8];
  REQUIRE(vertex_format_attributes(VertexFormat::P32N8C8V16, attrs) == 4);
  CHECK(attrs[0].vk_format == 106);  // R32G32B32_SFLOAT
  CHECK(attrs[1].vk_format == 38);   // R8G8B8A8_SNORM
  CHECK(attrs[3].offset == 20);
  CHECK(vertex_format_attributes(VertexFormat::Unknown, attrs) == 0);
  CHECK(vertex_format_from_name("PNCV_F32") == VertexFormat::PNCV_F32);
}

TEST_CASE("meshes round-trip with 32-bit and 16-bit indices and both codecs") {
  test::GridMesh grid = test::grid_mesh(20);
  MeshInfo info = test::grid_info(grid);
  PackOptions options;
  options.compression = GENERATE(Compression::LZ4, Compression::None);

  SECTION("32-bit") {
    AssetFile file;
    REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                      grid.indices.size() * 4, file, options)
                .ok());
    Unpacked u = unpack(file);
    CHECK(same_bytes(u.vertices, grid.vertices));
    CHECK(same_bytes(u.indices, grid.indices));
    CHECK(u.info.vertex_count == 441);
    CHECK(u.info.index_count == 2400);
    CHECK(u.info.index_size == 4);
    CHECK(u.info.original_file == "models/grid.obj");
    CHECK(u.info.compression == options.compression);
  }
  SECTION("16-bit") {
    std::vector<uint16_t> small(grid.indices.begin(), grid.indices.end());
    info.index_size = 2;
    AssetFile file;
    REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, small.data(),
                      small.size() * 2, file, options)
                .ok());
    Unpacked u = unpack(file);
    CHECK(same_bytes(u.indices, small));
    CHECK(u.info.index_buffer_size == small.size() * 2);
  }
}

TEST_CASE("the compact vertex format round-trips") {
  std::vector<Vertex_P32N8C8V16> vertices(3);
  for (int i = 0; i < 3; ++i) {
    vertices[size_t(i)] = {
        {float(i), float(i * 2), -1.0f}, {0, 127, 0, 0}, {255, 128, 0, 255}, {0x3C00, 0x3800}};
  }
  std::vector<uint16_t> indices = {0, 1, 2};
  MeshInfo info;
  info.vertex_format = VertexFormat::P32N8C8V16;
  info.vertex_count = 3;
  info.index_count = 3;
  info.index_size = 2;
  AssetFile file;
  REQUIRE(pack_mesh(info, vertices.data(), 72, indices.data(), 6, file).ok());
  Unpacked u = unpack(file);
  CHECK(u.info.vertex_stride == 24);
  CHECK(same_bytes(u.vertices, vertices));
}

TEST_CASE("bounds contain every vertex, for the mesh and each submesh") {
  test::GridMesh grid = test::grid_mesh(4);
  grid.vertices[22].position[1] = 3.0f;  // one vertex of the last row sticks up
  MeshInfo info = test::grid_info(grid);
  info.materials.resize(2);
  info.materials[0].name = "floor";
  info.materials[1].name = "roof";
  info.materials[1].base_color_texture = "textures/bricks.png";
  info.materials[1].base_color[3] = 0.5f;
  uint32_t half = info.index_count / 2;
  info.submeshes = {{0, half, 0, {}, 0, 0}, {half, info.index_count - half, 1, {}, 0, 0}};
  AssetFile file;
  REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                    grid.indices.size() * 4, file)
              .ok());
  Unpacked u = unpack(file);
  const MeshBounds& b = u.info.bounds;
  CHECK(b.origin[1] == Approx(1.75f));
  CHECK(b.extents[1] == Approx(1.25f));
  for (const auto& v : grid.vertices) {
    float d2 = 0;
    for (int k = 0; k < 3; ++k) {
      CHECK(std::fabs(v.position[k] - b.origin[k]) <= b.extents[k] + 1e-5f);
      d2 += (v.position[k] - b.origin[k]) * (v.position[k] - b.origin[k]);
    }
    CHECK(std::sqrt(d2) <= b.radius + 1e-5f);
  }
  REQUIRE(u.info.submeshes.size() == 2);
  CHECK(u.info.submeshes[1].first_index == half);
  CHECK(u.info.submeshes[1].material == 1);
  CHECK(u.info.submeshes[0].bounds.extents[1] < b.extents[1]);  // each has its own bounds
  REQUIRE(u.info.materials.size() == 2);
  CHECK(u.info.materials[1].name == "roof");
  CHECK(u.info.materials[1].base_color_texture == "textures/bricks.png");
  CHECK(u.info.materials[1].base_color[3] == 0.5f);
}

TEST_CASE("bounds hold every vertex exactly, rounded outward, not to the nearest float") {
  // (0.1, 0.6): the nearest float to the half-size put the box's low side a float step above 0.1f,
  // and most random meshes had a vertex a step outside their box or sphere.
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1 << 24) * 2.0f - 1.0f;
  };
  for (int mesh = 0; mesh < 200; ++mesh) {
    std::vector<float> positions(3 * 7);
    for (float& p : positions) p = next() * (mesh % 2 ? 1000.0f : 1.0f);
    if (mesh == 0) positions = {0.1f, 0, 0, 0.6f, 0, 0, 0.1f, 1, 0};
    const uint32_t count = uint32_t(positions.size() / 3);
    const MeshBounds b = compute_mesh_bounds(positions.data(), count, 12);
    for (uint32_t v = 0; v < count; ++v) {
      const float* p = &positions[3 * v];
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        INFO("mesh " << mesh << " vertex " << v << " axis " << k);
        CHECK(b.origin[k] - b.extents[k] <= p[k]);  // in float, as a reader computes it
        CHECK(b.origin[k] + b.extents[k] >= p[k]);
        const double d = double(p[k]) - double(b.origin[k]);
        d2 += d * d;
      }
      CHECK(d2 <= double(b.radius) * double(b.radius));
    }
  }
}

TEST_CASE("a mesh without submeshes or materials gets one of each") {
  test::GridMesh grid = test::grid_mesh(2);
  MeshInfo info = test::grid_info(grid);
  AssetFile file;
  REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                    grid.indices.size() * 4, file)
              .ok());
  Unpacked u = unpack(file);
  REQUIRE(u.info.submeshes.size() == 1);
  CHECK(u.info.submeshes[0].index_count == u.info.index_count);
  REQUIRE(u.info.materials.size() == 1);
  CHECK(u.info.materials[0].name == "default");
}

TEST_CASE("pack_mesh rejects out-of-range indices, wrong sizes and bad submeshes") {
  test::GridMesh grid = test::grid_mesh(2);
  MeshInfo info = test::grid_info(grid);
  AssetFile file;
  auto pack = [&](const MeshInfo& i) {
    return pack_mesh(i, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                     grid.indices.size() * 4, file);
  };
  grid.indices[5] = 9;  // == vertex_count
  CHECK(pack(info).code == ErrorCode::InvalidArgument);
  grid.indices[5] = 0;
  MeshInfo wrong = info;
  wrong.vertex_count -= 1;
  CHECK(pack(wrong).code == ErrorCode::InvalidArgument);
  wrong = info;
  wrong.index_size = 3;
  CHECK(pack(wrong).code == ErrorCode::InvalidValue);
  wrong = info;
  wrong.submeshes = {{0, 6, 0, {}, 0, 0}};  // leaves indices uncovered
  CHECK(pack(wrong).code == ErrorCode::InvalidValue);
  grid.vertices[0].position[0] = std::nanf("");
  CHECK(pack(info).code == ErrorCode::InvalidArgument);
}

TEST_CASE("pack_mesh refuses meshlet data that the counts do not announce") {
  test::GridMesh grid = test::grid_mesh(2);
  MeshInfo info = test::grid_info(grid);  // meshlet_count 0
  MeshletData data;
  data.meshlets.push_back(Meshlet{0, 0, 3, 1, {0, 0, 0}, 1, {0, 0, 0}, {0, 1, 0}, 1});
  data.vertices = {0, 1, 2};
  data.triangles = {0, 1, 2};
  AssetFile file;
  Status s = pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                       grid.indices.size() * 4, file, {}, &data);
  CHECK(s.code == ErrorCode::InvalidArgument);
}

TEST_CASE("read_mesh_info rejects inconsistent metadata") {
  AssetFile good = packed_grid(2);
  MeshInfo info;
  auto read_with = [&](auto edit) {
    AssetFile copy = good;
    nlohmann::json j = nlohmann::json::parse(copy.json);
    edit(j);
    copy.json = j.dump();
    return read_mesh_info(copy, info);
  };
  CHECK(read_with([](auto& j) { j["vertex_stride"] = 12; }).code == ErrorCode::InvalidValue);
  CHECK(read_with([](auto& j) { j["index_size"] = 2; }).code == ErrorCode::InvalidValue);
  CHECK(read_with([](auto& j) { j.erase("bounds"); }).code == ErrorCode::MissingKey);
  CHECK(read_with([](auto& j) { j["bounds"]["origin"] = {1, 2}; }).code == ErrorCode::InvalidValue);
  CHECK(read_with([](auto& j) { j["bounds"]["radius"] = -1; }).code == ErrorCode::InvalidValue);
  CHECK(read_with([](auto& j) { j["submeshes"][0]["bounds"]["extents"][1] = -0.5; }).code ==
        ErrorCode::InvalidValue);
  CHECK(read_with([](auto& j) { j["submeshes"][0]["material"] = 4; }).code ==
        ErrorCode::InvalidValue);
  CHECK(read_with([](auto& j) { j["vertex_format"] = "XYZ"; }).code == ErrorCode::InvalidValue);
  CHECK(read_with([](auto& j) { j["index_count"] = 7; }).code == ErrorCode::InvalidValue);
  CHECK(read_texture_info(good, *std::make_unique<TextureInfo>()).code == ErrorCode::UnknownType);
}

TEST_CASE("LODs and meshlets round-trip as extra sections, viewed without copying") {
  test::GridMesh grid = test::grid_mesh(4);  // 25 vertices, 32 triangles
  MeshInfo info = test::grid_info(grid);
  // LOD 1: the two big triangles of the whole quad, appended after LOD 0.
  std::vector<uint32_t> indices = grid.indices;
  indices.insert(indices.end(), {0, 20, 4, 4, 20, 24});
  info.lod_index_count = 6;
  info.lods = {MeshLod{0.25f, {{info.index_count, 6}}}};
  // Two meshlets: the first 16 triangles and the rest, each with its own local vertex list.
  MeshletData data;
  for (uint32_t m = 0; m < 2; ++m) {
    Meshlet ml{uint32_t(data.vertices.size()),
               uint32_t(data.triangles.size()),
               0,
               16,
               {0, 0, 0},
               1,
               {0, 0, 0},
               {0, 1, 0},
               1};
    std::vector<uint32_t> local;
    for (uint32_t i = m * 48; i < m * 48 + 48; ++i) {
      auto it = std::find(local.begin(), local.end(), grid.indices[i]);
      if (it == local.end()) local.push_back(grid.indices[i]), it = local.end() - 1;
      data.triangles.push_back(uint8_t(it - local.begin()));
    }
    ml.vertex_count = uint32_t(local.size());
    data.vertices.insert(data.vertices.end(), local.begin(), local.end());
    data.meshlets.push_back(ml);
  }
  info.meshlet_count = 2;
  info.meshlet_vertex_count = uint32_t(data.vertices.size());
  info.meshlet_triangle_count = 32;
  info.stats = {1.5f, 0.8f, 1.9f, 1.1f};
  AssetFile file;
  REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, indices.data(),
                    indices.size() * 4, file, {}, &data)
              .ok());

  Unpacked u = unpack(file);
  CHECK(same_bytes(u.indices, indices));  // LOD 0 then LOD 1
  REQUIRE(u.info.lods.size() == 1);
  CHECK(u.info.lods[0].error == 0.25f);
  CHECK(u.info.lods[0].submeshes[0].first_index == u.info.index_count);
  CHECK(u.info.stats.acmr_after == 0.8f);
  REQUIRE(u.info.submeshes[0].meshlet_count == 2);
  std::vector<uint32_t> meshlet_bytes(u.info.meshlet_data_size / 4 + 1);
  REQUIRE(unpack_meshlets(u.info, file.blob.data(), file.blob.size(), meshlet_bytes.data(),
                          u.info.meshlet_data_size)
              .ok());
  MeshletView view = meshlet_view(u.info, meshlet_bytes.data());
  CHECK(view.meshlets[1].vertex_offset == data.meshlets[1].vertex_offset);
  CHECK(view.vertices[view.meshlets[1].vertex_offset] ==
        data.vertices[data.meshlets[1].vertex_offset]);
  CHECK(view.triangles[47] == data.triangles[47]);

  SECTION("a meshlet pointing outside its arrays is refused") {
    data.meshlets[1].vertex_count = 60;  // past the vertex array
    CHECK(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, indices.data(),
                    indices.size() * 4, file, {}, &data)
              .code == ErrorCode::InvalidArgument);
  }
  SECTION("a LOD range outside the LOD indices is refused") {
    info.lods[0].submeshes[0].first_index = 0;
    CHECK(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, indices.data(),
                    indices.size() * 4, file, {}, &data)
              .code == ErrorCode::InvalidValue);
  }
  SECTION("a negative LOD error is refused, written or read") {
    info.lods[0].error = -1;
    CHECK(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, indices.data(),
                    indices.size() * 4, file, {}, &data)
              .code == ErrorCode::InvalidValue);
    AssetFile edited = file;
    nlohmann::json meta = nlohmann::json::parse(edited.json);
    meta["lods"][0]["error"] = -0.5;
    edited.json = meta.dump();
    CHECK(read_mesh_info(edited, *std::make_unique<MeshInfo>()).code == ErrorCode::InvalidValue);
  }
}

TEST_CASE("unpack_mesh checks both destinations before writing either") {
  AssetFile file = packed_grid(4);
  MeshInfo info;
  REQUIRE(read_mesh_info(file, info).ok());
  std::vector<std::byte> vertices(info.vertex_buffer_size, std::byte{0xAB});
  std::vector<std::byte> indices(info.index_buffer_size - 1);
  Status s = unpack_mesh(info, file.blob.data(), file.blob.size(), vertices.data(), vertices.size(),
                         indices.data(), indices.size());
  CHECK(s.code == ErrorCode::DestinationTooSmall);
  CHECK(std::all_of(vertices.begin(), vertices.end(),
                    [](std::byte b) { return b == std::byte{0xAB}; }));
}

TEST_CASE("check_mesh_indices names the first index not below the vertex count") {
  test::GridMesh grid = test::grid_mesh(4);  // 25 vertices
  MeshInfo info = test::grid_info(grid);
  for (uint32_t index_size : {4u, 2u}) {
    INFO(index_size);
    info.index_size = index_size;
    std::vector<std::byte> bytes(grid.indices.size() * index_size);
    auto put = [&](size_t i, uint32_t value) {
      if (index_size == 2) {
        uint16_t v16 = uint16_t(value);
        std::memcpy(bytes.data() + 2 * i, &v16, 2);
      } else {
        std::memcpy(bytes.data() + 4 * i, &value, 4);
      }
    };
    for (size_t i = 0; i < grid.indices.size(); ++i) put(i, grid.indices[i]);
    AssetFile file;
    REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * 44, bytes.data(),
                      bytes.size(), file)
                .ok());
    MeshInfo read;
    REQUIRE(read_mesh_info(file, read).ok());
    CHECK(check_mesh_indices(read, bytes.data(), bytes.size()).ok());
    put(7, 25);  // the vertex count: one past the last vertex
    put(9, 0xffff);
    Status s = check_mesh_indices(read, bytes.data(), bytes.size());
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(s.message == "check_mesh_indices: index 7 is 25, not below the mesh's 25 vertices");
    CHECK(check_mesh_indices(read, bytes.data(), bytes.size() - 1).code ==
          ErrorCode::DestinationTooSmall);
  }
}
