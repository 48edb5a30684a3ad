// Running out of memory inside any entry point of the library gives ErrorCode::OutOfMemory, never
// an exception. This test program replaces the global operator new so that a test can make every
// allocation of at least N bytes, on this thread, throw std::bad_alloc. Not under AddressSanitizer
// or ThreadSanitizer, which own operator new (the test is then skipped with a warning).
#include "test_helpers.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <thread>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ASSETLIB_TEST_OWN_NEW 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define ASSETLIB_TEST_OWN_NEW 0
#endif
#endif
#ifndef ASSETLIB_TEST_OWN_NEW
#define ASSETLIB_TEST_OWN_NEW 1
#endif

namespace {

thread_local size_t g_fail_from = SIZE_MAX;

// While alive, allocations of at least `bytes` on this thread throw std::bad_alloc.
class FailAllocations {
 public:
  explicit FailAllocations(size_t bytes) { g_fail_from = bytes; }
  ~FailAllocations() { g_fail_from = SIZE_MAX; }
  FailAllocations(const FailAllocations&) = delete;
  FailAllocations& operator=(const FailAllocations&) = delete;
};

}  // namespace

#if ASSETLIB_TEST_OWN_NEW
// malloc and free underneath, both replaced. Not inlined: GCC would otherwise see free() on the
// result of operator new and warn.
[[gnu::noinline]] void* operator new(std::size_t size) {
  if (size >= g_fail_from) throw std::bad_alloc();
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

using namespace assetlib;

namespace {

// Runs `call` with allocations from `bytes` up failing; the Status is checked outside, where the
// test framework may allocate again.
template <typename Call>
Status starved(size_t bytes, Call&& call) {
  FailAllocations fail(bytes);
  return call();
}

bool out_of_memory(const Status& s, const std::string& name) {
  // The message names what ran out; when even that message could not be allocated it is empty.
  return s.code == ErrorCode::OutOfMemory &&
         (s.message.empty() || (s.message.find(name) != std::string::npos &&
                                s.message.find("out of memory") != std::string::npos));
}

}  // namespace

TEST_CASE(
    "assetlib out of memory: every entry point that allocates returns OutOfMemory instead of "
    "throwing") {
  if (!ASSETLIB_TEST_OWN_NEW) {
    WARN("skipped: this build's sanitizer owns operator new");
    return;
  }
  test::TempDir dir("oom");
  // A texture whose blob is over 1 MiB (noise does not compress).
  TextureInfo layout = make_texture_info(TextureFormat::RGBA8_SRGB, 1024, 512, 1);
  std::vector<uint8_t> pixels = test::noise_bytes(layout.total_size);
  AssetFile texture;
  REQUIRE(pack_texture(layout, pixels.data(), pixels.size(), texture).ok());
  REQUIRE(texture.blob.size() > (1u << 20));
  std::string path = dir.file("t.tx");
  REQUIRE(save_binaryfile(path, texture).ok());
  test::GridMesh grid = test::grid_mesh(8);
  MeshInfo mesh_info = test::grid_info(grid);
  AssetFile mesh;
  REQUIRE(pack_mesh(mesh_info, grid.vertices.data(), grid.vertices.size() * 44, grid.indices.data(),
                    grid.indices.size() * 4, mesh)
              .ok());
  Manifest manifest;
  manifest.assets.push_back({"textures/t.png", "TEXI", "t.tx", "xxh3-64:0123456789abcdef", 1, 2});
  std::string manifest_text = write_manifest(manifest);
  std::string manifest_path = dir.file("manifest.json");
  test::write_bytes(manifest_path, manifest_text.data(), manifest_text.size());

  // The large allocation fails, the message is built: it names the file.
  AssetFile loaded;
  Status s = starved(1u << 20, [&] { return load_binaryfile(path, loaded); });
  CHECK(out_of_memory(s, path));
  CHECK(s.message.rfind(path + ": ", 0) == 0);
  AssetFile packed;
  s = starved(1u << 20, [&] { return pack_texture(layout, pixels.data(), pixels.size(), packed); });
  CHECK(out_of_memory(s, "pack_texture"));

  // Every allocation fails, the error message included.
  TextureInfo info;
  MeshInfo mesh_read;
  CHECK(
      out_of_memory(starved(1, [&] { return read_texture_info(texture, info); }), "TEXI metadata"));
  // On a thread of its own: this thread's parser and scratch info may be warm from earlier tests
  // (a warm read allocates nothing, and then succeeds).
  Status cold_read;
  std::thread([&] {
    cold_read = starved(1, [&] { return read_mesh_info(mesh, mesh_read); });
  }).join();
  CHECK(out_of_memory(cold_read, "MESH metadata"));
  CHECK(out_of_memory(starved(1, [&] { return load_binaryfile(path, loaded); }), path));
  std::string unsaved = dir.file("u.tx"),
              unwritten = dir.file("w.bin");  // built while memory is there
  CHECK(out_of_memory(starved(1, [&] { return save_binaryfile(unsaved, texture); }), "u.tx"));
  CHECK(out_of_memory(starved(1,
                              [&] {
                                return pack_mesh(mesh_info, grid.vertices.data(),
                                                 grid.vertices.size() * 44, grid.indices.data(),
                                                 grid.indices.size() * 4, packed);
                              }),
                      "pack_mesh"));
  Manifest read;
  CHECK(out_of_memory(starved(1, [&] { return read_manifest(manifest_text, read, "m.json"); }),
                      "m.json"));
  CHECK(
      out_of_memory(starved(1, [&] { return load_manifest(manifest_path, read); }), manifest_path));
  const std::span<const std::byte> parts[] = {texture.blob};
  CHECK(
      out_of_memory(starved(1, [&] { return write_file_atomically(unwritten, parts); }), "w.bin"));
  // Functions that allocate only their error messages: a broken input while nothing can be
  // allocated.
  std::vector<std::byte> short_file(8);
  AssetView view;
  CHECK(out_of_memory(starved(1, [&] { return parse_binaryfile(short_file, view, "short.tx"); }),
                      "short.tx"));
  REQUIRE(read_texture_info(texture, info).ok());
  std::vector<std::byte> small(16);
  CHECK(out_of_memory(starved(1,
                              [&] {
                                return unpack_texture(info, texture.blob.data(),
                                                      texture.blob.size(), small.data(),
                                                      small.size());
                              }),
                      "unpack_texture"));
  CHECK(out_of_memory(starved(1,
                              [&] {
                                return unpack_chunk(info.compression, info.chunks[0],
                                                    texture.blob.data(), texture.blob.size(),
                                                    small.data(), small.size());
                              }),
                      "unpack_chunk"));
  REQUIRE(read_mesh_info(mesh, mesh_read).ok());
  CHECK(out_of_memory(starved(1,
                              [&] {
                                return unpack_mesh(mesh_read, mesh.blob.data(), mesh.blob.size(),
                                                   small.data(), small.size(), small.data(),
                                                   small.size());
                              }),
                      "unpack_mesh"));

  // Nothing was left half done: with memory back, the same calls succeed.
  CHECK(load_binaryfile(path, loaded).ok());
  CHECK(read_texture_info(loaded, info).ok());
  CHECK(load_manifest(manifest_path, read).ok());
  CHECK(!std::filesystem::exists(unsaved));
  CHECK(!std::filesystem::exists(unwritten));
}

TEST_CASE(
    "pack reading allocates nothing: open_pack, find_pack_entry and read_pack_asset run with "
    "every allocation failing") {
  if (!ASSETLIB_TEST_OWN_NEW) {
    WARN("skipped: this build's sanitizer owns operator new");
    return;
  }
  AssetFile texture = test::packed_texture(16, 16, 5);
  std::vector<std::byte> file = serialize_binaryfile(texture);
  PackInput in;
  in.name = "a rather long logical name, past any small-string buffer.png";
  std::memcpy(in.type, "TEXI", 4);
  in.size = file.size();
  PackLayout layout;
  REQUIRE(layout_pack({&in, 1}, layout).ok());
  std::vector<std::byte> pack = layout.index;
  pack.resize(layout.offsets[0]);
  pack.insert(pack.end(), file.begin(), file.end());
  const std::string source = "a pack file name longer than any small-string buffer.pack";

  PackView view;
  std::optional<PackEntry> entry;
  AssetView asset;
  bool opened = false, read = false;
  {
    FailAllocations fail(1);  // the test framework is not called in here: it may allocate
    opened = open_pack(pack, view, source).ok();
    entry = find_pack_entry(view, in.name);
    read = entry && read_pack_asset(view, *entry, asset, source).ok();
  }
  CHECK(opened);
  CHECK(read);
  CHECK(asset.blob.size() == texture.blob.size());
  // A refusal needs its message: out of memory, it is OutOfMemory (never an exception).
  pack[0] = std::byte{'X'};
  CHECK(out_of_memory(starved(1, [&] { return open_pack(pack, view, source); }), source));
}
