// Pack files: round trips of real assets, lookups, the writer's determinism, and every way the
// header and the tables can be broken.
#include "test_helpers.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace assetlib;

namespace {

// A pack in memory and what went into it.
struct TestPack {
  std::vector<std::string> names;
  std::vector<std::vector<std::byte>> files;
  std::vector<std::byte> bytes;
};

// Not XXH3: assetlib stores whatever hash it is given, so any value that differs per file will do.
uint64_t fake_hash(const std::vector<std::byte>& file) {
  uint64_t h = 1469598103934665603ull;
  for (std::byte b : file) h = (h ^ uint64_t(b)) * 1099511628211ull;
  return h;
}

// Writes the pack as a tool would: the index, then each file at its offset, zeros between.
std::vector<std::byte> write_pack(std::span<const PackInput> inputs,
                                  const std::vector<std::vector<std::byte>>& files) {
  PackLayout layout;
  REQUIRE(layout_pack(inputs, layout).ok());
  std::vector<std::byte> bytes = layout.index;
  for (size_t k : layout.order) {
    REQUIRE(layout.offsets[k] >= bytes.size());
    bytes.resize(layout.offsets[k], std::byte{0});
    bytes.insert(bytes.end(), files[k].begin(), files[k].end());
  }
  REQUIRE(bytes.size() == layout.file_size);
  return bytes;
}

TestPack make_pack(std::vector<std::pair<std::string, AssetFile>> assets) {
  TestPack pack;
  std::vector<PackInput> inputs;
  for (auto& [name, file] : assets) {
    pack.names.push_back(name);
    pack.files.push_back(serialize_binaryfile(file));
  }
  for (size_t i = 0; i < assets.size(); ++i) {
    PackInput in;
    in.name = pack.names[i];
    std::memcpy(in.type, assets[i].second.type, 4);
    in.size = pack.files[i].size();
    in.raw_size = 1000 + pack.names[i].size();
    in.hash = fake_hash(pack.files[i]);
    inputs.push_back(in);
  }
  pack.bytes = write_pack(inputs, pack.files);
  return pack;
}

AssetFile grid_mesh_file() {
  test::GridMesh grid = test::grid_mesh(4);
  AssetFile file;
  REQUIRE(pack_mesh(test::grid_info(grid), grid.vertices.data(),
                    grid.vertices.size() * sizeof(grid.vertices[0]), grid.indices.data(),
                    grid.indices.size() * 4, file)
              .ok());
  return file;
}

AssetFile material_file() {
  MaterialInfo m;
  m.name = "brick";
  m.base_color.texture = "textures/bricks.png";
  AssetFile file;
  REQUIRE(pack_material(m, file).ok());
  return file;
}

// Three assets of three types, given out of name order.
TestPack three_asset_pack() {
  return make_pack({{"textures/bricks.png", test::packed_texture(64, 32, 7)},
                    {"models/grid.obj", grid_mesh_file()},
                    {"models/grid.obj#material/0", material_file()}});
}

void put_u32(std::vector<std::byte>& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = std::byte((v >> (8 * i)) & 0xff);
}
void put_u64(std::vector<std::byte>& bytes, size_t at, uint64_t v) {
  put_u32(bytes, at, uint32_t(v));
  put_u32(bytes, at + 4, uint32_t(v >> 32));
}
uint64_t get_u64(const std::vector<std::byte>& bytes, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | uint64_t(bytes[at + i]);
  return v;
}

// Header fields (docs/format.md, "Pack file").
constexpr size_t kVersionAt = 4, kCountAt = 8, kReservedAt = 12, kEntriesAt = 16,
                 kEntriesSizeAt = 24, kNamesAt = 32, kNamesSizeAt = 40, kDataAt = 48,
                 kDataSizeAt = 56, kFileSizeAt = 64;
// Fields of entry `i`.
size_t entry_at(size_t i) { return kPackHeaderSize + i * kPackEntrySize; }
constexpr size_t kOffsetField = 0, kSizeField = 8, kNameOffsetField = 32, kNameLengthField = 36,
                 kTypeField = 40, kEntryReservedField = 44;

}  // namespace

TEST_CASE("a pack round-trips every asset, sorted by name, aligned, as parse_binaryfile sees it") {
  TestPack pack = three_asset_pack();
  PackView view;
  REQUIRE(open_pack(pack.bytes, view, "game.pack").ok());
  REQUIRE(view.entry_count == 3);
  const char* sorted[] = {"models/grid.obj", "models/grid.obj#material/0", "textures/bricks.png"};
  const size_t input_index[] = {1, 2, 0};
  for (size_t i = 0; i < 3; ++i) {
    PackEntry e = pack_entry(view, i);
    const std::vector<std::byte>& file = pack.files[input_index[i]];
    CHECK(e.name == sorted[i]);
    CHECK(e.size == file.size());
    CHECK(e.raw_size == 1000 + e.name.size());
    CHECK(e.hash == fake_hash(file));
    CHECK(e.offset % kPackAlignment == 0);
    CHECK(std::memcmp(pack.bytes.data() + e.offset, file.data(), file.size()) == 0);

    AssetView asset;
    REQUIRE(read_pack_asset(view, e, asset, "game.pack").ok());
    AssetView direct;
    REQUIRE(parse_binaryfile(file, direct).ok());
    CHECK(std::memcmp(asset.type, e.type, 4) == 0);
    CHECK(asset.json == direct.json);
    CHECK(asset.blob.size() == direct.blob.size());
    CHECK(std::equal(asset.blob.begin(), asset.blob.end(), direct.blob.begin()));
    // The view points into the pack, and the blob is 16-byte aligned relative to its start (so in
    // a mapped pack).
    CHECK(asset.blob.data() >= pack.bytes.data());
    CHECK(size_t(asset.blob.data() - pack.bytes.data()) % kBlobAlignment == 0);
  }
  // The texture unpacks from the pack as from its file.
  std::optional<PackEntry> tex = find_pack_entry(view, "textures/bricks.png");
  REQUIRE(tex);
  AssetView asset;
  REQUIRE(read_pack_asset(view, *tex, asset).ok());
  TextureInfo info;
  REQUIRE(read_texture_info(asset, info).ok());
  std::vector<std::byte> pixels(info.total_size);
  REQUIRE(unpack_texture(info, asset.blob.data(), asset.blob.size(), pixels.data(), pixels.size())
              .ok());
  std::vector<uint8_t> expected = test::gradient_pixels(info.total_size);
  CHECK(std::memcmp(pixels.data(), expected.data(), expected.size()) == 0);
}

TEST_CASE("find_pack_entry finds every name and nothing else") {
  TestPack pack = three_asset_pack();
  PackView view;
  REQUIRE(open_pack(pack.bytes, view).ok());
  for (size_t i = 0; i < view.entry_count; ++i) {
    PackEntry e = pack_entry(view, i);
    std::optional<PackEntry> found = find_pack_entry(view, e.name);
    REQUIRE(found);
    CHECK(found->offset == e.offset);
    CHECK(found->name == e.name);
  }
  for (const char* miss :
       {"", "a", "models", "models/grid.ob", "models/grid.obj#", "models/grid.objx",
        "textures/bricks.pn", "textures/bricks.png ", "zzz", "\xff"}) {
    INFO(miss);
    CHECK_FALSE(find_pack_entry(view, miss));
  }
  // Out-of-range indices give an empty entry, not a read past the table.
  CHECK(pack_entry(view, 3).name.empty());
  CHECK(pack_entry(view, 3).size == 0);
  CHECK(pack_entry(PackView{}, 0).name.empty());
  CHECK_FALSE(find_pack_entry(PackView{}, "models/grid.obj"));
}

TEST_CASE("layout_pack is deterministic whatever the input order and lays out the format") {
  TestPack a = make_pack({{"b", material_file()}, {"a", test::packed_texture(8, 8, 1)}});
  TestPack b = make_pack({{"a", test::packed_texture(8, 8, 1)}, {"b", material_file()}});
  CHECK(a.bytes == b.bytes);

  const std::vector<std::byte>& bytes = a.bytes;
  CHECK(std::memcmp(bytes.data(), "APAK", 4) == 0);
  CHECK(get_u64(bytes, kVersionAt) == (uint64_t(2) << 32 | kPackVersion));  // version, count
  CHECK(get_u64(bytes, kEntriesAt) == kPackHeaderSize);
  CHECK(get_u64(bytes, kEntriesSizeAt) == 2 * kPackEntrySize);
  CHECK(get_u64(bytes, kNamesAt) == kPackHeaderSize + 2 * kPackEntrySize);
  CHECK(get_u64(bytes, kNamesSizeAt) == 2);
  CHECK(get_u64(bytes, kDataAt) == 192);  // 72 + 96 + 2 = 170, rounded up to 64
  CHECK(get_u64(bytes, kFileSizeAt) == bytes.size());
  // Names back to back in entry order; zero padding up to the data.
  CHECK(char(bytes[168]) == 'a');
  CHECK(char(bytes[169]) == 'b');
  for (size_t i = 170; i < 192; ++i) CHECK(bytes[i] == std::byte{0});
  CHECK(get_u64(bytes, entry_at(0) + kOffsetField) == 192);
}

TEST_CASE("an empty pack is valid") {
  PackLayout layout;
  REQUIRE(layout_pack({}, layout).ok());
  CHECK(layout.order.empty());
  CHECK(layout.file_size == layout.index.size());
  PackView view;
  REQUIRE(open_pack(layout.index, view).ok());
  CHECK(view.entry_count == 0);
  CHECK_FALSE(find_pack_entry(view, ""));
}

TEST_CASE("layout_pack refuses two assets with one name") {
  PackInput in[2];
  in[0].name = in[1].name = "textures/a.png";
  std::memcpy(in[0].type, "TEXI", 4);
  std::memcpy(in[1].type, "TEXI", 4);
  PackLayout layout;
  Status s = layout_pack(in, layout);
  CHECK(s.code == ErrorCode::InvalidArgument);
  CHECK(s.message.find("'textures/a.png'") != std::string::npos);
  CHECK(layout.index.empty());
}

TEST_CASE("open_pack refuses every kind of broken header and table") {
  const TestPack good = three_asset_pack();
  const uint64_t size = good.bytes.size();
  struct Case {
    const char* what;
    std::function<void(std::vector<std::byte>&)> damage;
    ErrorCode code;
    const char* message;
  };
  const Case cases[] = {
      {"empty", [](auto& b) { b.clear(); }, ErrorCode::TruncatedHeader, "shorter than the 72-byte"},
      {"under a header", [](auto& b) { b.resize(71); }, ErrorCode::TruncatedHeader, "72-byte"},
      {"truncated", [](auto& b) { b.pop_back(); }, ErrorCode::TruncatedHeader, "truncated"},
      {"a byte more", [](auto& b) { b.push_back(std::byte{0}); }, ErrorCode::LengthMismatch,
       "1 unexpected bytes"},
      {"bad magic", [](auto& b) { b[0] = std::byte{'X'}; }, ErrorCode::UnknownType,
       "not a pack file"},
      {"an asset, not a pack", [](auto& b) { std::memcpy(b.data(), "TEXI", 4); },
       ErrorCode::UnknownType, "not a pack file"},
      {"version", [](auto& b) { put_u32(b, kVersionAt, 2); }, ErrorCode::UnsupportedVersion,
       "pack version 2"},
      {"reserved", [](auto& b) { put_u32(b, kReservedAt, 1); }, ErrorCode::InvalidValue,
       "reserved header field"},
      {"count and table size disagree", [](auto& b) { put_u32(b, kCountAt, 4); },
       ErrorCode::InvalidValue, "entry table of 144 bytes for 4 entries"},
      {"count overflow: a table size that wraps in 32 bits",
       [](auto& b) {
         put_u32(b, kCountAt, 0xFFFFFFFFu);
         put_u64(b, kEntriesSizeAt, (uint64_t(0xFFFFFFFFu) * kPackEntrySize) & 0xFFFFFFFFu);
       },
       ErrorCode::InvalidValue, "entry table of"},
      {"count overflow: a table larger than the file",
       [](auto& b) {
         put_u32(b, kCountAt, 0xFFFFFFFFu);
         put_u64(b, kEntriesSizeAt, uint64_t(0xFFFFFFFFu) * kPackEntrySize);
       },
       ErrorCode::InvalidValue, "entry table outside the file"},
      {"entry table over the header", [](auto& b) { put_u64(b, kEntriesAt, 8); },
       ErrorCode::InvalidValue, "entry table outside the file (or over the header)"},
      {"entry table offset that wraps", [](auto& b) { put_u64(b, kEntriesAt, ~uint64_t(0)); },
       ErrorCode::InvalidValue, "entry table outside the file"},
      {"name table over the entry table",
       [](auto& b) { put_u64(b, kNamesAt, kPackHeaderSize + kPackEntrySize); },
       ErrorCode::InvalidValue, "name table outside the file (or over the entry table)"},
      {"name table past the end", [size](auto& b) { put_u64(b, kNamesSizeAt, size); },
       ErrorCode::InvalidValue, "name table outside the file"},
      {"data past the end", [size](auto& b) { put_u64(b, kDataSizeAt, size); },
       ErrorCode::InvalidValue, "data outside the file"},
      {"data misaligned",
       [](auto& b) {
         put_u64(b, kDataAt, get_u64(b, kDataAt) + 8);
         put_u64(b, kDataSizeAt, get_u64(b, kDataSizeAt) - 8);
       },
       ErrorCode::InvalidValue, "data offset 328 is not a multiple of 64"},
      {"entry outside the file",
       [size](auto& b) { put_u64(b, entry_at(2) + kOffsetField, size + 64 * 10); },
       ErrorCode::InvalidValue, "entry 2 ('textures/bricks.png'): asset at"},
      {"entry size that wraps",
       [](auto& b) { put_u64(b, entry_at(1) + kSizeField, ~uint64_t(0) - 100); },
       ErrorCode::InvalidValue, "lies outside the data"},
      {"entry before the data", [](auto& b) { put_u64(b, entry_at(0) + kOffsetField, 64); },
       ErrorCode::InvalidValue, "entry 0 ('models/grid.obj'): asset at 64"},
      {"entry misaligned",
       [](auto& b) {
         put_u64(b, entry_at(0) + kOffsetField, get_u64(b, entry_at(0) + kOffsetField) + 16);
         put_u64(b, entry_at(0) + kSizeField, 16);
       },
       ErrorCode::InvalidValue, "is not a multiple of 64"},
      {"names unsorted",
       [](auto& b) {
         // Entry 0 takes entry 2's name: "textures/..." then "models/grid.obj#material/0".
         for (size_t field : {kNameOffsetField, kNameLengthField}) {
           std::memcpy(&b[entry_at(0) + field], &b[entry_at(2) + field], 4);
         }
       },
       ErrorCode::InvalidValue, "entry 1 ('models/grid.obj#material/0') does not sort after"},
      {"names duplicate",
       [](auto& b) {
         for (size_t field : {kNameOffsetField, kNameLengthField}) {
           std::memcpy(&b[entry_at(2) + field], &b[entry_at(1) + field], 4);
         }
       },
       ErrorCode::InvalidValue, "names must be sorted and unique"},
      {"name outside the name table",
       [](auto& b) { put_u32(b, entry_at(1) + kNameLengthField, 1000); }, ErrorCode::InvalidValue,
       "entry 1: name outside the name table"},
      {"name range that wraps in 32 bits",
       [](auto& b) {
         put_u32(b, entry_at(1) + kNameOffsetField, 0xFFFFFFFFu);
         put_u32(b, entry_at(1) + kNameLengthField, 2);
       },
       ErrorCode::InvalidValue, "entry 1: name outside the name table"},
      {"entry type", [](auto& b) { std::memcpy(&b[entry_at(1) + kTypeField], "ma\0L", 4); },
       ErrorCode::InvalidValue, "type is not 4 characters"},
      {"entry reserved", [](auto& b) { put_u32(b, entry_at(1) + kEntryReservedField, 7); },
       ErrorCode::InvalidValue, "entry 1 ('models/grid.obj#material/0'): reserved field"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    std::vector<std::byte> bytes = good.bytes;
    c.damage(bytes);
    PackView view;
    view.entry_count = 12345;  // left unchanged on error
    Status s = open_pack(bytes, view, "game.pack");
    CHECK(s.code == c.code);
    CHECK(s.message.rfind("game.pack: ", 0) == 0);
    CHECK(s.message.find(c.message) != std::string::npos);
    INFO(s.message);
    CHECK(view.entry_count == 12345);
  }
}

TEST_CASE("read_pack_asset checks the entry against the pack and the asset") {
  TestPack pack = three_asset_pack();
  PackView view;
  REQUIRE(open_pack(pack.bytes, view, "game.pack").ok());
  PackEntry e = *find_pack_entry(view, "textures/bricks.png");
  AssetView asset;
  asset.version = 77;  // left unchanged on error

  PackEntry outside = e;
  outside.size = ~uint64_t(0);
  Status s = read_pack_asset(view, outside, asset, "game.pack");
  CHECK(s.code == ErrorCode::InvalidArgument);
  CHECK(s.message.rfind("game.pack: textures/bricks.png: ", 0) == 0);

  PackEntry other_type = e;
  std::memcpy(other_type.type, "MESH", 4);
  s = read_pack_asset(view, other_type, asset, "game.pack");
  CHECK(s.code == ErrorCode::UnknownType);
  CHECK(s.message ==
        "game.pack: textures/bricks.png: the pack lists it as MESH, the asset is TEXI");

  // An entry one byte short: the asset's own header promises more (the pack's table is fine).
  std::vector<std::byte> bytes = pack.bytes;
  size_t at = entry_at(2) + kSizeField;
  put_u64(bytes, at, get_u64(bytes, at) - 1);
  PackView damaged;
  REQUIRE(open_pack(bytes, damaged, "game.pack").ok());
  s = read_pack_asset(damaged, pack_entry(damaged, 2), asset, "game.pack");
  CHECK(s.code == ErrorCode::TruncatedHeader);
  CHECK(s.message.rfind("game.pack: textures/bricks.png: header promises", 0) == 0);
  CHECK(asset.version == 77);
}
