// Legacy vkguide files (docs/format.md, "Legacy vkguide files"), written here by hand from that
// description as vkguide's asset system writes them (compact JSON, no padding, one LZ4 block for a
// whole blob), read through the ordinary readers: exact bytes and values, and clear errors for
// hostile ones.
#include "edited_metadata.h"
#include "test_helpers.h"

#include <lz4.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>

using namespace assetlib;
using nlohmann::json;

namespace {

// One LZ4 block of `data`, as vkguide's pack functions write it (LZ4_compress_default).
std::vector<std::byte> lz4_block(const void* data, size_t size) {
  std::vector<std::byte> out(static_cast<size_t>(LZ4_compressBound(int(size))));
  int n = LZ4_compress_default(static_cast<const char*>(data), reinterpret_cast<char*>(out.data()),
                               int(size), int(out.size()));
  REQUIRE(n > 0);
  out.resize(size_t(n));
  return out;
}

template <typename T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// A legacy file as vkguide's save_binaryfile writes it: type, version 1, the JSON as dumped.
AssetFile legacy_file(const char (&type)[5], const json& meta, std::vector<std::byte> blob = {}) {
  AssetFile file;
  std::memcpy(file.type, type, 4);
  file.version = 1;
  file.json = meta.dump();
  file.blob = std::move(blob);
  return file;
}

// vkguide's texture metadata for a width x height RGBA8 texture.
json texture_meta(uint32_t width, uint32_t height, uint64_t buffer_size,
                  const char* compression = "LZ4") {
  return {{"format", "RGBA8"},          {"width", width},
          {"height", height},           {"buffer_size", buffer_size},
          {"compression", compression}, {"original_file", "C:/game/assets/lost_empire-RGBA.png"}};
}

// vkguide's mesh metadata.
json mesh_meta(const char* format, uint64_t vertex_bytes, uint64_t index_bytes, int index_size,
               const char* compression = "LZ4") {
  return {{"vertex_format", format},
          {"vertex_buffer_size", vertex_bytes},
          {"index_buffer_size", index_bytes},
          {"index_size", index_size},
          {"original_file", "C:/game/assets/monkey_smooth.obj"},
          {"bounds", {0.5, 1.0, -2.0, 3.5, 1.5, 2.5, 0.25}},
          {"compression", compression}};
}

std::vector<uint8_t> unpack_texture_bytes(const AssetFile& file, TextureInfo& info) {
  REQUIRE(read_texture_info(file, info).ok());
  std::vector<uint8_t> out(info.total_size);
  REQUIRE(unpack_texture(info, file.blob.data(), file.blob.size(), out.data(), out.size()).ok());
  return out;
}

struct UnpackedMesh {
  MeshInfo info;
  std::vector<std::byte> vertices, indices;
};

UnpackedMesh unpack_mesh_bytes(const AssetFile& file) {
  UnpackedMesh u;
  Status s = read_mesh_info(file, u.info);
  INFO(s.message);
  REQUIRE(s.ok());
  u.vertices.resize(u.info.vertex_buffer_size);
  u.indices.resize(u.info.index_buffer_size);
  s = unpack_mesh(u.info, file.blob.data(), file.blob.size(), u.vertices.data(), u.vertices.size(),
                  u.indices.data(), u.indices.size());
  INFO(s.message);
  REQUIRE(s.ok());
  return u;
}

// Known vertices of both layouts (vkguide's baker flips v itself: stored as given here).
std::vector<Vertex_PNCV_F32> pncv_vertices() {
  return {{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {0, 1}},
          {{1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 1}},
          {{1, 1, 0}, {0, 0, 1}, {0, 0, 1}, {1, 0}},
          {{0, 1, 0.5f}, {0, 0.6f, 0.8f}, {0.25f, 0.5f, 0.75f}, {0, 0}}};
}

std::vector<Vertex_P32N8C8V16_VKGUIDE> compact_vertices() {
  // Normals as vkguide's baker wrote them: uint8((n + 1) / 2 * 255); colours as given.
  return {{{0, 0, 0}, {127, 127, 255}, {255, 0, 0}, {0, 0}, {0, 1}},
          {{1, 0, 0}, {127, 255, 127}, {0, 255, 0}, {0, 0}, {1, 1}},
          {{1, 1, 0}, {0, 127, 127}, {0, 0, 255}, {0, 0}, {1, 0}},
          {{-1, 2, 3}, {255, 127, 127}, {10, 20, 30}, {0, 0}, {0.25f, 0.75f}}};
}

// The error of reading a legacy texture / mesh: its code and message.
Status texture_error(const AssetFile& file) {
  TextureInfo info;
  info.original_file = "untouched";
  Status s = read_texture_info(file, info);
  CHECK(info.original_file == "untouched");  // left unchanged on error
  return s;
}

Status mesh_error(const AssetFile& file) {
  MeshInfo info;
  info.original_file = "untouched";
  Status s = read_mesh_info(file, info);
  CHECK(info.original_file == "untouched");
  return s;
}

bool mentions(const Status& s, const std::string& text) {
  return s.message.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("a legacy vkguide RGBA8 texture reads as one sRGB level with its exact pixels") {
  // 2x2 texels: red, green, blue (slightly off, so that no 4 bytes repeat), half-transparent white.
  // Its LZ4 block (17 bytes) is larger than its 16 bytes of data, as LZ4 writes for tiny or
  // incompressible textures.
  const std::vector<uint8_t> pixels = {250, 10, 20,  255, 30,  240, 40,  254,
                                       50,  60, 230, 253, 255, 255, 255, 128};
  std::vector<std::byte> blob = lz4_block(pixels.data(), pixels.size());
  REQUIRE(blob.size() > pixels.size());
  AssetFile file = legacy_file("TEXI", texture_meta(2, 2, 16), blob);

  // vkguide's save_binaryfile: header, unpadded JSON, blob; loaded by ours from disk.
  test::TempDir dir("legacy-texture");
  std::vector<std::byte> bytes(16 + file.json.size() + blob.size());
  auto put_u32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = std::byte((v >> (8 * i)) & 0xff);
  };
  std::memcpy(bytes.data(), "TEXI", 4);
  put_u32(4, 1);
  put_u32(8, uint32_t(file.json.size()));
  put_u32(12, uint32_t(blob.size()));
  std::memcpy(bytes.data() + 16, file.json.data(), file.json.size());
  std::memcpy(bytes.data() + 16 + file.json.size(), blob.data(), blob.size());
  test::write_bytes(dir.file("lost_empire-RGBA.tx"), bytes.data(), bytes.size());
  AssetFile loaded;
  REQUIRE(load_binaryfile(dir.file("lost_empire-RGBA.tx"), loaded).ok());

  TextureInfo info;
  std::vector<uint8_t> out = unpack_texture_bytes(loaded, info);
  CHECK(out == pixels);
  CHECK(info.legacy);
  CHECK(info.format == TextureFormat::RGBA8_SRGB);
  CHECK(texture_format_vk(info.format) == 43);  // VK_FORMAT_R8G8B8A8_SRGB
  CHECK(info.width == 2);
  CHECK(info.height == 2);
  REQUIRE(info.mips.size() == 1);
  CHECK(info.mips[0].size == 16);
  CHECK(info.total_size == 16);
  CHECK(info.original_file == "C:/game/assets/lost_empire-RGBA.png");
  CHECK(info.compression == Compression::LegacyLZ4);
  REQUIRE(info.chunks.size() == 1);
  CHECK(info.chunks[0].raw_size == 16);
  CHECK(info.chunks[0].packed_size == blob.size());

  // The other ways in give the same bytes: level 0 alone, and the one chunk.
  std::vector<uint8_t> level(16), chunk(16);
  REQUIRE(
      unpack_texture_mips(info, 0, loaded.blob.data(), loaded.blob.size(), level.data(), 16).ok());
  CHECK(level == pixels);
  REQUIRE(unpack_chunk(info.compression, info.chunks[0], loaded.blob.data(), loaded.blob.size(),
                       chunk.data(), 16)
              .ok());
  CHECK(chunk == pixels);
}

TEST_CASE("legacy vkguide textures compressed, incompressible and stored raw unpack exactly") {
  auto compression = GENERATE(as<std::string>{}, "LZ4", "LZ4-noise", "None");
  const uint32_t w = 64, h = 32;
  std::vector<uint8_t> pixels =
      compression == "LZ4-noise" ? test::noise_bytes(w * h * 4) : test::gradient_pixels(w * h * 4);
  bool raw = compression == "None";
  std::vector<std::byte> blob = raw ? bytes_of(pixels) : lz4_block(pixels.data(), pixels.size());
  TextureInfo info;
  std::vector<uint8_t> out = unpack_texture_bytes(
      legacy_file("TEXI", texture_meta(w, h, pixels.size(), raw ? "None" : "LZ4"), blob), info);
  CHECK(out == pixels);
  CHECK(info.compression == (raw ? Compression::None : Compression::LegacyLZ4));
  if (compression == "LZ4") CHECK(blob.size() < pixels.size());
  if (compression == "LZ4-noise") CHECK(blob.size() > pixels.size());
}

TEST_CASE("a legacy vkguide LZ4 block exactly as large as its data is decoded, not copied") {
  // Our own format stores a chunk whose packed size equals its raw size as plain bytes. A legacy
  // block of that size is still LZ4: find data whose block is exactly its size (a little noise
  // with one repeat) and check the texels come out decoded.
  std::vector<uint8_t> pixels;
  std::vector<std::byte> blob;
  for (uint32_t side = 4; side <= 16 && blob.empty(); ++side) {
    for (size_t repeat = 4; repeat < 64 && blob.empty(); ++repeat) {
      std::vector<uint8_t> candidate = test::noise_bytes(side * side * 4, side);
      if (repeat * 2 > candidate.size()) break;
      std::memcpy(candidate.data() + candidate.size() / 2, candidate.data(), repeat);
      std::vector<std::byte> block = lz4_block(candidate.data(), candidate.size());
      if (block.size() == candidate.size()) {
        pixels = candidate;
        blob = block;
      }
    }
  }
  REQUIRE(!blob.empty());
  REQUIRE(std::memcmp(blob.data(), pixels.data(), pixels.size()) != 0);
  uint32_t side = uint32_t(std::lround(std::sqrt(double(pixels.size()) / 4.0)));
  TextureInfo info;
  CHECK(unpack_texture_bytes(legacy_file("TEXI", texture_meta(side, side, pixels.size()), blob),
                             info) == pixels);
  REQUIRE(info.chunks.size() == 1);
  CHECK(info.chunks[0].packed_size == info.chunks[0].raw_size);
}

TEST_CASE("a legacy vkguide PNCV_F32 mesh reads with 16- and 32-bit indices, exact bytes") {
  const int index_size = GENERATE(2, 4);
  const char* compression = GENERATE("LZ4", "None");
  INFO("index_size " << index_size << ", compression " << compression);
  std::vector<Vertex_PNCV_F32> vertices = pncv_vertices();
  std::vector<std::byte> vertex_bytes = bytes_of(vertices);
  std::vector<std::byte> index_bytes = index_size == 2
                                           ? bytes_of(std::vector<uint16_t>{0, 1, 2, 2, 3, 0})
                                           : bytes_of(std::vector<uint32_t>{0, 1, 2, 2, 3, 0});
  std::vector<std::byte> data = vertex_bytes;
  data.insert(data.end(), index_bytes.begin(), index_bytes.end());
  bool raw = std::string(compression) == "None";
  std::vector<std::byte> blob = raw ? data : lz4_block(data.data(), data.size());
  UnpackedMesh m = unpack_mesh_bytes(legacy_file(
      "MESH",
      mesh_meta("PNCV_F32", vertex_bytes.size(), index_bytes.size(), index_size, compression),
      blob));

  CHECK(m.vertices == vertex_bytes);
  CHECK(m.indices == index_bytes);
  const MeshInfo& info = m.info;
  CHECK(info.legacy);
  CHECK(info.vertex_format == VertexFormat::PNCV_F32);
  CHECK(info.vertex_stride == 44);
  CHECK(info.vertex_count == 4);
  CHECK(info.index_count == 6);
  CHECK(info.index_size == uint32_t(index_size));
  CHECK(info.lod_index_count == 0);
  CHECK(info.lods.empty());
  CHECK(info.meshlet_count == 0);
  CHECK(info.original_file == "C:/game/assets/monkey_smooth.obj");
  CHECK(info.compression == (raw ? Compression::None : Compression::LegacyLZ4));
  CHECK(mesh_unpacked_size(info) == data.size());
  // vkguide's bounds array: origin xyz, radius, extents xyz.
  CHECK(info.bounds.origin[0] == 0.5f);
  CHECK(info.bounds.origin[1] == 1.0f);
  CHECK(info.bounds.origin[2] == -2.0f);
  CHECK(info.bounds.radius == 3.5f);
  CHECK(info.bounds.extents[0] == 1.5f);
  CHECK(info.bounds.extents[1] == 2.5f);
  CHECK(info.bounds.extents[2] == 0.25f);
  // One white "default" material and one submesh drawing every index.
  REQUIRE(info.materials.size() == 1);
  CHECK(info.materials[0].name == "default");
  CHECK(info.materials[0].base_color[0] == 1);
  REQUIRE(info.submeshes.size() == 1);
  CHECK(info.submeshes[0].first_index == 0);
  CHECK(info.submeshes[0].index_count == 6);
  CHECK(info.submeshes[0].material == 0);
  // Meshlets: none, and unpacking them is a no-op that succeeds.
  CHECK(unpack_meshlets(info, blob.data(), blob.size(), m.vertices.data(), 0).ok());
}

TEST_CASE("a legacy vkguide P32N8C8V16 mesh keeps vkguide's own 28-byte layout") {
  std::vector<Vertex_P32N8C8V16_VKGUIDE> vertices = compact_vertices();
  std::vector<uint32_t> indices = {0, 1, 2, 0, 2, 3};
  std::vector<std::byte> data = bytes_of(vertices);
  std::vector<std::byte> index_bytes = bytes_of(indices);
  data.insert(data.end(), index_bytes.begin(), index_bytes.end());
  UnpackedMesh m = unpack_mesh_bytes(
      legacy_file("MESH", mesh_meta("P32N8C8V16", vertices.size() * 28, indices.size() * 4, 4),
                  lz4_block(data.data(), data.size())));

  CHECK(m.info.vertex_format == VertexFormat::P32N8C8V16_VKGUIDE);
  CHECK(m.info.vertex_stride == 28);
  CHECK(m.info.vertex_count == 4);
  REQUIRE(m.vertices == bytes_of(vertices));
  CHECK(m.indices == index_bytes);
  Vertex_P32N8C8V16_VKGUIDE last;
  std::memcpy(&last, m.vertices.data() + 3 * 28, 28);
  CHECK(last.position[0] == -1);
  CHECK(last.normal[0] == 255);
  CHECK(last.color[2] == 30);
  CHECK(last.uv[1] == 0.75f);

  // Vertex input for it: normal and colour are 3 unorm bytes at 12 and 15, uv two floats at 20.
  VertexAttribute attributes[8];
  REQUIRE(vertex_format_attributes(VertexFormat::P32N8C8V16_VKGUIDE, attributes) == 4);
  CHECK(attributes[1].vk_format == 23);  // VK_FORMAT_R8G8B8_UNORM
  CHECK(attributes[1].offset == 12);
  CHECK(attributes[2].vk_format == 23);
  CHECK(attributes[2].offset == 15);
  CHECK(attributes[3].vk_format == 103);  // VK_FORMAT_R32G32_SFLOAT
  CHECK(attributes[3].offset == 20);

  // Read-only: no file of ours names it, and pack_mesh refuses it.
  CHECK(vertex_format_from_name("P32N8C8V16") == VertexFormat::P32N8C8V16);
  CHECK(vertex_format_from_name("P32N8C8V16_VKGUIDE") == VertexFormat::Unknown);
  CHECK(std::string(vertex_format_name(VertexFormat::P32N8C8V16_VKGUIDE)) == "P32N8C8V16_VKGUIDE");
  AssetFile repacked;
  Status s = pack_mesh(m.info, m.vertices.data(), m.vertices.size(), m.indices.data(),
                       m.indices.size(), repacked);
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(mentions(s, "read-only"));
}

TEST_CASE("a legacy PNCV_F32 mesh packs again into our format as it is") {
  std::vector<Vertex_PNCV_F32> vertices = pncv_vertices();
  std::vector<uint16_t> indices = {0, 1, 2, 2, 3, 0};
  std::vector<std::byte> data = bytes_of(vertices);
  std::vector<std::byte> index_bytes = bytes_of(indices);
  data.insert(data.end(), index_bytes.begin(), index_bytes.end());
  UnpackedMesh m = unpack_mesh_bytes(legacy_file(
      "MESH", mesh_meta("PNCV_F32", data.size() - 12, 12, 2), lz4_block(data.data(), data.size())));
  AssetFile ours;
  REQUIRE(pack_mesh(m.info, m.vertices.data(), m.vertices.size(), m.indices.data(),
                    m.indices.size(), ours)
              .ok());
  UnpackedMesh again = unpack_mesh_bytes(ours);
  CHECK_FALSE(again.info.legacy);
  CHECK(again.info.compression == Compression::LZ4);
  CHECK(again.vertices == m.vertices);
  CHECK(again.indices == m.indices);
}

TEST_CASE("a legacy vkguide material (MATX) gives its base colour texture and alpha mode") {
  auto [transparency, mode] = GENERATE(table<std::string, AlphaMode>(
      {{"transparent", AlphaMode::Blend}, {"masked", AlphaMode::Mask}, {"", AlphaMode::Opaque}}));
  json meta = {{"baseEffect", "defaultPBR"},
               {"textures", {{"baseColor", "../Sponza/textures/lion.tx"}}},
               {"customProperties", {{"$mat.opacity", "1"}}}};
  if (!transparency.empty()) meta["transparency"] = transparency;
  const char* type = GENERATE("MATX", "MATL");
  AssetFile file = legacy_file("MATX", meta);
  std::memcpy(file.type, type, 4);
  MaterialInfo info;
  Status s = read_material_info(file, info);
  INFO(s.message);
  REQUIRE(s.ok());
  CHECK(info.legacy);
  CHECK(info.base_color.texture == "../Sponza/textures/lion.tx");
  CHECK(info.alpha_mode == mode);
  CHECK(info.metallic_factor == 0);
  CHECK(info.roughness_factor == 1);
  CHECK(info.normal.texture.empty());
  // It packs again into our format (not legacy any more).
  AssetFile ours;
  REQUIRE(pack_material(info, ours).ok());
  MaterialInfo reread;
  REQUIRE(read_material_info(ours, reread).ok());
  CHECK_FALSE(reread.legacy);
  CHECK(reread.base_color.texture == info.base_color.texture);
  CHECK(reread.alpha_mode == mode);
}

TEST_CASE("a legacy vkguide prefab becomes nodes ordered parents first, matrices exact") {
  // vkguide node ids, listed in no particular order: 7 is a child of 0, 5 a child of 7, and 9 (a
  // primitive node, no matrix) a child of 5; 3 has a mesh only.
  std::vector<float> matrices(3 * 16, 0.0f);
  for (int m = 0; m < 3; ++m) {
    for (int k = 0; k < 16; ++k) matrices[m * 16 + k] = float(m * 100 + k) + 0.5f;
  }
  json meta = {{"node_matrices", {{5, 2}, {0, 0}, {7, 1}}},
               {"node_names", {{7, "arm"}, {0, "root"}, {5, "hand"}, {9, "hand_PRIM_0"}}},
               {"node_parents", {{5, 7}, {9, 5}, {7, 0}}},
               {"node_meshes",
                {{9,
                  {{"mesh_path", "scene_GLTF/MESH_0_hand.mesh"},
                   {"material_path", "scene_GLTF/MAT_0_skin.mat"}}},
                 {3, {{"mesh_path", "scene_GLTF/MESH_1.mesh"}, {"material_path", ""}}}}}};
  AssetFile file = legacy_file("PRFB", meta, bytes_of(matrices));
  PrefabInfo info;
  Status s = read_prefab_info(file, info);
  INFO(s.message);
  REQUIRE(s.ok());
  CHECK(info.legacy);
  CHECK(info.cameras.empty());
  CHECK(info.lights.empty());
  // By id, each after its ancestors: 0, 3, then 5 after 7, then 9.
  REQUIRE(info.nodes.size() == 5);
  const char* names[] = {"root", "", "arm", "hand", "hand_PRIM_0"};
  const int32_t parents[] = {-1, -1, 0, 2, 3};
  for (size_t i = 0; i < 5; ++i) {
    INFO("node " << i);
    CHECK(info.nodes[i].name == names[i]);
    CHECK(info.nodes[i].parent == parents[i]);
  }
  // Matrices: node 0 has matrix 0, 7 ("arm") matrix 1, 5 ("hand") matrix 2; the others none.
  const int matrix_of[] = {0, -1, 1, 2, -1};
  for (size_t i = 0; i < 5; ++i) {
    INFO("node " << i);
    CHECK(info.nodes[i].has_matrix == (matrix_of[i] >= 0));
    float local[16];
    prefab_local_matrix(info.nodes[i], local);
    for (int k = 0; k < 16; ++k) {
      float expected = matrix_of[i] >= 0 ? matrices[matrix_of[i] * 16 + k] : (k % 5 == 0 ? 1 : 0);
      CHECK(local[k] == expected);
    }
  }
  CHECK(info.nodes[4].mesh == "scene_GLTF/MESH_0_hand.mesh");
  CHECK(info.nodes[4].materials == std::vector<std::string>{"scene_GLTF/MAT_0_skin.mat"});
  CHECK(info.nodes[1].mesh == "scene_GLTF/MESH_1.mesh");
  CHECK(info.nodes[1].materials == std::vector<std::string>{""});
  CHECK(info.nodes[0].mesh.empty());
  CHECK(info.nodes[0].materials.empty());
  AssetFile ours;
  CHECK(pack_prefab(info, ours).ok());
}

TEST_CASE("hostile legacy vkguide textures get clear errors before anything is allocated") {
  std::vector<uint8_t> pixels = test::gradient_pixels(16);
  std::vector<std::byte> blob = lz4_block(pixels.data(), pixels.size());

  SECTION("buffer_size that is not width x height x 4") {
    Status s = texture_error(legacy_file("TEXI", texture_meta(2, 2, 20), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "buffer_size 20"));
  }
  SECTION("buffer_size larger than the LZ4 block decodes to") {
    AssetFile file = legacy_file("TEXI", texture_meta(4, 4, 64), blob);  // blob holds 16 bytes
    TextureInfo info;
    REQUIRE(read_texture_info(file, info).ok());  // plausible sizes: found when unpacking
    std::vector<uint8_t> out(info.total_size);
    Status s = unpack_texture(info, file.blob.data(), file.blob.size(), out.data(), out.size());
    CHECK((s.code == ErrorCode::SizeMismatch || s.code == ErrorCode::CorruptBlob));
    CHECK(mentions(s, "64"));
  }
  SECTION("buffer_size smaller than the LZ4 block decodes to") {
    std::vector<uint8_t> big(4096, 7);  // decodes to far more than 16 bytes
    AssetFile file = legacy_file("TEXI", texture_meta(2, 2, 16), lz4_block(big.data(), big.size()));
    TextureInfo info;
    REQUIRE(read_texture_info(file, info).ok());
    std::vector<uint8_t> out(16);
    CHECK(unpack_texture(info, file.blob.data(), file.blob.size(), out.data(), out.size()).code ==
          ErrorCode::CorruptBlob);
  }
  SECTION("a decompression bomb: 256 MiB claimed from a few bytes") {
    Status s =
        texture_error(legacy_file("TEXI", texture_meta(8192, 8192, 8192ull * 8192 * 4), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "kMaxChunkExpansion"));
  }
  SECTION("one LZ4 block over 1 GiB") {
    Status s =
        texture_error(legacy_file("TEXI", texture_meta(16384, 16385, 16384ull * 16385 * 4), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "kMaxChunkSize"));
  }
  SECTION("a blob larger than LZ4 ever writes for the data") {
    std::vector<std::byte> padded = blob;
    padded.resize(100);
    Status s = texture_error(legacy_file("TEXI", texture_meta(2, 2, 16), padded));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "larger than LZ4 writes"));
  }
  SECTION("stored raw, but not as many bytes as the texels") {
    Status s = texture_error(legacy_file("TEXI", texture_meta(2, 2, 16, "None"), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "uncompressed"));
  }
  SECTION("an unknown legacy format") {
    json meta = texture_meta(2, 2, 16);
    meta["format"] = "RGB8";
    Status s = texture_error(legacy_file("TEXI", meta, blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "'RGB8'"));
  }
  SECTION("an unknown compression") {
    Status s = texture_error(legacy_file("TEXI", texture_meta(2, 2, 16, "Kraken"), blob));
    CHECK(s.code == ErrorCode::UnknownCompression);
    CHECK(mentions(s, "'Kraken'"));
  }
  SECTION("per-level pages (a later vkguide revision)") {
    json meta = texture_meta(2, 2, 16);
    meta["pages"] = json::array(
        {{{"width", 2}, {"height", 2}, {"original_size", 16}, {"compressed_size", blob.size()}}});
    Status s = texture_error(legacy_file("TEXI", meta, blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "pages"));
  }
  SECTION("a missing key") {
    json meta = texture_meta(2, 2, 16);
    meta.erase("width");
    Status s = texture_error(legacy_file("TEXI", meta, blob));
    CHECK(s.code == ErrorCode::MissingKey);
    CHECK(mentions(s, "'width'"));
  }
  SECTION("dimensions outside 1..32768") {
    Status s = texture_error(legacy_file("TEXI", texture_meta(0, 4, 0), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
  }
}

TEST_CASE("hostile legacy vkguide meshes get clear errors") {
  std::vector<Vertex_PNCV_F32> vertices = pncv_vertices();
  std::vector<uint32_t> indices = {0, 1, 2, 2, 3, 0};
  std::vector<std::byte> data = bytes_of(vertices);
  std::vector<std::byte> index_bytes = bytes_of(indices);
  data.insert(data.end(), index_bytes.begin(), index_bytes.end());
  std::vector<std::byte> blob = lz4_block(data.data(), data.size());

  SECTION("a vertex_buffer_size that is not whole vertices") {
    Status s = mesh_error(legacy_file("MESH", mesh_meta("PNCV_F32", 4 * 44 + 4, 20, 4), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "vertex_buffer_size 180"));
    CHECK(mentions(s, "44-byte PNCV_F32 vertices"));
  }
  SECTION("a vertex_buffer_size of whole vertices, but not the block's") {
    // Claims 5 vertices: the block decodes to fewer bytes than vertex + index buffers.
    AssetFile file = legacy_file("MESH", mesh_meta("PNCV_F32", 5 * 44, 24, 4), blob);
    MeshInfo info;
    REQUIRE(read_mesh_info(file, info).ok());
    std::vector<std::byte> v(info.vertex_buffer_size), i(info.index_buffer_size);
    Status s = unpack_mesh(info, file.blob.data(), file.blob.size(), v.data(), v.size(), i.data(),
                           i.size());
    CHECK((s.code == ErrorCode::SizeMismatch || s.code == ErrorCode::CorruptBlob));
  }
  SECTION("an index_buffer_size that is not whole indices, or not whole triangles") {
    Status s = mesh_error(legacy_file("MESH", mesh_meta("PNCV_F32", 4 * 44, 22, 4), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "index_buffer_size 22"));
    s = mesh_error(legacy_file("MESH", mesh_meta("PNCV_F32", 4 * 44, 20, 4), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "multiples of 3"));
  }
  SECTION("an index_size other than 2 or 4") {
    Status s = mesh_error(legacy_file("MESH", mesh_meta("PNCV_F32", 4 * 44, 24, 1), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "index_size 1"));
  }
  SECTION("an unknown legacy vertex format") {
    Status s = mesh_error(legacy_file("MESH", mesh_meta("P32_V16N8C8", 4 * 44, 24, 4), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "'P32_V16N8C8'"));
  }
  SECTION("a bomb: a billion vertices claimed from a few bytes") {
    Status s = mesh_error(legacy_file("MESH", mesh_meta("PNCV_F32", 44ull << 30, 24, 4), blob));
    CHECK(s.code == ErrorCode::InvalidValue);
  }
  SECTION("bounds that are not 7 finite numbers") {
    json meta = mesh_meta("PNCV_F32", 4 * 44, 24, 4);
    meta["bounds"] = {1, 2, 3};
    Status s = mesh_error(legacy_file("MESH", meta, blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "'bounds'"));
  }
  SECTION("destinations too small are refused before anything is written") {
    AssetFile file = legacy_file("MESH", mesh_meta("PNCV_F32", 4 * 44, 24, 4), blob);
    MeshInfo info;
    REQUIRE(read_mesh_info(file, info).ok());
    std::vector<std::byte> v(info.vertex_buffer_size, std::byte{0x5a}), i(info.index_buffer_size);
    CHECK(unpack_mesh(info, file.blob.data(), file.blob.size(), v.data(), v.size() - 1, i.data(),
                      i.size())
              .code == ErrorCode::DestinationTooSmall);
    CHECK(unpack_mesh(info, file.blob.data(), file.blob.size(), v.data(), v.size(), i.data(),
                      i.size() - 1)
              .code == ErrorCode::DestinationTooSmall);
    CHECK(v == std::vector<std::byte>(v.size(), std::byte{0x5a}));
  }
  SECTION("a corrupt block") {
    std::vector<std::byte> broken = blob;
    broken[0] = std::byte{0xff};  // a literal run far longer than the block
    AssetFile file = legacy_file("MESH", mesh_meta("PNCV_F32", 4 * 44, 24, 4), broken);
    MeshInfo info;
    REQUIRE(read_mesh_info(file, info).ok());
    std::vector<std::byte> v(info.vertex_buffer_size), i(info.index_buffer_size);
    Status s = unpack_mesh(info, file.blob.data(), file.blob.size(), v.data(), v.size(), i.data(),
                           i.size());
    CHECK((s.code == ErrorCode::CorruptBlob || s.code == ErrorCode::SizeMismatch));
  }
}

TEST_CASE("hostile legacy vkguide materials and prefabs get clear errors") {
  SECTION("an unknown transparency") {
    json meta = {
        {"baseEffect", "defaultPBR"}, {"textures", json::object()}, {"transparency", "glass"}};
    MaterialInfo info;
    Status s = read_material_info(legacy_file("MATX", meta), info);
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "MATX metadata"));
    CHECK(mentions(s, "'glass'"));
  }
  SECTION("a material with a blob") {
    json meta = {{"baseEffect", "defaultPBR"}, {"textures", json::object()}};
    MaterialInfo info;
    CHECK(read_material_info(legacy_file("MATX", meta, std::vector<std::byte>(4)), info).code ==
          ErrorCode::InvalidValue);
  }
  json prefab = {{"node_matrices", json::array({json::array({0, 0})})},
                 {"node_names", json::array()},
                 {"node_parents", json::array()},
                 {"node_meshes", json::array()}};
  std::vector<float> identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  auto prefab_error = [](const AssetFile& file) {
    PrefabInfo info;
    return read_prefab_info(file, info);
  };
  SECTION("the well-formed base case reads") {
    CHECK(prefab_error(legacy_file("PRFB", prefab, bytes_of(identity))).ok());
  }
  SECTION("parents that form a cycle") {
    prefab["node_parents"] = {{0, 1}, {1, 2}, {2, 0}};
    Status s = prefab_error(legacy_file("PRFB", prefab, bytes_of(identity)));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "its own ancestor"));
  }
  SECTION("a matrix index past the blob") {
    prefab["node_matrices"] = json::array({json::array({0, 1})});
    Status s = prefab_error(legacy_file("PRFB", prefab, bytes_of(identity)));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "the blob holds 1"));
  }
  SECTION("a blob that is not whole matrices") {
    std::vector<std::byte> blob = bytes_of(identity);
    blob.pop_back();
    Status s = prefab_error(legacy_file("PRFB", prefab, blob));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "63 bytes"));
  }
  SECTION("a matrix holding NaN") {
    std::vector<float> bad = identity;
    bad[5] = std::nanf("");
    Status s = prefab_error(legacy_file("PRFB", prefab, bytes_of(bad)));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "non-finite"));
  }
  SECTION("maps that are not [node id, value] pairs") {
    prefab["node_names"] = json::array({json::array({"root", 0})});
    Status s = prefab_error(legacy_file("PRFB", prefab, bytes_of(identity)));
    CHECK(s.code == ErrorCode::WrongKeyType);
    CHECK(mentions(s, "node_names"));
  }
  SECTION("more nodes than a legacy prefab may imply") {
    // Each [child, parent] pair of ids makes two nodes of some 350 bytes read: 2^20 of them (the
    // general array cap) took 240 MB from 4 MiB of text.
    json parents = json::array();  // ids 0 .. 2^16 + 1: node 0 (of node_matrices) among them
    for (int k = 0; k < (1 << 15) + 1; ++k) parents.push_back(json::array({2 * k, 2 * k + 1}));
    prefab["node_parents"] = parents;
    Status s = prefab_error(legacy_file("PRFB", prefab, bytes_of(identity)));
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(mentions(s, "more than 2^16 nodes"));
    parents.erase(parents.end() - 1);  // ids 0 .. 2^16 - 1: at the limit
    prefab["node_parents"] = parents;
    CHECK(prefab_error(legacy_file("PRFB", prefab, bytes_of(identity))).ok());
  }
  SECTION("a node mesh without its paths") {
    prefab["node_meshes"] = json::array({json::array({0, json{{"mesh_path", "a.mesh"}}})});
    Status s = prefab_error(legacy_file("PRFB", prefab, bytes_of(identity)));
    CHECK(s.code == ErrorCode::MissingKey);
    CHECK(mentions(s, "'material_path'"));
  }
}

TEST_CASE("files of our own format are never taken for legacy ones") {
  // An extra key vkguide uses does not make one of our files legacy: ours have "mip_count" (or,
  // written before it, "mips") / "vertex_count" / "alpha_mode" / "nodes".
  for (const AssetFile& ours :
       {test::packed_texture(8, 8, 4), test::with_mip_list(test::packed_texture(8, 8, 4))}) {
    AssetFile texture = ours;
    json meta = json::parse(texture.json);
    meta["buffer_size"] = 12345;
    texture.json = meta.dump();
    TextureInfo info;
    REQUIRE(read_texture_info(texture, info).ok());
    CHECK_FALSE(info.legacy);
    CHECK(info.mips.size() == 4);
  }

  MaterialInfo material;
  material.name = "ours";
  AssetFile ours;
  REQUIRE(pack_material(material, ours).ok());
  json material_meta = json::parse(ours.json);
  material_meta["baseEffect"] = "defaultPBR";
  ours.json = material_meta.dump();
  MaterialInfo read;
  REQUIRE(read_material_info(ours, read).ok());
  CHECK_FALSE(read.legacy);
  CHECK(read.name == "ours");
}
