// Hostile asset files and manifests through the loader API, as a game meets them in a mod or a
// download: every metadata key removed or given every wrong type, lying header lengths, unknown
// codecs, decompression bombs, deep JSON nesting, unsafe manifest paths. Each must end in a
// specific error, or be accepted only when its unpacked size is justified by its blob (<= 256x)
// and then unpack into buffers of exactly the promised size.
//
// Complements tests/assetlib/test_asset_file.cpp, which covers one example of each class.
#include "hostile_helpers.h"

#include "../baked_assets.h"

#include "bake/bake_obj.h"
#include "texture/bake_texture.h"

#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <set>

using namespace assetlib;
using nlohmann::json;

namespace {

constexpr uint64_t kMaxExpansion = 256;

// Real assets, baked in memory from assets/ by the baker's importers.
AssetFile baked_texture() {
  hostile::Bytes png = hostile::file_bytes(hostile::asset("textures/leaf_alpha.png"));
  baker::BakeSettings settings;
  settings.pack.chunk_size = 4096;  // several chunks, some per level
  AssetFile file;
  std::vector<std::string> warnings;
  REQUIRE(baker::bake_texture(hostile::as_bytes(png), "textures/leaf_alpha.png", settings, file,
                              warnings)
              .ok());
  return file;
}

AssetFile baked_mesh(bool extras) {
  hostile::Bytes obj = hostile::file_bytes(hostile::asset("models/multi_material.obj"));
  hostile::Bytes mtl = hostile::file_bytes(hostile::asset("models/multi_material.mtl"));
  baker::ImportInputs inputs;
  inputs.read_file = [&](const std::string&) {
    return std::optional<std::string>(std::string(mtl.begin(), mtl.end()));
  };
  inputs.texture_name = [](const std::string& path, baker::TextureRole, std::string&) {
    return std::optional<std::string>(path);
  };
  baker::BakeSettings settings;
  settings.pack.chunk_size = 1024;
  settings.mesh.meshlets = extras;
  settings.mesh.lod_count = extras ? 2 : 0;
  baker::BakedAssets baked;
  std::vector<std::string> warnings;
  baker::BakeStatus s =
      baker::bake_obj(std::string(obj.begin(), obj.end()), "models/multi_material.obj", inputs,
                      settings, baked, warnings);
  INFO(s.message());
  REQUIRE(s.ok());
  return test::the_asset(baked, "MESH");
}

AssetFile with_meta(const AssetFile& file, const json& meta) {
  AssetFile copy = file;
  copy.json = meta.dump();
  return copy;
}

std::unique_ptr<std::byte[]> exact(uint64_t size) {
  return std::unique_ptr<std::byte[]>(new std::byte[size_t(size)]);
}

// Reads `file` as its type; when accepted, checks the size is justified and unpacks everything into
// buffers of exactly the promised size. Returns the read status.
Status read_and_unpack(const AssetFile& file) {
  AssetView view(file);
  if (has_type(view, "TEXI")) {
    TextureInfo info;
    Status s = read_texture_info(view, info);
    if (!s) return s;
    CHECK(info.total_size <= kMaxExpansion * view.blob.size());
    auto dst = exact(info.total_size);
    Status u = unpack_texture(info, view.blob.data(), view.blob.size(), dst.get(), info.total_size);
    CHECK((u.ok() || u.code == ErrorCode::CorruptBlob || u.code == ErrorCode::SizeMismatch ||
           u.code == ErrorCode::InvalidValue));
    return s;
  }
  MeshInfo info;
  Status s = read_mesh_info(view, info);
  if (!s) return s;
  uint64_t total = info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size;
  CHECK(total <= kMaxExpansion * view.blob.size());
  auto vb = exact(info.vertex_buffer_size), ib = exact(info.index_buffer_size),
       mb = exact(info.meshlet_data_size);
  Status u = unpack_mesh(info, view.blob.data(), view.blob.size(), vb.get(),
                         info.vertex_buffer_size, ib.get(), info.index_buffer_size);
  CHECK((u.ok() || u.code == ErrorCode::CorruptBlob || u.code == ErrorCode::SizeMismatch ||
         u.code == ErrorCode::InvalidValue));
  Status m =
      unpack_meshlets(info, view.blob.data(), view.blob.size(), mb.get(), info.meshlet_data_size);
  CHECK((m.ok() || m.code == ErrorCode::CorruptBlob || m.code == ErrorCode::SizeMismatch ||
         m.code == ErrorCode::InvalidValue));
  return s;
}

// Every JSON pointer in `j`, arrays limited to their first two and last elements.
void pointers(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      json::json_pointer child = at / it.key();
      out.push_back(child);
      pointers(*it, child, out);
    }
  } else if (j.is_array()) {
    std::set<size_t> picks = {0, 1};
    if (!j.empty()) picks.insert(j.size() - 1);
    for (size_t i : picks) {
      if (i >= j.size()) continue;
      json::json_pointer child = at / i;
      out.push_back(child);
      pointers(j[i], child, out);
    }
  }
}

const json kWrongValues[] = {"x",
                             -1,
                             1.5,
                             nullptr,
                             json::array(),
                             json::object(),
                             true,
                             UINT64_MAX,
                             uint64_t(1) << 32,
                             0,
                             json::array({1, 2, 3, 4})};

// Mutates every key of a real asset's metadata in every way; counts the outcomes by error code.
std::map<std::string, int> mutate_everything(const AssetFile& good) {
  json meta = json::parse(good.json);
  std::vector<json::json_pointer> all;
  pointers(meta, json::json_pointer(), all);
  std::map<std::string, int> outcomes;
  for (const json::json_pointer& p : all) {
    json removed = meta;
    const std::string key = p.back();
    json& parent = removed[p.parent_pointer()];
    if (parent.is_object()) {
      parent.erase(key);
    } else {
      parent.erase(size_t(std::stoul(key)));
    }
    Status s = read_and_unpack(with_meta(good, removed));
    ++outcomes[error_code_name(s.code)];
    for (const json& value : kWrongValues) {
      json changed = meta;
      changed[p] = value;
      Status c = read_and_unpack(with_meta(good, changed));
      INFO(p.to_string() << " = " << value.dump() << " -> " << c.message);
      CHECK((c.ok() || c.code == ErrorCode::MissingKey || c.code == ErrorCode::WrongKeyType ||
             c.code == ErrorCode::InvalidValue || c.code == ErrorCode::UnknownCompression));
      if (!c.ok()) CHECK(!c.message.empty());
      ++outcomes[error_code_name(c.code)];
    }
  }
  return outcomes;
}

}  // namespace

TEST_CASE(
    "every metadata key of a real texture, removed or mistyped, gives a specific error or a safe "
    "texture") {
  AssetFile good = baked_texture();
  REQUIRE(read_and_unpack(good).ok());
  std::map<std::string, int> outcomes = mutate_everything(good);
  CHECK(outcomes["MissingKey"] > 0);
  CHECK(outcomes["WrongKeyType"] > 0);
  json meta = json::parse(good.json);
  for (const char* key : {"format", "width", "height", "mip_count", "total_size", "original_file",
                          "compression", "chunks"}) {
    json removed = meta;
    removed.erase(key);
    Status s = read_and_unpack(with_meta(good, removed));
    INFO(key << ": " << s.message);
    CHECK(s.code == ErrorCode::MissingKey);
    CHECK(s.message.find(key) != std::string::npos);
    json mistyped = meta;
    mistyped[key] = json::object();
    CHECK(read_and_unpack(with_meta(good, mistyped)).code == ErrorCode::WrongKeyType);
  }
}

TEST_CASE(
    "every metadata key of a real mesh, removed or mistyped, gives a specific error or a safe "
    "mesh") {
  for (bool extras : {false, true}) {
    AssetFile good = baked_mesh(extras);
    REQUIRE(read_and_unpack(good).ok());
    std::map<std::string, int> outcomes = mutate_everything(good);
    CHECK(outcomes["MissingKey"] > 0);
    CHECK(outcomes["WrongKeyType"] > 0);
    json meta = json::parse(good.json);
    for (const char* key :
         {"vertex_format", "vertex_count", "vertex_stride", "index_count", "index_size", "bounds",
          "materials", "submeshes", "original_file", "compression", "chunks"}) {
      json removed = meta;
      removed.erase(key);
      Status s = read_and_unpack(with_meta(good, removed));
      INFO(key << ": " << s.message);
      CHECK(s.code == ErrorCode::MissingKey);
    }
  }
}

TEST_CASE("lying header lengths, versions and types in memory give the specific container error") {
  std::vector<std::byte> good = serialize_binaryfile(baked_texture());
  auto with_u32 = [&](size_t at, uint32_t v) {
    std::vector<std::byte> b = good;
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = std::byte((v >> (8 * i)) & 0xff);
    return b;
  };
  auto u32_at = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(good[at + size_t(i)]) << (8 * i);
    return v;
  };
  AssetView view;
  uint32_t json_length = u32_at(8), blob_length = u32_at(12);
  for (uint32_t lie : {json_length + 1, blob_length + 1, 0xffffffffu, 0x7fffffffu}) {
    CHECK(parse_binaryfile(with_u32(lie == blob_length + 1 ? 12 : 8, lie), view, "lie").code ==
          ErrorCode::TruncatedHeader);
  }
  CHECK(parse_binaryfile(with_u32(8, json_length - 1), view).code == ErrorCode::LengthMismatch);
  CHECK(parse_binaryfile(with_u32(12, 0), view).code == ErrorCode::LengthMismatch);
  for (uint32_t version : {0u, 2u, 0xffffffffu}) {
    CHECK(parse_binaryfile(with_u32(4, version), view).code == ErrorCode::UnsupportedVersion);
  }
  for (size_t size = 0; size < kHeaderSize; ++size) {
    CHECK(parse_binaryfile(std::span(good.data(), size), view).code == ErrorCode::TruncatedHeader);
  }
  // A JSON length that cuts the JSON: the container is fine, the metadata is not.
  std::vector<std::byte> cut = with_u32(8, 20);
  for (int i = 0; i < 4; ++i)
    cut[12 + size_t(i)] = std::byte(((uint32_t(good.size()) - 36) >> (8 * i)) & 0xff);
  REQUIRE(parse_binaryfile(cut, view).ok());
  TextureInfo info;
  CHECK(read_texture_info(view, info).code == ErrorCode::InvalidJson);
  // An unknown type.
  std::vector<std::byte> other = good;
  std::memcpy(other.data(), "XTEX", 4);
  REQUIRE(parse_binaryfile(other, view).ok());
  CHECK(read_texture_info(view, info).code == ErrorCode::UnknownType);
  MeshInfo mesh;
  CHECK(read_mesh_info(AssetView(baked_texture()), mesh).code == ErrorCode::UnknownType);
}

TEST_CASE(
    "unknown codecs, raw chunks under a codec and bombs are refused before anything is allocated") {
  AssetFile good = baked_texture();
  json meta = json::parse(good.json);
  for (const char* codec : {"LZ5", "lz4", "", "LZ4 ", "zstd", "none"}) {
    json m = meta;
    m["compression"] = codec;
    CHECK(read_and_unpack(with_meta(good, m)).code == ErrorCode::UnknownCompression);
  }
  json none = meta;
  none["compression"] = "None";
  bool any_compressed = false;
  for (const json& c : meta["chunks"]) any_compressed = any_compressed || c[3] < c[1];
  if (any_compressed) CHECK(read_and_unpack(with_meta(good, none)).code == ErrorCode::InvalidValue);

  // A chunk promising more than 256x its packed size; a chunk over 1 GiB.
  json bomb = meta;
  uint64_t packed = bomb["chunks"][0][3];
  bomb["chunks"][0][1] = packed * kMaxExpansion + 1;
  CHECK(read_and_unpack(with_meta(good, bomb)).code == ErrorCode::InvalidValue);
  // A 32768 x 32768 RGBA16 texture with a full chain (8 GiB+) over this blob.
  json huge = meta;
  TextureInfo layout = make_texture_info(TextureFormat::RGBA16_SFLOAT, 32768, 32768, 16);
  huge["format"] = "RGBA16_SFLOAT";
  huge["width"] = 32768;
  huge["height"] = 32768;
  huge["total_size"] = layout.total_size;
  huge["mips"] = json::array();
  for (const TextureMip& mip : layout.mips) {
    huge["mips"].push_back(
        {{"width", mip.width}, {"height", mip.height}, {"offset", mip.offset}, {"size", mip.size}});
  }
  huge["chunks"] = json::array({{0, layout.total_size, 0, good.blob.size()}});
  hostile::ChildResult r =
      hostile::run_in_child([&] { return read_and_unpack(with_meta(good, huge)).ok() ? 1 : 0; });
  CHECK(r.exited);
  CHECK(r.status == 0);
  CHECK(r.rss_growth_kib < 32 * 1024);
  // A mesh claiming 2^28 vertices over a small blob.
  AssetFile mesh = baked_mesh(false);
  json mm = json::parse(mesh.json);
  mm["vertex_count"] = 1u << 28;
  mm["index_size"] = 4;
  CHECK(read_and_unpack(with_meta(mesh, mm)).code == ErrorCode::InvalidValue);
  mm["vertex_count"] = (1u << 28) + 1;
  CHECK(read_and_unpack(with_meta(mesh, mm)).code == ErrorCode::InvalidValue);
}

TEST_CASE(
    "metadata that is not a JSON object, or nested a million deep, is InvalidJson without a "
    "crash") {
  AssetFile good = baked_texture();
  std::string deep(1'000'000, '[');
  deep += std::string(1'000'000, ']');
  std::string deep_object;
  for (int i = 0; i < 200'000; ++i) deep_object += "{\"a\":";
  deep_object += "1" + std::string(200'000, '}');
  for (const std::string& text :
       {std::string("[]"), std::string("\"TEXI\""), std::string("42"), std::string("null"),
        std::string("{\"format\": \"RGBA8_SRGB\""), std::string("{} {}"),
        std::string("{\"a\": \"\xff\xfe\"}"), std::string("\xef\xbb\xbf{}"), std::string(1000, ' '),
        deep, std::string("{\"x\": ") + deep + "}"}) {
    AssetFile copy = good;
    copy.json = text;
    Status s = read_and_unpack(copy);
    INFO(text.substr(0, 40));
    CHECK((s.code == ErrorCode::InvalidJson || s.code == ErrorCode::MissingKey));
  }
  AssetFile nested = good;
  nested.json = deep_object;
  CHECK(!read_and_unpack(nested).ok());
  Manifest manifest;
  CHECK(read_manifest(deep, manifest).code == ErrorCode::InvalidJson);
  CHECK(!read_manifest(deep_object, manifest).ok());
}

TEST_CASE("every manifest key removed or mistyped gives a specific error") {
  json doc = {{"version", 1},
              {"assets",
               {{{"name", "textures/a.png"},
                 {"type", "TEXI"},
                 {"path", "textures/a.tx"},
                 {"hash", "xxh3-64:0123456789abcdef"},
                 {"file_size", 100},
                 {"raw_size", 200}},
                {{"name", "models/b.obj"},
                 {"type", "MESH"},
                 {"path", "models/b.mesh"},
                 {"hash", "xxh3-64:0123456789abcdef"},
                 {"file_size", 300},
                 {"raw_size", 400}}}}};
  Manifest m;
  REQUIRE(read_manifest(doc.dump(), m).ok());
  std::vector<json::json_pointer> all;
  pointers(doc, json::json_pointer(), all);
  for (const json::json_pointer& p : all) {
    for (const json& value : kWrongValues) {
      json changed = doc;
      changed[p] = value;
      Manifest out;
      Status s = read_manifest(changed.dump(), out, "mod/manifest.json");
      INFO(p.to_string() << " = " << value.dump() << " -> " << s.message);
      if (s.ok()) {
        for (const ManifestEntry& e : out.assets) CHECK(is_safe_relative_path(e.path));
      } else {
        CHECK(s.message.rfind("mod/manifest.json", 0) == 0);
      }
    }
  }
  for (const char* key : {"name", "type", "path", "hash", "file_size", "raw_size"}) {
    json removed = doc;
    removed["assets"][1].erase(key);
    Manifest out;
    CHECK(read_manifest(removed.dump(), out).code == ErrorCode::MissingKey);
  }
}

TEST_CASE("manifest paths that could leave the folder are refused") {
  auto read_path = [](const std::string& path) {
    json doc = {{"version", 1},
                {"assets",
                 {{{"name", "a"},
                   {"type", "TEXI"},
                   {"path", path},
                   {"hash", "h"},
                   {"file_size", 1},
                   {"raw_size", 1}}}}};
    Manifest out;
    return read_manifest(doc.dump(), out);
  };
  for (const std::string& bad :
       {std::string("../x.tx"), std::string("a/../../x.tx"), std::string("a/.."),
        std::string("/abs.tx"), std::string("a\\..\\x.tx"), std::string("a/./b.tx"),
        std::string("a//b.tx"), std::string("a/"), std::string(""), std::string("."),
        std::string("a\0b.tx", 6)}) {
    INFO(bad);
    CHECK(read_path(bad).code == ErrorCode::InvalidValue);
  }
  CHECK(read_path("textures/ok.tx").ok());
  CHECK(read_path("..a/b..tx").ok());  // dots inside names are fine
}

// FINDING F8 (fixed in manifest.cpp): on Windows, "C:/x" and "C:x" are not relative to the
// manifest's folder. The baker's own path check (source_paths.cpp) already treats "X:" as absolute;
// the loader's does not.
TEST_CASE("manifest paths with a drive letter are refused like absolute paths") {
  for (const char* bad : {"C:/Windows/win.ini", "C:x.tx", "d:/assets/a.tx"}) {
    json doc = {{"version", 1},
                {"assets",
                 {{{"name", "a"},
                   {"type", "TEXI"},
                   {"path", bad},
                   {"hash", "h"},
                   {"file_size", 1},
                   {"raw_size", 1}}}}};
    Manifest out;
    INFO(bad);
    CHECK(read_manifest(doc.dump(), out).code == ErrorCode::InvalidValue);
    CHECK(!is_safe_relative_path(bad));
  }
}
