// Hostile glTF files through the importer (bake/bake_gltf.h, in memory): broken containers and
// JSON, lying lengths, indices and offsets out of range, URIs leaving the root, compressed data
// that does not decode, cycles and exponential node sharing, accessors that would decode to
// gigabytes. Each must end in an error that names the file and the JSON path, never a crash, a hang
// or a huge allocation (each case runs in a child process with an alarm and its memory growth
// measured).
#include "hostile_helpers.h"

#include "../baker/gltf_fixture.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

using nlohmann::json;

namespace {

const std::vector<float> kTriangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};

std::vector<std::byte> text_bytes(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

// A GLB of `json_text` and `bin` (either may be cut or lied about by the caller afterwards).
std::vector<std::byte> glb(const std::string& json_text, const std::string& bin) {
  std::string j = json_text, b = bin;
  while (j.size() % 4) j += ' ';
  while (b.size() % 4) b += '\0';
  auto u32 = [](std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); };
  std::string out = "glTF";
  u32(out, 2);
  u32(out, uint32_t(12 + 8 + j.size() + (b.empty() ? 0 : 8 + b.size())));
  u32(out, uint32_t(j.size()));
  u32(out, 0x4E4F534A);
  out += j;
  if (!b.empty()) {
    u32(out, uint32_t(b.size()));
    u32(out, 0x004E4942);
    out += b;
  }
  return text_bytes(out);
}

// Bakes `bytes` in a child under an alarm; returns the status code seen there (-1: crashed or
// hung) and fills `status` from a bake in this process when the child survived.
struct Outcome {
  hostile::ChildResult child;
  test::BakedScene baked;
};

Outcome refuse(const std::vector<std::byte>& bytes,
               const std::map<std::string, std::string>& files = {}) {
  Outcome o;
  o.child = hostile::run_in_child([&] {
    alarm(hostile::kHangSeconds);
    test::BakedScene b = test::bake_gltf_bytes(bytes, "scenes/x.gltf", files);
    return b.status.ok() ? 0 : 1;
  });
  REQUIRE(o.child.exited);
  if (!hostile::kSanitized) CHECK(o.child.rss_growth_kib < 64 * 1024);
  o.baked = test::bake_gltf_bytes(bytes, "scenes/x.gltf", files);
  return o;
}

void expect_refused(const std::vector<std::byte>& bytes, const std::string& reason_part,
                    const std::map<std::string, std::string>& files = {}) {
  Outcome o = refuse(bytes, files);
  INFO(o.baked.status.message());
  CHECK(o.child.status == 1);
  CHECK_FALSE(o.baked.status.ok());
  CHECK(o.baked.status.blames_source());
  CHECK(o.baked.status.file == "scenes/x.gltf");
  CHECK(o.baked.status.reason.find(reason_part) != std::string::npos);
}

test::GeneratedGltf triangle() { return test::one_primitive(kTriangle, {0, 1, 2}, 4); }

// The triangle with a sparse accessor over its positions: two targets, two VEC3 values.
test::GeneratedGltf with_sparse_positions(uint16_t first, uint16_t second) {
  test::GeneratedGltf g = triangle();
  uint16_t targets[2] = {first, second};
  float values[6] = {0, 0, 1, 0, 0, 2};
  size_t ti = g.add(targets, 4, 5123, "SCALAR", 2), vi = g.add(values, 24, 5126, "VEC3", 2);
  g.doc["accessors"][0]["sparse"] = {
      {"count", 2},
      {"indices", {{"bufferView", g.doc["accessors"][ti]["bufferView"]}, {"componentType", 5123}}},
      {"values", {{"bufferView", g.doc["accessors"][vi]["bufferView"]}}}};
  return g;
}

}  // namespace

TEST_CASE("glTF files that are not JSON, not 2.0 or whose GLB container lies are refused") {
  expect_refused(text_bytes("{ not json"), "not valid JSON");
  expect_refused(text_bytes("[1, 2]"), "not an object");
  expect_refused(text_bytes(R"({"meshes": []})"), "asset: is required");
  expect_refused(text_bytes(R"({"asset": {"version": "1.0"}})"), "asset.version");
  expect_refused(text_bytes(R"({"asset": {"version": "2.1", "minVersion": "2.1"}})"),
                 "asset.minVersion: '2.1' is required to read the file; this baker reads 2.0");
  std::vector<std::byte> good = glb(R"({"asset":{"version":"2.0"}})", "");
  std::vector<std::byte> version = good;
  version[4] = std::byte{1};
  expect_refused(version, "GLB container version 1");
  std::vector<std::byte> long_header = good;
  long_header[8] = std::byte{0xff};
  long_header[9] = std::byte{0xff};
  expect_refused(long_header, "GLB header claims");
  std::vector<std::byte> cut(good.begin(), good.begin() + 18);
  expect_refused(cut, "GLB header cut short");
  std::vector<std::byte> chunk = good;
  chunk[12] = std::byte{0xf0};  // the JSON chunk's length, past the end
  expect_refused(chunk, "runs past the end");
  std::vector<std::byte> not_json = good;
  not_json[16] = std::byte{'X'};
  expect_refused(not_json, "the first chunk is not JSON");
  // A BIN chunk shorter than buffer 0's byteLength.
  json d = {{"asset", {{"version", "2.0"}}}, {"buffers", {{{"byteLength", 64}}}}};
  expect_refused(glb(d.dump(), std::string(16, '\0')),
                 "buffers[0]: byteLength is 64 but the data holds 16");
}

TEST_CASE(
    "buffer URIs that leave the root, are absolute, have a scheme or do not decode are refused") {
  for (const char* uri :
       {"/etc/passwd", "../../outside.bin", "http://example.com/a.bin", "C:/windows/a.bin", "a%2",
        "data:application/octet-stream;base64,@@@@", "data:text/plain,abc", "missing.bin"}) {
    INFO(uri);
    json d = triangle().doc;
    d["buffers"] = {{{"byteLength", 12}, {"uri", uri}}};
    Outcome o = refuse(text_bytes(d.dump()));
    INFO(o.baked.status.message());
    CHECK(o.child.status == 1);
    CHECK(o.baked.status.reason.find("buffers[0].uri") != std::string::npos);
    for (const std::string& read : o.baked.files_read) CHECK(read == "scenes/missing.bin");
  }
  // A URI inside the root, percent-encoded, is read.
  test::GeneratedGltf g = triangle();
  json d = g.doc;
  d["buffers"] = {{{"byteLength", g.bin.size()}, {"uri", "data%20files/tri.bin"}}};
  test::BakedScene ok = test::bake_gltf_bytes(text_bytes(d.dump()), "scenes/x.gltf",
                                              {{"scenes/data files/tri.bin", g.bin}});
  INFO(ok.status.message());
  CHECK(ok.status.ok());
}

TEST_CASE("data URIs read in any case, and a long URI is quoted cut in its error") {
  test::GeneratedGltf g = triangle();
  std::vector<std::byte> bytes = g.bytes();
  std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const std::string lower = "data:application/octet-stream;base64,";
  REQUIRE(text.find(lower) != std::string::npos);
  text.replace(text.find(lower), lower.size(), "DATA:application/octet-stream;BASE64,");
  test::BakedScene upper = test::bake_gltf_bytes(text_bytes(text), "scenes/x.gltf");
  INFO(upper.status.message());
  CHECK(upper.status.ok());

  json d = triangle().doc;
  d["buffers"] = {{{"byteLength", 12}, {"uri", "http://example.com/" + std::string(100000, 'a')}}};
  test::BakedScene refused = test::bake_gltf_bytes(text_bytes(d.dump()), "scenes/x.gltf");
  CHECK_FALSE(refused.status.ok());
  CHECK(refused.status.message().find("has a scheme") != std::string::npos);
  CHECK(refused.status.message().find("(100019 bytes)") != std::string::npos);
  CHECK(refused.status.message().size() < 400);
}

TEST_CASE(
    "image URIs that leave the root, percent-encoded or not, leave the slot untextured, saying "
    "why") {
  // secret.png stands beside the input folder: only through `files` can the test see it asked for.
  const std::map<std::string, std::string> files = {{"../secret.png", "x"}, {"scenes/ok.png", "x"}};
  const std::pair<const char*, const char*> cases[] = {
      {"%2e%2e/%2e%2e/secret.png", "images[0] path '../../secret.png' leaves the input folder"},
      {"sub%2f..%2f..%2f..%2fsecret.png", "images[0] path 'sub/../../../secret.png' leaves the"},
      {"..\\..\\secret.png", "images[0] path '../../secret.png' leaves the input folder"},
      {"/secret.png", "images[0] absolute path '/secret.png' refused"},
      {"file:///secret.png", "images[0] URI 'file:///secret.png' has a scheme"},
      {"a%zz.png", "images[0] URI 'a%zz.png' has a bad percent-escape"},
      {"missing.png", "images[0] 'scenes/missing.png' is not an image of this bake"}};
  for (const auto& [uri, why] : cases) {
    INFO(uri);
    test::GeneratedGltf g = triangle();
    json& d = g.doc;
    d["images"] = {{{"uri", uri}}};
    d["textures"] = {{{"source", 0}}};
    d["materials"] = {{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
    d["meshes"][0]["primitives"][0]["material"] = 0;
    test::BakedScene b = test::bake_gltf_bytes(g.bytes(), "scenes/x.gltf", files);
    INFO(b.status.message());
    REQUIRE(b.status.ok());
    std::string warnings;
    for (const std::string& w : b.warnings) warnings += w + "\n";
    INFO(warnings);
    CHECK(b.warned(std::string("baseColorTexture: texture 0: ") + why));
    CHECK(b.material("scenes/x.gltf#material/0").base_color.texture.empty());
    for (const std::string& read : b.files_read) CHECK(read.rfind("scenes/", 0) == 0);
  }
  // The same image inside the root is the slot's texture.
  test::GeneratedGltf g = triangle();
  json& d = g.doc;
  d["images"] = {{{"uri", "ok%2epng"}}};
  d["textures"] = {{{"source", 0}}};
  d["materials"] = {{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
  d["meshes"][0]["primitives"][0]["material"] = 0;
  test::BakedScene ok = test::bake_gltf_bytes(g.bytes(), "scenes/x.gltf", files);
  REQUIRE(ok.status.ok());
  CHECK(ok.material("scenes/x.gltf#material/0").base_color.texture == "scenes/ok.png#color");
}

TEST_CASE("indices, offsets, counts and types out of range are refused with their JSON path") {
  auto edited = [](auto edit) {
    std::vector<std::byte> bytes = triangle().bytes();
    json d = json::parse(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    edit(d);
    return text_bytes(d.dump());
  };
  expect_refused(edited([](json& d) { d["bufferViews"][0]["byteOffset"] = 1000; }),
                 "bufferViews[0]: bytes 1000");
  expect_refused(edited([](json& d) { d["accessors"][0]["count"] = 4; }),
                 "accessors[0]: reads 4 elements of 12 bytes");
  expect_refused(edited([](json& d) { d["accessors"][0]["count"] = 0; }), "accessors[0].count");
  expect_refused(edited([](json& d) { d["accessors"][0]["count"] = 1u << 31; }),
                 "accessors[0].count");
  expect_refused(edited([](json& d) { d["accessors"][0]["type"] = "VEC2"; }),
                 "meshes[0].primitives[0].attributes.POSITION: accessor 0 of type 'VEC2'");
  expect_refused(edited([](json& d) { d["accessors"][0]["componentType"] = 5127; }),
                 "accessors[0].componentType");
  expect_refused(edited([](json& d) { d["meshes"][0]["primitives"][0]["indices"] = 7; }),
                 "meshes[0].primitives[0].indices: accessor 7 does not exist");
  expect_refused(edited([](json& d) { d["meshes"][0]["primitives"][0]["material"] = 4294967296u; }),
                 "meshes[0].primitives[0].material: material 4294967296 does not exist");
  expect_refused(edited([](json& d) { d["meshes"][0]["primitives"][0]["material"] = "x"; }),
                 "meshes[0].primitives[0].material: must be an index");
  expect_refused(edited([](json& d) { d["nodes"][0]["mesh"] = -1; }),
                 "nodes[0].mesh: must be an index");
  expect_refused(edited([](json& d) { d["nodes"][0]["children"] = json::array({5}); }),
                 "nodes[0].children[0]");
  expect_refused(edited([](json& d) { d["bufferViews"][0]["byteStride"] = 4; }),
                 "elements overlap");
  expect_refused(edited([](json& d) { d["bufferViews"][1]["byteStride"] = 4; }),
                 "accessors[1]: reads 3 elements of 2 bytes, 4 apart, from byte 0 of a buffer view "
                 "of 6 bytes");
  // Offsets and strides whose end wraps past 2^64 into the view (a check that adds them first
  // passes, and the copy reads outside the buffer).
  expect_refused(edited([](json& d) { d["bufferViews"][0]["byteStride"] = uint64_t(1) << 63; }),
                 "accessors[0]: reads 3 elements of 12 bytes, 9223372036854775808 apart");
  expect_refused(edited([](json& d) { d["accessors"][0]["byteOffset"] = ~uint64_t(0) - 11; }),
                 "accessors[0]: reads 3 elements of 12 bytes, 12 apart, from byte "
                 "18446744073709551604");
  // An index past the vertices.
  test::GeneratedGltf g = test::one_primitive(kTriangle, {0, 1, 3}, 4);
  expect_refused(g.bytes(), "meshes[0].primitives[0].indices: index 3 is not below 3 vertices");
  // Not whole triangles.
  test::GeneratedGltf h = test::one_primitive(kTriangle, {0, 1}, 4);
  expect_refused(h.bytes(), "meshes[0].primitives[0].indices: 2 indices are not whole triangles");
  // Without indices: POSITION's count is what is not whole.
  test::GeneratedGltf unindexed = test::one_primitive({0, 0, 0, 1, 0, 0}, {}, 4);
  expect_refused(unindexed.bytes(),
                 "meshes[0].primitives[0].attributes.POSITION: 2 vertices (no "
                 "indices) are not whole triangles");
  // Non-finite positions.
  test::GeneratedGltf n = test::one_primitive({0, 0, 0, NAN, 0, 0, 0, 1, 0}, {0, 1, 2}, 4);
  expect_refused(n.bytes(), "position 1 is not finite");
  // Non-finite normals and UVs (a NaN equals nothing: each corner would be a vertex of its own).
  test::GeneratedGltf m = test::one_primitive(kTriangle, {0, 1, 2}, 4);
  const std::vector<float> normals = {0, 0, 1, 0, 0, 1, NAN, 0, 1};
  m.doc["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] =
      m.add(normals.data(), normals.size() * 4, 5126, "VEC3", 3);
  expect_refused(m.bytes(), "meshes[0].primitives[0].attributes.NORMAL: vertex 2 is not finite");
  const std::vector<float> uvs = {0, 0, 1, INFINITY, 0, 1};
  m.doc["meshes"][0]["primitives"][0]["attributes"].erase("NORMAL");
  m.doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] =
      m.add(uvs.data(), uvs.size() * 4, 5126, "VEC2", 3);
  expect_refused(m.bytes(),
                 "meshes[0].primitives[0].attributes.TEXCOORD_0: vertex 1 is not finite");
}

TEST_CASE("sparse accessors with unordered or out-of-range indices are refused") {
  for (auto [a, b] : {std::pair<uint16_t, uint16_t>{2, 1}, std::pair<uint16_t, uint16_t>{1, 9}}) {
    expect_refused(with_sparse_positions(a, b).bytes(),
                   "accessors[0].sparse.indices: indices must increase");
  }
  // Sparse offsets whose end wraps past 2^64.
  for (const char* part : {"indices", "values"}) {
    INFO(part);
    test::GeneratedGltf g = with_sparse_positions(0, 2);
    g.doc["accessors"][0]["sparse"][part]["byteOffset"] = ~uint64_t(0) - 1;
    expect_refused(g.bytes(), std::string("accessors[0].sparse.") + part + ": reads 2 elements");
  }
}

TEST_CASE("accessors and node trees that would expand far beyond the file are refused") {
  // 2^28 zeros of VEC4 from a file of a few hundred bytes: 4 GiB.
  test::GeneratedGltf g = triangle();
  g.doc["accessors"].push_back({{"componentType", 5126}, {"type", "VEC3"}, {"count", 1u << 28}});
  g.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = g.doc["accessors"].size() - 1;
  g.doc["meshes"][0]["primitives"][0].erase("indices");
  expect_refused(g.bytes(), "decodes to more data than a file of this size can hold");
  CHECK(test::bake_gltf_bytes(g.bytes(), "x.gltf").status.code == baker::BakeError::LimitExceeded);
  // 100000 primitives sharing one accessor of 2^20 zero positions: decoded once, but each
  // primitive still scans and maps every vertex, 10^11 steps; its share of the budget refuses it.
  test::GeneratedGltf shared = triangle();
  shared.doc["accessors"].push_back(
      {{"componentType", 5126}, {"type", "VEC3"}, {"count", 1u << 20}});
  json& primitives = shared.doc["meshes"][0]["primitives"];
  primitives[0]["attributes"]["POSITION"] = shared.doc["accessors"].size() - 1;
  for (int i = 0; i < 100000; ++i) primitives.push_back(primitives[0]);
  expect_refused(shared.bytes(), "attributes: decodes to more data than a file of this size");
  // 2^22 zero byte indices as a strip (4 MiB, within the budget), without normals: 12 million
  // corners of a flat-normal vertex each, 0.9 GB, refused before any corner is made.
  test::GeneratedGltf strip = triangle();
  strip.doc["accessors"].push_back(
      {{"componentType", 5121}, {"type", "SCALAR"}, {"count", 1u << 22}});
  strip.doc["meshes"][0]["primitives"][0]["indices"] = strip.doc["accessors"].size() - 1;
  strip.doc["meshes"][0]["primitives"][0]["mode"] = 5;
  expect_refused(strip.bytes(), "meshes[0].primitives[0]: decodes to more data");
  // The same beside a points primitive naming a 4 MiB view as Draco data: only a view decoded as
  // a Draco mesh counts as one in the budget, not one a skipped primitive names.
  test::GeneratedGltf credited = strip;
  const std::vector<uint8_t> padding(4u << 20, 0);
  const size_t padding_view = credited.doc["accessors"][credited.add(
      padding.data(), padding.size(), 5121, "SCALAR", padding.size())]["bufferView"];
  json points = credited.doc["meshes"][0]["primitives"][0];
  points["mode"] = 0;
  points.erase("indices");
  points["extensions"] = {{"KHR_draco_mesh_compression",
                           {{"bufferView", padding_view}, {"attributes", {{"POSITION", 0}}}}}};
  credited.doc["meshes"][0]["primitives"].push_back(points);
  expect_refused(credited.bytes(), "meshes[0].primitives[0]: decodes to more data");
  // 40 nodes, each with the next as both children: 2^40 paths.
  test::GeneratedGltf tree = triangle();
  tree.doc["nodes"] = json::array();
  for (int i = 0; i < 40; ++i) {
    json node = {{"mesh", 0}};
    if (i + 1 < 40) node["children"] = {i + 1, i + 1};
    tree.doc["nodes"].push_back(node);
  }
  expect_refused(tree.bytes(), "the scene expands to more than 4736 nodes");
  // A cycle below the scene root.
  test::GeneratedGltf cycle = triangle();
  cycle.doc["nodes"] = {{{"children", json::array({1})}},
                        {{"children", json::array({2})}},
                        {{"children", json::array({1})}}};
  expect_refused(cycle.bytes(), "is its own ancestor");
}

TEST_CASE("compressed data that does not decode is refused") {
  // EXT_meshopt_compression over bytes that are not a meshopt stream.
  test::GeneratedGltf m = triangle();
  m.doc["extensionsUsed"] = json::array({"EXT_meshopt_compression"});
  m.doc["bufferViews"][1]["extensions"] = {{"EXT_meshopt_compression",
                                            {{"buffer", 0},
                                             {"byteLength", 12},
                                             {"byteStride", 12},
                                             {"count", 3},
                                             {"mode", "ATTRIBUTES"}}}};
  expect_refused(m.bytes(),
                 "bufferViews[1].extensions.EXT_meshopt_compression: compressed data is malformed");
  m.doc["bufferViews"][1]["extensions"]["EXT_meshopt_compression"]["mode"] = "SHUFFLE";
  expect_refused(m.bytes(), "mode 'SHUFFLE'");
  // KHR_draco_mesh_compression over bytes that are not a Draco stream.
  test::GeneratedGltf d = triangle();
  d.doc["extensionsUsed"] = json::array({"KHR_draco_mesh_compression"});
  d.doc["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", {{"POSITION", 0}}}}}};
  expect_refused(d.bytes(), "buffer view 0 is not Draco data (no DRACO header)");
  // A Draco header announcing 2^28 faces and points in a few bytes (a stream of a regular grid
  // compresses about that well): refused for the sizes it announces, before Draco allocates them.
  test::GeneratedGltf bomb = triangle();
  const uint8_t header[] = {'D',  'R',  'A',  'C',  'O',  2,
                            2,    1,    0,    0,    0,         // 2.2, mesh, sequential
                            0x80, 0x80, 0x80, 0x80, 0x01,      // faces: 2^28
                            0x80, 0x80, 0x80, 0x80, 0x01, 0};  // points: 2^28
  const size_t view = bomb.doc["accessors"][bomb.add(header, sizeof header, 5121, "SCALAR",
                                                     sizeof header)]["bufferView"];
  bomb.doc["extensionsUsed"] = json::array({"KHR_draco_mesh_compression"});
  bomb.doc["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_draco_mesh_compression", {{"bufferView", view}, {"attributes", {{"POSITION", 0}}}}}};
  expect_refused(bomb.bytes(), "KHR_draco_mesh_compression: decodes to more data than a file");
  // The same behind file metadata whose value is 200 bytes long (a varint of length: a reader
  // taking one byte of length would land inside the value and read other sizes there).
  test::GeneratedGltf hidden = triangle();
  std::vector<uint8_t> stream = {
      'D', 'R', 'A', 'C',  'O', 2, 2, 1, 0, 0, 0x80,  // metadata flag
      0,                                              // attribute metadata
      1,   1,   'k', 0xc8, 0x01};                     // 1 entry: name "k", value of 200 bytes
  stream.insert(stream.end(), 200, 0);  // the value: zeros, which would read as 0 faces, 0 points
  stream.push_back(0);                  // no sub-metadata
  stream.insert(stream.end(), {0x80, 0x80, 0x80, 0x80, 0x01, 0x80, 0x80, 0x80, 0x80, 0x01, 0});
  const size_t hidden_view = hidden.doc["accessors"][hidden.add(
      stream.data(), stream.size(), 5121, "SCALAR", stream.size())]["bufferView"];
  hidden.doc["extensionsUsed"] = json::array({"KHR_draco_mesh_compression"});
  hidden.doc["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_draco_mesh_compression",
       {{"bufferView", hidden_view}, {"attributes", {{"POSITION", 0}}}}}};
  expect_refused(hidden.bytes(), "KHR_draco_mesh_compression: decodes to more data than a file");
}

TEST_CASE("an embedded image that is not an image fails the file, naming the image") {
  test::GeneratedGltf g = triangle();
  std::string garbage = "this is not a PNG file";
  size_t at = g.add(garbage.data(), garbage.size(), 5121, "SCALAR", garbage.size());
  g.doc["images"] = {
      {{"bufferView", g.doc["accessors"][at]["bufferView"]}, {"mimeType", "image/png"}}};
  g.doc["textures"] = {{{"source", 0}}};
  g.doc["materials"] = {{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
  g.doc["meshes"][0]["primitives"][0]["material"] = 0;
  expect_refused(g.bytes(), "scenes/x.gltf#image/0");
}

TEST_CASE("a glTF JSON nested 100000 deep does not crash the importer") {
  test::GeneratedGltf g = triangle();
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  std::vector<std::byte> bytes = g.bytes();
  std::string with_extras(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  with_extras.insert(with_extras.size() - 1, ",\"extras\":" + deep);
  Outcome o = refuse(text_bytes(with_extras));
  CHECK(o.child.status == 0);  // valid glTF: extras are anything
  CHECK(o.baked.status.ok());
}

TEST_CASE("a Draco attribute whose accessor has the wrong type for it is refused") {
  // A real Draco stream (the corpus box) whose accessors claim fewer or more components than the
  // stream holds (and than glTF allows): the decoded values must not be read as positions or
  // normals.
  const std::string folder = test::corpus("draco-testdata/BoxMetaDraco/glTF/");
  std::ifstream gltf(folder + "BoxMetaDraco.gltf"), bin(folder + "buffer0.bin", std::ios::binary);
  REQUIRE((gltf && bin));
  const json original = json::parse(gltf);
  const std::map<std::string, std::string> files = {
      {"scenes/buffer0.bin", std::string(std::istreambuf_iterator<char>(bin), {})}};
  const std::pair<int, const char*> cases[] = {
      {1, "SCALAR"}, {1, "VEC2"}, {2, "VEC4"}, {3, "VEC3"}};
  for (const auto& [accessor, type] : cases) {
    json doc = original;
    doc["accessors"][accessor]["type"] = type;
    INFO(accessor << " " << type);
    expect_refused(text_bytes(doc.dump()),
                   std::string("the Draco attribute has ") + (accessor == 3 ? "2" : "3") +
                       " components, its accessor's type " + type,
                   files);
  }
}

TEST_CASE("cameras and lights outside glTF's rules are refused, naming the value") {
  // Baked as given they reach a renderer as a division by zero or a negative light, exit 0.
  auto with = [](auto edit) {
    test::GeneratedGltf g = triangle();
    g.doc["cameras"] = {
        {{"type", "perspective"}, {"perspective", {{"yfov", 0.8}, {"znear", 0.1}, {"zfar", 100}}}},
        {{"type", "orthographic"},
         {"orthographic", {{"xmag", 1}, {"ymag", 1}, {"znear", 0}, {"zfar", 10}}}}};
    g.doc["extensions"]["KHR_lights_punctual"]["lights"] = {
        {{"type", "spot"},
         {"intensity", 3},
         {"range", 10},
         {"spot", {{"innerConeAngle", 0.2}, {"outerConeAngle", 0.7}}}}};
    edit(g.doc);
    return g.bytes();
  };
  auto accepted = [](const std::vector<std::byte>& bytes) {
    test::BakedScene b = test::bake_gltf_bytes(bytes, "scenes/x.gltf");
    INFO(b.status.message());
    CHECK(b.status.ok());
    return b;
  };
  Outcome valid = refuse(with([](json&) {}));
  INFO(valid.baked.status.message());
  CHECK(valid.baked.status.ok());
  CHECK(valid.baked.warnings.empty());
  json& (*light)(json&) = [](json& d) -> json& {
    return d["extensions"]["KHR_lights_punctual"]["lights"][0];
  };
  std::string lp = "extensions.KHR_lights_punctual.lights[0]";
  SECTION("values outside the rules") {
    expect_refused(with([](json& d) { d["cameras"][0]["perspective"]["yfov"] = -0.5; }),
                   "cameras[0].perspective.yfov: -0.5 is not in (0, pi)");
    expect_refused(with([](json& d) { d["cameras"][0]["perspective"]["znear"] = 0; }),
                   "cameras[0].perspective.znear: 0 is not above 0");
    expect_refused(with([](json& d) { d["cameras"][0]["perspective"]["zfar"] = 0.05; }),
                   "cameras[0].perspective.zfar: 0.05 is not beyond znear 0.1");
    expect_refused(with([](json& d) { d["cameras"][0]["perspective"]["aspectRatio"] = 0; }),
                   "cameras[0].perspective.aspectRatio: 0 is not above 0");
    expect_refused(with([](json& d) { d["cameras"][1]["orthographic"]["xmag"] = 0; }),
                   "cameras[1].orthographic.xmag: 0 is 0");
    expect_refused(with([](json& d) { d["cameras"][1]["orthographic"]["zfar"] = 0; }),
                   "cameras[1].orthographic.zfar: 0 is not beyond znear 0");
    expect_refused(with([&](json& d) { light(d)["intensity"] = -1; }),
                   lp + ".intensity: -1 is below 0");
    expect_refused(with([&](json& d) { light(d)["range"] = -1; }), lp + ".range: -1 is below 0");
    expect_refused(with([&](json& d) {
                     light(d)["color"] = {1, 2, 1};
                   }),
                   lp + ".color[1]: 2 is not in [0, 1]");
    expect_refused(with([&](json& d) { light(d)["spot"]["innerConeAngle"] = 0.8; }),
                   lp + ".spot.innerConeAngle: 0.8 is not in [0, outerConeAngle]");
    expect_refused(with([&](json& d) { light(d)["spot"]["outerConeAngle"] = 2; }),
                   lp + ".spot.outerConeAngle: 2 is not in (0, pi/2]");
  }
  SECTION("values glTF requires, and a camera of two kinds") {
    expect_refused(with([](json& d) { d["cameras"][0]["perspective"].erase("yfov"); }),
                   "cameras[0].perspective.yfov: is required");
    expect_refused(with([](json& d) { d["cameras"][1]["orthographic"].erase("zfar"); }),
                   "cameras[1].orthographic.zfar: is required");
    expect_refused(with([](json& d) { d["cameras"][0].erase("perspective"); }),
                   "cameras[0].perspective: is required");
    expect_refused(
        with([](json& d) { d["cameras"][0]["orthographic"] = d["cameras"][1]["orthographic"]; }),
        "cameras[0].orthographic: must not be given for a perspective camera");
  }
  SECTION("edge values real exporters write are accepted") {
    // three.js and Blender export a spot without penumbra or blend as inner == outer; Blender
    // writes pi/2 as 1.5707963705062866; the first schema's range default was 0 (infinite).
    test::BakedScene hard = accepted(with([&](json& d) {
      light(d)["spot"] = {{"innerConeAngle", 1.5707963705062866},
                          {"outerConeAngle", 1.5707963705062866}};
      light(d)["range"] = 0;
      d["cameras"][0]["perspective"].erase("zfar");
      d["cameras"][1]["orthographic"]["xmag"] = -2;
    }));
    CHECK(hard.warned("1 spot light(s) have innerConeAngle equal to outerConeAngle"));
    assetlib::PrefabInfo p = hard.prefab();
    CHECK(p.lights[0].range == 0);
    CHECK(p.cameras[0].zfar == 0);
    CHECK(p.cameras[1].xmag == -2);
    // A spot light without its (required) `spot` object: the default cone, as viewers draw it.
    test::BakedScene bare = accepted(with([&](json& d) { light(d).erase("spot"); }));
    CHECK(bare.warned("1 spot light(s) have no `spot` object (glTF requires one)"));
    CHECK_FALSE(hard.warned("no `spot` object"));
    CHECK(bare.prefab().lights[0].outer_cone_angle == 0.7853981634f);
  }
}

TEST_CASE("a default scene index with no scenes is refused") {
  test::GeneratedGltf g = triangle();
  g.doc["scenes"] = json::array();
  g.doc["scene"] = 0;
  expect_refused(g.bytes(), "scene: scene 0 does not exist (0 in the file)");
}

TEST_CASE("a mesh of 60000 primitives bakes in linear time") {
  // Each primitive its own copy of the triangle's indices into one shared POSITION accessor:
  // appending them reallocated the mesh's vertices once per primitive (minutes in Release).
  test::GeneratedGltf g = triangle();
  json primitive = g.doc["meshes"][0]["primitives"][0];
  g.doc["meshes"][0]["primitives"] = json::array();
  for (int i = 0; i < 60000; ++i) g.doc["meshes"][0]["primitives"].push_back(primitive);
  const std::vector<std::byte> bytes = g.bytes();
  hostile::ChildResult child = hostile::run_in_child([&] {
    alarm(hostile::kHangSeconds);
    return test::bake_gltf_bytes(bytes, "scenes/x.gltf").status.ok() ? 0 : 1;
  });
  REQUIRE(child.exited);  // not killed by the alarm
  CHECK(child.status == 0);
}
