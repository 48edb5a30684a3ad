// The hard limits of assetlib/limits.h: just over each one is refused with a message naming the
// constant; at the limit (or just under) the file still loads. The large assets here are only
// described (metadata and a blob of the least size LZ4 could unpack them from), never unpacked.
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstring>

using namespace assetlib;
using nlohmann::json;

namespace {

bool names(const Status& s, const char* constant) {
  return s.message.find(std::string("assetlib::") + constant) != std::string::npos;
}

// A chunk table over sections of these sizes, chunks of at most `chunk` bytes, each packed into
// the fewest bytes LZ4 could unpack it from (raw_size / kMaxChunkExpansion, stored raw when tiny).
// `blob_size` gets the blob size the table covers.
json chunk_table(const std::vector<uint64_t>& sections, uint64_t chunk, uint64_t& blob_size) {
  json table = json::array();
  uint64_t raw = 0;
  blob_size = 0;
  for (uint64_t size : sections) {
    for (uint64_t done = 0; done < size;) {
      uint64_t n = std::min(chunk, size - done);
      uint64_t packed = n >= 1024 ? (n + kMaxChunkExpansion - 1) / kMaxChunkExpansion : n;
      table.push_back({raw, n, blob_size, packed});
      raw += n;
      blob_size += packed;
      done += n;
    }
  }
  return table;
}

// An RGBA8 texture description of `w` x `h` with `mips` levels, its chunks, and a zero blob.
AssetFile texture_file(uint32_t w, uint32_t h, uint32_t mips, uint64_t chunk = kMaxChunkSize) {
  TextureInfo layout = make_texture_info(TextureFormat::RGBA8_SRGB, w, h, mips);
  json meta = {{"format", "RGBA8_SRGB"},
               {"width", w},
               {"height", h},
               {"total_size", layout.total_size},
               {"original_file", "textures/big.png"},
               {"compression", "LZ4"}};
  std::vector<uint64_t> sections;
  meta["mips"] = json::array();
  for (const TextureMip& mip : layout.mips) {
    meta["mips"].push_back(
        {{"width", mip.width}, {"height", mip.height}, {"offset", mip.offset}, {"size", mip.size}});
    sections.push_back(mip.size);
  }
  uint64_t blob_size = 0;
  meta["chunks"] = chunk_table(sections, chunk, blob_size);
  AssetFile file;
  std::memcpy(file.type, "TEXI", 4);
  file.json = meta.dump();
  file.blob.resize(blob_size);
  return file;
}

// A small real mesh's metadata with its counts replaced: `vertices` PNCV_F32 vertices and `indices`
// 32-bit indices in one submesh, a matching chunk table and a zero blob.
AssetFile mesh_file(uint32_t vertices, uint32_t indices) {
  test::GridMesh grid = test::grid_mesh(2);
  AssetFile small;
  REQUIRE(pack_mesh(test::grid_info(grid), grid.vertices.data(), grid.vertices.size() * 44,
                    grid.indices.data(), grid.indices.size() * 4, small)
              .ok());
  json meta = json::parse(small.json);
  meta["vertex_count"] = vertices;
  meta["index_count"] = indices;
  meta["submeshes"][0]["index_count"] = indices;
  uint64_t blob_size = 0;
  meta["chunks"] =
      chunk_table({uint64_t(vertices) * 44, uint64_t(indices) * 4}, kMaxChunkSize, blob_size);
  AssetFile file;
  std::memcpy(file.type, "MESH", 4);
  file.json = meta.dump();
  file.blob.resize(blob_size);
  return file;
}

// `file` with its JSON padded with spaces to exactly `length` bytes.
AssetFile padded_to(AssetFile file, size_t length) {
  REQUIRE(file.json.size() <= length);
  file.json.resize(length, ' ');
  return file;
}

std::string nested(const std::string& key, uint32_t levels) {
  return "\"" + key + "\": " + std::string(levels, '[') + std::string(levels, ']');
}

}  // namespace

TEST_CASE("assetlib limits: the unpacked size of an asset is at most kMaxUnpackedSize") {
  TextureInfo info;
  // 32768 x 32768 RGBA8, one level: exactly 4 GiB, from a 16 MiB blob.
  AssetFile at_limit = texture_file(32768, 32768, 1);
  REQUIRE(read_texture_info(at_limit, info).ok());
  CHECK(info.total_size == kMaxUnpackedSize);
  // The same with its second level: 5 GiB, refused before the chunk table is read.
  Status s = read_texture_info(texture_file(32768, 32768, 2), info);
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(names(s, "kMaxUnpackedSize"));
  CHECK(s.message.find("5368709120") != std::string::npos);

  // Meshes: 73209671 vertices of 44 bytes + 268435443 indices of 4 bytes = exactly 4 GiB; one
  // triangle more is 12 bytes over.
  MeshInfo mesh;
  Status m = read_mesh_info(mesh_file(73209671, 268435443), mesh);
  INFO(m.message);
  REQUIRE(m.ok());
  CHECK(mesh_unpacked_size(mesh) == kMaxUnpackedSize);
  m = read_mesh_info(mesh_file(73209671, 268435446), mesh);
  CHECK(m.code == ErrorCode::InvalidValue);
  CHECK(names(m, "kMaxUnpackedSize"));
}

TEST_CASE(
    "assetlib limits: asset JSON metadata is at most kMaxJsonSize bytes, refused before it is "
    "allocated") {
  test::TempDir dir("json-limit");
  AssetFile small = test::packed_texture(8, 8, 1);
  TextureInfo info;

  // Exactly the limit (padding included): loads, from memory and from a file.
  AssetFile at_limit = padded_to(small, kMaxJsonSize);
  std::vector<std::byte> bytes = serialize_binaryfile(at_limit);
  AssetView view;
  REQUIRE(parse_binaryfile(bytes, view).ok());
  CHECK(read_texture_info(view, info).ok());
  REQUIRE(save_binaryfile(dir.file("at.tx"), at_limit).ok());
  AssetFile loaded;
  REQUIRE(load_binaryfile(dir.file("at.tx"), loaded).ok());
  CHECK(loaded.json.size() == kMaxJsonSize);
  CHECK(read_texture_info(loaded, info).ok());

  // 16 bytes over (the header keeps the length a multiple of 16).
  AssetFile over = padded_to(small, kMaxJsonSize + 16);
  bytes = serialize_binaryfile(over);
  Status s = parse_binaryfile(bytes, view, "over.tx");
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(names(s, "kMaxJsonSize"));
  CHECK(s.message.rfind("over.tx: ", 0) == 0);
  test::write_bytes(dir.file("over.tx"), bytes.data(), bytes.size());
  s = load_binaryfile(dir.file("over.tx"), loaded);
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(names(s, "kMaxJsonSize"));
  CHECK(s.message.rfind(dir.file("over.tx") + ": ", 0) == 0);
  // A view built by hand, one byte over: read_texture_info checks too.
  AssetFile one_over = padded_to(small, kMaxJsonSize + 1);
  s = read_texture_info(one_over, info);
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(names(s, "kMaxJsonSize"));
  // Writers refuse what readers would: save_binaryfile and pack_texture.
  s = save_binaryfile(dir.file("never.tx"), one_over);
  CHECK(s.code == ErrorCode::InvalidArgument);
  CHECK(names(s, "kMaxJsonSize"));
  CHECK(!std::filesystem::exists(dir.file("never.tx")));

  TextureInfo layout = make_texture_info(TextureFormat::RGBA8_SRGB, 8, 8, 1);
  std::vector<uint8_t> pixels = test::gradient_pixels(layout.total_size);
  AssetFile packed;
  REQUIRE(pack_texture(layout, pixels.data(), pixels.size(), packed).ok());
  size_t base = packed.json.size();  // metadata with an empty original_file
  layout.original_file = std::string(kMaxJsonSize - base, 'a');
  REQUIRE(pack_texture(layout, pixels.data(), pixels.size(), packed).ok());
  CHECK(packed.json.size() == kMaxJsonSize);
  CHECK(read_texture_info(packed, info).ok());
  layout.original_file += 'a';
  s = pack_texture(layout, pixels.data(), pixels.size(), packed);
  CHECK(s.code == ErrorCode::InvalidArgument);
  CHECK(names(s, "kMaxJsonSize"));
  CHECK(packed.json.size() == kMaxJsonSize);  // `out` untouched on error

  test::GridMesh grid = test::grid_mesh(2);
  MeshInfo mesh = test::grid_info(grid);
  mesh.materials.resize(1);
  mesh.materials[0].name = std::string(kMaxJsonSize, 'm');
  s = pack_mesh(mesh, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                grid.indices.size() * 4, packed);
  CHECK(s.code == ErrorCode::InvalidArgument);
  CHECK(names(s, "kMaxJsonSize"));
}

TEST_CASE("assetlib limits: JSON nested deeper than kMaxJsonDepth is refused before parsing") {
  AssetFile good = test::packed_texture(8, 8, 1);
  TextureInfo info;
  auto with_key = [&](const std::string& member) {
    AssetFile copy = good;
    copy.json = "{" + member + ", " + good.json.substr(1);
    return copy;
  };
  // The object holding the key is level 1: kMaxJsonDepth - 1 arrays inside it reach the limit.
  CHECK(read_texture_info(with_key(nested("deep", kMaxJsonDepth - 1)), info).ok());
  Status s = read_texture_info(with_key(nested("deep", kMaxJsonDepth)), info);
  CHECK(s.code == ErrorCode::InvalidJson);
  CHECK(names(s, "kMaxJsonDepth"));
  // Brackets inside strings (escaped quotes too) are text, not nesting.
  CHECK(read_texture_info(with_key("\"text\": \"\\\"" + std::string(1000, '[') + "\""), info).ok());

  MeshInfo mesh;
  test::GridMesh grid = test::grid_mesh(2);
  AssetFile packed;
  REQUIRE(pack_mesh(test::grid_info(grid), grid.vertices.data(), grid.vertices.size() * 44,
                    grid.indices.data(), grid.indices.size() * 4, packed)
              .ok());
  packed.json = "{" + nested("deep", kMaxJsonDepth) + ", " + packed.json.substr(1);
  s = read_mesh_info(packed, mesh);
  CHECK(s.code == ErrorCode::InvalidJson);
  CHECK(names(s, "kMaxJsonDepth"));

  Manifest manifest;
  std::string assets = "\"assets\": []";
  CHECK(read_manifest("{\"version\": 1, " + assets + ", " + nested("x", kMaxJsonDepth - 1) + "}",
                      manifest)
            .ok());
  s = read_manifest("{\"version\": 1, " + assets + ", " + nested("x", kMaxJsonDepth) + "}",
                    manifest, "m.json");
  CHECK(s.code == ErrorCode::InvalidJson);
  CHECK(names(s, "kMaxJsonDepth"));
  CHECK(s.message.rfind("m.json is nested deeper than 64 levels", 0) == 0);
}

TEST_CASE(
    "assetlib limits: a chunk is at most kMaxChunkSize and kMaxChunkExpansion times its packed "
    "size") {
  TextureInfo info;
  // 16384 x 16384 RGBA8 in one chunk: exactly 1 GiB, packed into exactly 1/256 of it.
  AssetFile at_limit = texture_file(16384, 16384, 1);
  REQUIRE(read_texture_info(at_limit, info).ok());
  REQUIRE(info.chunks.size() == 1);
  CHECK(info.chunks[0].raw_size == kMaxChunkSize);
  CHECK(info.chunks[0].packed_size * kMaxChunkExpansion == kMaxChunkSize);
  // One packed byte fewer claims more than LZ4 can expand.
  json meta = json::parse(at_limit.json);
  meta["chunks"][0][3] = kMaxChunkSize / kMaxChunkExpansion - 1;
  AssetFile bomb = at_limit;
  bomb.json = meta.dump();
  bomb.blob.resize(bomb.blob.size() - 1);
  Status s = read_texture_info(bomb, info);
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(names(s, "kMaxChunkExpansion"));
  // 16385 x 16384 in one chunk: 64 KiB over 1 GiB.
  s = read_texture_info(texture_file(16385, 16384, 1, kMaxChunkSize * 2), info);
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(names(s, "kMaxChunkSize"));
  // Writers never make such chunks.
  PackOptions options;
  options.chunk_size = uint32_t(kMaxChunkSize) + 1;
  AssetFile out;
  TextureInfo layout = make_texture_info(TextureFormat::RGBA8_SRGB, 4, 4, 1);
  std::vector<uint8_t> pixels = test::gradient_pixels(layout.total_size);
  CHECK(pack_texture(layout, pixels.data(), pixels.size(), out, options).code ==
        ErrorCode::InvalidArgument);
}

TEST_CASE(
    "assetlib limits: a manifest file is at most kMaxManifestSize bytes, refused before it is "
    "read") {
  test::TempDir dir("manifest-limit");
  // Sparse files: the size is what matters, nothing is written to disk.
  std::string over = dir.file("over.json"), at = dir.file("at.json");
  test::write_bytes(over, "{}", 2);
  REQUIRE(::truncate(over.c_str(), off_t(kMaxManifestSize + 1)) == 0);
  Manifest manifest;
  Status s = load_manifest(over, manifest);
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(names(s, "kMaxManifestSize"));
  CHECK(s.message.rfind(over + ": ", 0) == 0);
  // At the limit the file is read and parsed (the JSON parser stops at the first NUL byte).
  std::string text = "{\"version\": 1, \"assets\": []}";
  test::write_bytes(at, text.data(), text.size());
  REQUIRE(::truncate(at.c_str(), off_t(kMaxManifestSize)) == 0);
  CHECK(load_manifest(at, manifest).ok());
}
