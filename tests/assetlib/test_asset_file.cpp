// The container: round trips, alignment, atomic save, and every way a file can be broken.
#include "edited_metadata.h"
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstring>

using namespace assetlib;
using nlohmann::json;

namespace {

Status load_after_save(const test::TempDir& dir, const AssetFile& file, TextureInfo& info) {
  std::string path = dir.file("t.tx");
  REQUIRE(save_binaryfile(path, file).ok());
  AssetFile loaded;
  if (Status s = load_binaryfile(path, loaded); !s) return s;
  return read_texture_info(loaded, info);
}

void put_u32(std::vector<std::byte>& bytes, size_t at, uint32_t v) {
  std::memcpy(&bytes[at], &v, 4);
}

}  // namespace

TEST_CASE("save and load round-trip header, JSON and blob with the blob 16-byte aligned") {
  test::TempDir dir("container");
  for (size_t json_size : {0, 1, 15, 16, 17, 100}) {
    AssetFile file;
    std::memcpy(file.type, "TEST", 4);
    file.json = std::string(json_size, 'x');
    file.blob = {std::byte{1}, std::byte{2}, std::byte{3}};
    std::string path = dir.file("a.bin");
    REQUIRE(save_binaryfile(path, file).ok());
    std::vector<std::byte> bytes = test::read_bytes(path);
    uint32_t json_length;
    std::memcpy(&json_length, bytes.data() + 8, 4);
    CHECK((kHeaderSize + json_length) % kBlobAlignment == 0);
    CHECK(bytes.size() == kHeaderSize + json_length + 3);

    AssetFile loaded;
    REQUIRE(load_binaryfile(path, loaded).ok());
    CHECK(std::memcmp(loaded.type, "TEST", 4) == 0);
    CHECK(loaded.version == kFormatVersion);
    CHECK(loaded.json.substr(0, json_size) == file.json);
    CHECK(loaded.json.find_first_not_of(' ', json_size) == std::string::npos);  // padding = spaces
    CHECK(loaded.blob == file.blob);

    AssetView view;
    REQUIRE(parse_binaryfile(bytes, view).ok());
    CHECK(view.json == loaded.json);
    CHECK(view.blob.data() == bytes.data() + kHeaderSize + json_length);  // no copy
  }
}

TEST_CASE("save_binaryfile replaces the target atomically and leaves no temporary file") {
  test::TempDir dir("atomic");
  std::string path = dir.file("t.tx");
  REQUIRE(save_binaryfile(path, test::packed_texture(8, 8, 1)).ok());
  REQUIRE(save_binaryfile(path, test::packed_texture(16, 16, 1)).ok());
  size_t entries = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 1);
  Status s = save_binaryfile(dir.file("missing-folder/t.tx"), test::packed_texture(8, 8, 1));
  CHECK(s.code == ErrorCode::IoError);
  CHECK(s.message.find("missing-folder") != std::string::npos);
}

TEST_CASE("load_binaryfile names the file and the reason for each broken container") {
  test::TempDir dir("broken");
  std::vector<std::byte> good = serialize_binaryfile(test::packed_texture(32, 32, 3));
  std::string path = dir.file("broken.tx");
  auto load_bytes = [&](const std::vector<std::byte>& bytes) {
    test::write_bytes(path, bytes.data(), bytes.size());
    AssetFile file;
    Status s = load_binaryfile(path, file);
    AssetView view;
    Status from_memory = parse_binaryfile(bytes, view, path);
    CHECK(from_memory.code == s.code);  // both entry points agree
    if (!s.ok()) CHECK(s.message.find(path) != std::string::npos);
    return s;
  };

  SECTION("missing file") {
    AssetFile file;
    Status s = load_binaryfile(dir.file("nope.tx"), file);
    CHECK(s.code == ErrorCode::FileNotFound);
    CHECK(s.message.find("nope.tx") != std::string::npos);
  }
  SECTION("shorter than the header") {
    CHECK(load_bytes({good.begin(), good.begin() + 10}).code == ErrorCode::TruncatedHeader);
    CHECK(load_bytes({}).code == ErrorCode::TruncatedHeader);
  }
  SECTION("truncated blob") {
    CHECK(load_bytes({good.begin(), good.end() - 1}).code == ErrorCode::TruncatedHeader);
  }
  SECTION("lengths that exceed the file, without allocating them") {
    auto bytes = good;
    put_u32(bytes, 12, 0xFFFFFFF0u);
    CHECK(load_bytes(bytes).code == ErrorCode::TruncatedHeader);
    put_u32(bytes, 8, 0xFFFFFFF0u);
    CHECK(load_bytes(bytes).code == ErrorCode::TruncatedHeader);
  }
  SECTION("trailing bytes") {
    auto bytes = good;
    bytes.push_back(std::byte{0});
    CHECK(load_bytes(bytes).code == ErrorCode::LengthMismatch);
  }
  SECTION("unsupported version") {
    auto bytes = good;
    put_u32(bytes, 4, kFormatVersion + 1);
    Status s = load_bytes(bytes);
    CHECK(s.code == ErrorCode::UnsupportedVersion);
    CHECK(s.message.find("version 2") != std::string::npos);
  }
}

TEST_CASE("a texture written with its level list, as before mip_count, reads the same") {
  AssetFile counted = test::packed_texture(48, 20, 6);
  REQUIRE(json::parse(counted.json).contains("mip_count"));
  REQUIRE_FALSE(json::parse(counted.json).contains("mips"));
  AssetFile listed = test::with_mip_list(counted);
  TextureInfo a, b;
  REQUIRE(read_texture_info(counted, a));
  REQUIRE(read_texture_info(listed, b));
  REQUIRE(a.mips.size() == 6);
  REQUIRE(b.mips.size() == a.mips.size());
  for (size_t i = 0; i < a.mips.size(); ++i) {
    CHECK(a.mips[i].width == b.mips[i].width);
    CHECK(a.mips[i].height == b.mips[i].height);
    CHECK(a.mips[i].offset == b.mips[i].offset);
    CHECK(a.mips[i].size == b.mips[i].size);
  }
  CHECK(a.mips[5].width == 1);  // 48 >> 5
  CHECK(a.mips[5].height == 1);
  CHECK(a.total_size == b.total_size);
  CHECK(a.chunks.size() == b.chunks.size());
}

TEST_CASE("read_texture_info rejects broken metadata with the specific error") {
  test::TempDir dir("meta");
  AssetFile good = test::packed_texture(32, 32, 3);
  TextureInfo info;
  REQUIRE(load_after_save(dir, good, info).ok());

  SECTION("unknown type") {
    AssetFile file = good;
    std::memcpy(file.type, "MESH", 4);
    Status s = read_texture_info(file, info);
    CHECK(s.code == ErrorCode::UnknownType);
    CHECK(s.message.find("MESH") != std::string::npos);
  }
  SECTION("invalid JSON") {
    AssetFile file = good;
    file.json = "{\"format\": ";
    CHECK(read_texture_info(file, info).code == ErrorCode::InvalidJson);
    file.json = "[1, 2]";
    CHECK(read_texture_info(file, info).code == ErrorCode::InvalidJson);
  }
  SECTION("missing key") {
    Status s = read_texture_info(test::edited(good, [](json& j) { j.erase("width"); }), info);
    CHECK(s.code == ErrorCode::MissingKey);
    CHECK(s.message.find("'width'") != std::string::npos);
    CHECK(read_texture_info(test::edited(good, [](json& j) { j.erase("chunks"); }), info).code ==
          ErrorCode::MissingKey);
  }
  SECTION("mistyped key") {
    Status s = read_texture_info(test::edited(good, [](json& j) { j["height"] = "32"; }), info);
    CHECK(s.code == ErrorCode::WrongKeyType);
    CHECK(s.message.find("'height'") != std::string::npos);
    CHECK(read_texture_info(test::edited(good, [](json& j) { j["width"] = -32; }), info).code ==
          ErrorCode::WrongKeyType);
    CHECK(read_texture_info(test::edited(good, [](json& j) { j["mip_count"] = "3"; }), info).code ==
          ErrorCode::WrongKeyType);
    CHECK(read_texture_info(test::edited(good, [](json& j) { j["mips"] = 3; }), info).code ==
          ErrorCode::WrongKeyType);
  }
  SECTION("inconsistent values") {
    CHECK(read_texture_info(test::edited(good, [](json& j) { j["format"] = "ASTC"; }), info).code ==
          ErrorCode::InvalidValue);
    CHECK(read_texture_info(test::edited(good, [](json& j) { j["width"] = 64; }), info).code ==
          ErrorCode::InvalidValue);
    CHECK(
        read_texture_info(test::edited(good, [](json& j) { j["width"] = 1u << 20; }), info).code ==
        ErrorCode::InvalidValue);
    // A level count the dimensions cannot have (32x32: 1..6 levels), or beyond any texture.
    for (int count : {0, 7, 33, 64, 65, 1 << 30}) {
      INFO("mip_count " << count);
      CHECK(read_texture_info(test::edited(good, [&](json& j) { j["mip_count"] = count; }), info)
                .code == ErrorCode::InvalidValue);
    }
    // The level list of older files must be the chain the count stands for.
    AssetFile listed = test::with_mip_list(good);
    CHECK(read_texture_info(test::edited(listed, [](json& j) { j["mips"][1]["offset"] = 7; }), info)
              .code == ErrorCode::InvalidValue);
    CHECK(read_texture_info(test::edited(listed, [](json& j) { j["mips"].erase(1); }), info).code ==
          ErrorCode::InvalidValue);
  }
  SECTION("unknown codec") {
    Status s =
        read_texture_info(test::edited(good, [](json& j) { j["compression"] = "Zstd"; }), info);
    CHECK(s.code == ErrorCode::UnknownCompression);
    CHECK(s.message.find("Zstd") != std::string::npos);
  }
  SECTION("chunk table that lies about the blob") {
    auto edit_chunk = [&](int field, uint64_t value) {
      return read_texture_info(test::edited(good, [&](json& j) { j["chunks"][0][field] = value; }),
                               info)
          .code;
    };
    CHECK(edit_chunk(3, 1u << 30) == ErrorCode::InvalidValue);  // packed size past the blob
    CHECK(edit_chunk(2, 5) == ErrorCode::InvalidValue);         // gap in the blob
    CHECK(edit_chunk(1, 1) == ErrorCode::InvalidValue);         // raw sizes don't add up
    CHECK(read_texture_info(test::edited(good, [](json& j) { j["chunks"][0] = "x"; }), info).code ==
          ErrorCode::WrongKeyType);
  }
}

TEST_CASE("unpack reports corrupt chunks, size mismatches, bombs and small destinations") {
  // One large gradient level: a single LZ4 chunk we can tamper with.
  AssetFile good = test::packed_texture(256, 256, 1);
  TextureInfo info;
  REQUIRE(read_texture_info(good, info).ok());
  REQUIRE(info.chunks.size() == 1);
  REQUIRE(info.chunks[0].packed_size < info.chunks[0].raw_size);
  std::vector<uint8_t> dst(info.total_size);

  SECTION("destination too small") {
    Status s = unpack_texture(info, good.blob.data(), good.blob.size(), dst.data(), dst.size() - 1);
    CHECK(s.code == ErrorCode::DestinationTooSmall);
  }
  SECTION("corrupt compressed bytes") {
    AssetFile bad = good;
    for (size_t i = 0; i < bad.blob.size(); i += 3) bad.blob[i] = std::byte{0xFF};
    CHECK(unpack_texture(info, bad.blob.data(), bad.blob.size(), dst.data(), dst.size()).code ==
          ErrorCode::CorruptBlob);
  }
  SECTION("a chunk that decodes to fewer bytes than promised") {
    // Real LZ4 data for a smaller texture, presented as this one's chunk.
    AssetFile small = test::packed_texture(128, 256, 1);
    TextureInfo small_info;
    REQUIRE(read_texture_info(small, small_info).ok());
    TextureInfo lying = info;
    lying.chunks[0].packed_size = small.blob.size();
    Status s = unpack_texture(lying, small.blob.data(), small.blob.size(), dst.data(), dst.size());
    CHECK(s.code == ErrorCode::SizeMismatch);
    CHECK(s.message.find("promised") != std::string::npos);
  }
  SECTION("a chunk that decodes to more bytes than promised") {
    AssetFile lying = test::edited(good, [](json& j) {
      j["chunks"][0][1] = 65536;
      j["total_size"] = 65536;
      j["width"] = 128;
      j["height"] = 128;
      j["mips"][0] = {{"width", 128}, {"height", 128}, {"offset", 0}, {"size", 65536}};
    });
    TextureInfo lying_info;
    REQUIRE(read_texture_info(lying, lying_info).ok());
    std::vector<uint8_t> small(65536);
    CHECK(
        unpack_texture(lying_info, lying.blob.data(), lying.blob.size(), small.data(), small.size())
            .code == ErrorCode::CorruptBlob);
  }
  SECTION("a decompression bomb is refused before anything is allocated") {
    AssetFile bomb = test::edited(good, [](json& j) {
      j["width"] = 8192;
      j["height"] = 8192;
      uint64_t size = 8192ull * 8192 * 4;
      j["total_size"] = size;
      j["mips"][0] = {{"width", 8192}, {"height", 8192}, {"offset", 0}, {"size", size}};
      j["chunks"][0][1] = size;
    });
    Status s = read_texture_info(bomb, info);
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(s.message.find("more than LZ4 can expand") != std::string::npos);
  }
  SECTION("a chunk just past 256x its packed size is a bomb too") {
    // 508 bytes from 1: integer division (508 / 256 = 1) once let this through.
    AssetFile bomb = test::edited(good, [](json& j) {
      j["width"] = 1;
      j["height"] = 127;
      j["total_size"] = 508;
      j["mips"] = json::array({{{"width", 1}, {"height", 127}, {"offset", 0}, {"size", 508}}});
      j["chunks"] = json::array({json::array({0, 508, 0, 1})});
    });
    bomb.blob.resize(1);
    Status s = read_texture_info(bomb, info);
    INFO(s.message);
    CHECK(s.code == ErrorCode::InvalidValue);
    CHECK(s.message.find("more than LZ4 can expand") != std::string::npos);
  }
}
