// Warm metadata reads (issue 18): once a thread has read an asset and the caller passes the same
// info again, read_texture_info, read_mesh_info and read_material_info allocate nothing; and an
// info that held another asset, or a failed read, never shows in what a read returns.
//
// Allocations are counted by this program's own operator new or, under a sanitizer (which owns
// operator new), by the sanitizer's allocation hooks, which see malloc too. A program of its own:
// assetlib-tests already replaces operator new (test_out_of_memory.cpp).
#include "edited_metadata.h"
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ASSETLIB_TEST_SANITIZER_HOOKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define ASSETLIB_TEST_SANITIZER_HOOKS 1
#endif
#endif
#ifndef ASSETLIB_TEST_SANITIZER_HOOKS
#define ASSETLIB_TEST_SANITIZER_HOOKS 0
#endif

namespace {
thread_local size_t t_allocations = 0;
}  // namespace

#if ASSETLIB_TEST_SANITIZER_HOOKS
// sanitizer/allocator_interface.h, which GCC does not ship; every sanitizer runtime has it.
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                             size_t),
                                                         void (*free_hook)(const volatile void*));
namespace {
void count_allocation(const volatile void*, size_t) { ++t_allocations; }
void ignore_free(const volatile void*) {}
const bool g_hooks_installed =
    __sanitizer_install_malloc_and_free_hooks(count_allocation, ignore_free) != 0;
}  // namespace
#else
namespace {
const bool g_hooks_installed = true;  // operator new below counts
}  // namespace
// malloc and free underneath. The array, nothrow and sized forms call these. Not inlined: GCC
// would otherwise see free() on the result of operator new and warn.
[[gnu::noinline]] void* operator new(std::size_t size) {
  ++t_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, std::align_val_t align) {
  ++t_allocations;
  size_t a = size_t(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
#endif

using namespace assetlib;

namespace {

// Allocations made on this thread while `call` runs.
template <typename Call>
size_t allocations_during(Call&& call) {
  size_t before = t_allocations;
  call();
  return t_allocations - before;
}

// Every field, as text: two infos are the same when their descriptions are.
std::string describe(const TextureInfo& t) {
  std::ostringstream s;
  s << int(t.format) << ' ' << t.width << 'x' << t.height << " total " << t.total_size << " c"
    << int(t.compression) << " '" << t.original_file << "' legacy " << t.legacy << " mips";
  for (const TextureMip& m : t.mips) s << ' ' << m.width << 'x' << m.height << '@' << m.offset;
  s << " chunks";
  for (const Chunk& c : t.chunks) {
    s << " [" << c.raw_offset << ',' << c.raw_size << ',' << c.packed_offset << ',' << c.packed_size
      << ']';
  }
  return s.str();
}

void describe(std::ostringstream& s, const MeshBounds& b) {
  s << " bounds " << b.origin[0] << ',' << b.origin[1] << ',' << b.origin[2] << ' ' << b.extents[0]
    << ',' << b.extents[1] << ',' << b.extents[2] << ' ' << b.radius;
}

std::string describe(const MeshInfo& m) {
  std::ostringstream s;
  s << int(m.vertex_format) << ' ' << m.vertex_count << '/' << m.vertex_stride << ' '
    << m.index_count << '+' << m.lod_index_count << 'x' << m.index_size << " meshlets "
    << m.meshlet_count << ',' << m.meshlet_vertex_count << ',' << m.meshlet_triangle_count
    << " stats " << m.stats.acmr_before << ',' << m.stats.acmr_after << ',' << m.stats.atvr_before
    << ',' << m.stats.atvr_after << " '" << m.original_file << "' c" << int(m.compression)
    << " sizes " << m.vertex_buffer_size << ',' << m.index_buffer_size << ',' << m.meshlet_data_size
    << " legacy " << m.legacy;
  describe(s, m.bounds);
  for (const MeshMaterial& mat : m.materials) {
    s << " material '" << mat.name << "' " << mat.base_color[0] << ',' << mat.base_color[1] << ','
      << mat.base_color[2] << ',' << mat.base_color[3] << ' ' << mat.specular_color[0] << ','
      << mat.specular_color[1] << ',' << mat.specular_color[2] << " '" << mat.base_color_texture
      << "' '" << mat.normal_texture << "' '" << mat.material << "'";
  }
  for (const Submesh& sub : m.submeshes) {
    s << " submesh " << sub.first_index << '+' << sub.index_count << " m" << sub.material << " ml"
      << sub.first_meshlet << '+' << sub.meshlet_count;
    describe(s, sub.bounds);
  }
  for (const MeshLod& lod : m.lods) {
    s << " lod " << lod.error;
    for (const IndexRange& r : lod.submeshes) s << ' ' << r.first_index << '+' << r.index_count;
  }
  s << " chunks";
  for (const Chunk& c : m.chunks) s << " [" << c.raw_offset << ',' << c.packed_size << ']';
  return s.str();
}

std::string describe(const MaterialInfo& m) {
  std::ostringstream s;
  s << "'" << m.name << "' " << m.base_color_factor[0] << ',' << m.base_color_factor[1] << ','
    << m.base_color_factor[2] << ',' << m.base_color_factor[3] << ' ' << m.metallic_factor << ' '
    << m.roughness_factor << ' ' << m.emissive_factor[0] << ',' << m.emissive_factor[1] << ','
    << m.emissive_factor[2] << ' ' << m.emissive_strength << ' ' << m.normal_scale << ' '
    << m.occlusion_strength << ' ' << int(m.alpha_mode) << ' ' << m.alpha_cutoff << ' '
    << m.double_sided << m.unlit << " '" << m.original_file << "' legacy " << m.legacy;
  for (const TextureSlot* t :
       {&m.base_color, &m.metallic_roughness, &m.normal, &m.occlusion, &m.emissive}) {
    s << " slot '" << t->texture << "' " << t->uv_set << ' ' << t->offset[0] << ',' << t->offset[1]
      << ' ' << t->rotation << ' ' << t->scale[0] << ',' << t->scale[1] << ' ' << int(t->wrap_u)
      << int(t->wrap_v) << t->nearest;
  }
  return s.str();
}

// A grid mesh with `materials` materials (names longer than a short string holds), one submesh
// each, and one coarser LOD.
AssetFile mesh_with_materials(uint32_t materials, uint32_t grid = 4) {
  test::GridMesh g = test::grid_mesh(grid);
  MeshInfo info = test::grid_info(g);
  uint32_t triangles = info.index_count / 3;
  REQUIRE(materials <= triangles);
  for (uint32_t i = 0; i < materials; ++i) {
    MeshMaterial m;
    m.name = "a material name of some length " + std::to_string(i);
    m.base_color_texture = "textures/some/folder/base_color_" + std::to_string(i) + ".png";
    m.normal_texture = "textures/some/folder/normal_" + std::to_string(i) + ".png";
    m.material = "models/grid.obj#material/" + std::to_string(i);
    m.base_color[0] = 0.25f * float(i % 4);
    info.materials.push_back(m);
    uint32_t first = triangles * i / materials, last = triangles * (i + 1) / materials;
    info.submeshes.push_back({first * 3, (last - first) * 3, i, {}, 0, 0});
  }
  // One LOD: each submesh drawn as its first triangle again, after LOD 0.
  std::vector<uint32_t> indices = g.indices;
  MeshLod lod;
  lod.error = 0.125f;
  for (const Submesh& sub : info.submeshes) {
    lod.submeshes.push_back({uint32_t(indices.size()), 3});
    indices.insert(indices.end(), g.indices.begin() + sub.first_index,
                   g.indices.begin() + sub.first_index + 3);
  }
  info.lod_index_count = uint32_t(indices.size()) - info.index_count;
  info.lods.push_back(lod);
  info.stats = {1.5f, 1.25f, 2.0f, 1.0f};
  AssetFile file;
  REQUIRE(pack_mesh(info, g.vertices.data(), g.vertices.size() * sizeof(g.vertices[0]),
                    indices.data(), indices.size() * 4, file)
              .ok());
  return file;
}

// vkguide's mesh: one triangle of PNCV_F32 vertices, uncompressed.
AssetFile legacy_mesh() {
  AssetFile file;
  std::memcpy(file.type, "MESH", 4);
  file.json = R"({"vertex_format":"PNCV_F32","vertex_buffer_size":132,"index_buffer_size":12,)"
              R"("index_size":4,"original_file":"legacy.obj","compression":"None",)"
              R"("bounds":[0,0,0,1,1,1,1]})";
  file.blob.resize(132 + 12, std::byte{0});
  uint32_t indices[3] = {0, 1, 2};
  std::memcpy(file.blob.data() + 132, indices, sizeof indices);
  return file;
}

// vkguide's texture: 2 x 2 RGBA8, uncompressed.
AssetFile legacy_texture() {
  AssetFile file;
  std::memcpy(file.type, "TEXI", 4);
  file.json = R"({"format":"RGBA8","width":2,"height":2,"buffer_size":16,)"
              R"("original_file":"legacy.png","compression":"None"})";
  file.blob.resize(16, std::byte{7});
  return file;
}

AssetFile material_file(const std::string& texture, AlphaMode mode) {
  MaterialInfo m;
  m.name = "a material with a name longer than fifteen characters";
  m.base_color.texture = texture;
  m.normal.texture = texture + "#normal";
  m.normal.wrap_u = TextureWrap::ClampToEdge;
  m.emissive.nearest = true;
  m.alpha_mode = mode;
  m.roughness_factor = 0.5f;
  m.original_file = "scenes/a rather long source path/scene.gltf";
  AssetFile file;
  REQUIRE(pack_material(m, file).ok());
  return file;
}

AssetFile legacy_material() {
  AssetFile file;
  std::memcpy(file.type, "MATX", 4);
  file.json = R"({"baseEffect":"defaultPBR","textures":{"baseColor":"textures/legacy.png"},)"
              R"("customProperties":{},"transparency":"masked"})";
  return file;
}

// Reads `file` into a fresh info: what every read of it must give.
template <typename Info, typename Read>
std::string fresh(const AssetFile& file, Read read) {
  Info info;
  REQUIRE(read(file, info).ok());  // `read` is the caller's lambda
  return describe(info);
}

Status read_info(const AssetFile& f, TextureInfo& i) { return read_texture_info(f, i); }
Status read_info(const AssetFile& f, MeshInfo& i) { return read_mesh_info(f, i); }
Status read_info(const AssetFile& f, MaterialInfo& i) { return read_material_info(f, i); }

// After two warm-up reads into `info`, `rounds` reads of `files` in turn (into the same info)
// allocate nothing, and each gives what a fresh read gives.
template <typename Info>
void check_warm(const std::vector<AssetFile>& files, int rounds = 50) {
  std::vector<std::string> expected;
  for (const AssetFile& f : files) {
    expected.push_back(fresh<Info>(f, [](const AssetFile& x, Info& i) { return read_info(x, i); }));
  }
  Info info;
  for (int warm = 0; warm < 2; ++warm) {
    for (const AssetFile& f : files) REQUIRE(read_info(f, info).ok());
  }
  bool all_ok = true;
  size_t allocations = allocations_during([&] {
    for (int r = 0; r < rounds; ++r) {
      for (const AssetFile& f : files) all_ok = read_info(f, info).ok() && all_ok;
    }
  });
  CHECK(all_ok);
  CHECK(allocations == 0);
  for (size_t i = 0; i < files.size(); ++i) {
    REQUIRE(read_info(files[i], info).ok());
    CHECK(describe(info) == expected[i]);
  }
}

}  // namespace

TEST_CASE("warm reads: the allocation counter sees allocations") {
  REQUIRE(g_hooks_installed);
  size_t n = allocations_during([] {
    std::string* s = new std::string(100, 'x');
    delete s;
  });
  CHECK(n >= 1);
}

TEST_CASE("warm reads: the same texture, mesh or material again allocates nothing") {
  REQUIRE(g_hooks_installed);
  PackOptions small_chunks;
  small_chunks.chunk_size = 1024;  // 171 chunks: a 5 KB header, past the parser's first capacity
  check_warm<TextureInfo>({test::packed_texture(64, 32, 7)});
  check_warm<TextureInfo>({test::packed_texture(256, 128, 9, small_chunks)});
  check_warm<MeshInfo>({mesh_with_materials(3)});
  check_warm<MaterialInfo>({material_file("textures/some/folder/bricks.png", AlphaMode::Mask)});
}

TEST_CASE("warm reads: two assets of different shapes in turn into one info allocate nothing") {
  REQUIRE(g_hooks_installed);
  check_warm<TextureInfo>({test::packed_texture(64, 32, 7), test::packed_texture(8, 8, 1)});
  check_warm<MeshInfo>({mesh_with_materials(3), mesh_with_materials(1, 2)});
  check_warm<MaterialInfo>(
      {material_file("textures/a.png", AlphaMode::Opaque),
       material_file("textures/a/much/longer/texture/name.png", AlphaMode::Blend)});
}

TEST_CASE("warm reads: an info that held another asset reads as a fresh one") {
  // Every field is reset or read: nothing of the asset an info (or the thread's scratch) held
  // before shows, in any order, legacy files included.
  auto check_sequence = [](const std::vector<AssetFile>& files, auto info) {
    for (const AssetFile& f : files) {
      REQUIRE(read_info(f, info).ok());
      CHECK(describe(info) ==
            fresh<decltype(info)>(f, [](const AssetFile& x, auto& i) { return read_info(x, i); }));
    }
  };
  std::vector<AssetFile> meshes = {mesh_with_materials(3), legacy_mesh(),
                                   mesh_with_materials(2), mesh_with_materials(1, 2),
                                   legacy_mesh(),          mesh_with_materials(3)};
  check_sequence(meshes, MeshInfo{});
  std::vector<AssetFile> textures = {test::packed_texture(64, 32, 7), legacy_texture(),
                                     test::packed_texture(8, 8, 1), legacy_texture(),
                                     test::packed_texture(64, 32, 7)};
  check_sequence(textures, TextureInfo{});
  std::vector<AssetFile> materials = {material_file("textures/a/b/c/d.png", AlphaMode::Mask),
                                      legacy_material(), material_file("", AlphaMode::Blend),
                                      legacy_material()};
  check_sequence(materials, MaterialInfo{});
}

TEST_CASE("warm reads: a failed read leaves the info as it was") {
  AssetFile good = mesh_with_materials(2);
  AssetFile bad = mesh_with_materials(3);
  bad.json.replace(bad.json.rfind("\"vertex_count\""), 14, "\"vertex_kount\"");  // top level
  MeshInfo info;
  REQUIRE(read_mesh_info(good, info).ok());
  std::string before = describe(info);
  for (int i = 0; i < 3; ++i) {  // cold and warm scratch alike
    Status s = read_mesh_info(bad, info);
    CHECK(s.code == ErrorCode::MissingKey);
    CHECK(s.message == "MESH metadata: missing key 'vertex_count'");
    CHECK(describe(info) == before);
  }
  AssetFile bad_texture = test::packed_texture(16, 16, 5);
  bad_texture.json.replace(bad_texture.json.rfind("\"width\":16"), 10, "\"width\":1.0");
  TextureInfo texture;
  REQUIRE(read_texture_info(test::packed_texture(64, 32, 7), texture).ok());
  before = describe(texture);
  Status s = read_texture_info(bad_texture, texture);
  CHECK(s.code == ErrorCode::WrongKeyType);
  CHECK(s.message == "TEXI metadata: key 'width' must be an unsigned integer, not number");
  CHECK(describe(texture) == before);
}

TEST_CASE("warm reads: a header over the reused parser size reads, and small reads stay warm") {
  REQUIRE(g_hooks_installed);
  // 400 materials: about 100 KB of JSON, parsed on a parser of its own (64 KiB and up).
  AssetFile large = mesh_with_materials(400, 20);
  REQUIRE(large.json.size() > (size_t(64) << 10));
  AssetFile small = mesh_with_materials(2);
  MeshInfo info;
  REQUIRE(read_mesh_info(large, info).ok());
  CHECK(info.materials.size() == 400);
  // The large info goes to the thread's scratch on the next read and is dropped there; then the
  // small one warms up again.
  for (int i = 0; i < 3; ++i) REQUIRE(read_mesh_info(small, info).ok());
  bool all_ok = true;
  size_t allocations = allocations_during([&] {
    for (int i = 0; i < 20; ++i) all_ok = read_mesh_info(small, info).ok() && all_ok;
  });
  CHECK(all_ok);
  CHECK(allocations == 0);
  MeshInfo again;
  REQUIRE(read_mesh_info(large, again).ok());
  CHECK(describe(again) ==
        fresh<MeshInfo>(large, [](const AssetFile& x, MeshInfo& i) { return read_info(x, i); }));
}

TEST_CASE("warm reads: JSON as nlohmann read it (NUL end, byte order mark, a key given twice)") {
  AssetFile good = test::packed_texture(16, 16, 5);
  std::string expected = describe([&] {
    TextureInfo t;
    REQUIRE(read_texture_info(good, t).ok());
    return t;
  }());
  TextureInfo info;
  // The text ends at its first NUL byte: metadata padded with zeros instead of spaces.
  AssetFile zeros = good;
  zeros.json += std::string(40, '\0') + "garbage";
  REQUIRE(read_texture_info(zeros, info).ok());
  CHECK(describe(info) == expected);
  // A UTF-8 byte order mark before the object.
  AssetFile bom = good;
  bom.json = "\xEF\xBB\xBF" + bom.json;
  REQUIRE(read_texture_info(bom, info).ok());
  CHECK(describe(info) == expected);
  // A key given twice: the first is read (docs/format.md).
  AssetFile twice = good;
  twice.json = "{\"original_file\":\"first\"," + twice.json.substr(1);
  REQUIRE(read_texture_info(twice, info).ok());
  CHECK(info.original_file == "first");
  // Integers beyond 64 bits are not JSON simdjson reads (nlohmann read them as doubles).
  AssetFile huge = good;
  huge.json = "{\"huge\":123456789012345678901234567890," + huge.json.substr(1);
  CHECK(read_texture_info(huge, info).code == ErrorCode::InvalidJson);
  CHECK(describe(info) == describe([&] {
          TextureInfo t;
          REQUIRE(read_texture_info(twice, t).ok());
          return t;
        }()));
}

namespace {

// `meta` as JSON text with the members of every object in reverse order, after an unknown member
// and each followed by the same key again with a value of the wrong type. Readers find the keys
// they want in one pass, trying the order writers use first: one written in any other order, with
// members they do not know and a key given twice, must read the same (the first of each key).
std::string scrambled(const nlohmann::json& meta) {
  std::string out;
  if (meta.is_array()) {
    out += '[';
    for (size_t i = 0; i < meta.size(); ++i) {
      if (i > 0) out += ',';
      out += scrambled(meta[i]);
    }
    out += ']';
    return out;
  }
  if (!meta.is_object()) return meta.dump();
  std::vector<std::string> keys;
  for (auto it = meta.begin(); it != meta.end(); ++it) keys.push_back(it.key());
  out += R"({"not a key of ours":[1,{"width":2}])";
  for (auto key = keys.rbegin(); key != keys.rend(); ++key) {
    out += ',';
    out += nlohmann::json(*key).dump();
    out += ':';
    out += scrambled(meta[*key]);
  }
  for (const std::string& key : keys) {
    out += ',';
    out += nlohmann::json(key).dump();
    out += ":null";
  }
  out += '}';
  return out;
}

template <typename Info>
void check_scrambled_reads_the_same(const AssetFile& file) {
  AssetFile changed = file;
  changed.json = scrambled(nlohmann::json::parse(file.json));
  CAPTURE(changed.json);
  auto read = [](const AssetFile& x, Info& i) { return read_info(x, i); };
  CHECK(fresh<Info>(changed, read) == fresh<Info>(file, read));
}

}  // namespace

TEST_CASE("metadata reads: keys in any order, unknown keys and a key given twice read as written") {
  check_scrambled_reads_the_same<TextureInfo>(test::packed_texture(64, 32, 7));
  check_scrambled_reads_the_same<MeshInfo>(mesh_with_materials(3));
  check_scrambled_reads_the_same<MaterialInfo>(material_file("t.tx", AlphaMode::Mask));
  // The level list of older textures too, and a key missing from one of its objects is still named.
  AssetFile listed = test::with_mip_list(test::packed_texture(64, 32, 7));
  check_scrambled_reads_the_same<TextureInfo>(listed);
  nlohmann::json meta = nlohmann::json::parse(listed.json);
  meta["mips"][2].erase("size");
  AssetFile missing = listed;
  missing.json = scrambled(meta);
  TextureInfo info;
  Status s = read_texture_info(missing, info);
  CHECK(s.code == ErrorCode::MissingKey);
  CHECK(s.message == "TEXI metadata: missing key 'size'");
}
