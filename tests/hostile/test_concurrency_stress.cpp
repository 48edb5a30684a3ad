// Many threads on shared inputs through the whole loader API at once, as an engine's streaming
// threads use it: one file loaded by every thread, one buffer parsed by every thread, one
// TextureInfo / MeshInfo shared by all unpackers, the chunks of one file unpacked by different
// threads into one shared destination, one manifest read and searched by all, error paths included.
// Every result must equal the single-threaded one. Built on its own (hostile-concurrency) so that a
// ThreadSanitizer build of the tests can build and run just this; it must run there without a
// report.
#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <barrier>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace assetlib;

namespace {

constexpr int kRounds = 40;

unsigned thread_count() { return std::max(8u, 2 * std::thread::hardware_concurrency()); }

std::vector<uint8_t> texture_pixels(uint64_t size) {
  std::mt19937 rng(7);
  std::vector<uint8_t> p(size);
  for (size_t i = 0; i < p.size(); ++i)
    p[i] = (i / 4096) % 3 == 2 ? uint8_t(rng()) : uint8_t((i / 4) % 251);
  return p;
}

struct Grid {
  std::vector<Vertex_PNCV_F32> vertices;
  std::vector<uint32_t> indices;
};

Grid grid(uint32_t n) {
  Grid g;
  for (uint32_t y = 0; y <= n; ++y) {
    for (uint32_t x = 0; x <= n; ++x) {
      float fx = float(x) / float(n), fy = float(y) / float(n);
      g.vertices.push_back({{fx, 0, fy}, {0, 1, 0}, {fx, fy, 1}, {fx, fy}});
    }
  }
  for (uint32_t y = 0; y < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      uint32_t i = y * (n + 1) + x;
      g.indices.insert(g.indices.end(), {i, i + n + 1, i + 1, i + 1, i + n + 1, i + n + 2});
    }
  }
  return g;
}

class Failures {
 public:
  void add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (messages_.size() < 20) messages_.push_back(what);
    ++count_;
  }
  int count() const { return count_; }
  std::string first() const { return messages_.empty() ? std::string() : messages_.front(); }

 private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
  std::atomic<int> count_{0};
};

}  // namespace

TEST_CASE("many threads load, parse, read and unpack shared inputs at once, with no data race") {
  // Shared inputs, made once.
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("assetlib-hostile-concurrency-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  TextureInfo tex_layout = make_texture_info(TextureFormat::RGBA8_UNORM, 256, 128, 9);
  tex_layout.original_file = "textures/shared.png";
  std::vector<uint8_t> pixels = texture_pixels(tex_layout.total_size);
  PackOptions options;
  options.chunk_size = 4096;
  AssetFile texture;
  REQUIRE(pack_texture(tex_layout, pixels.data(), pixels.size(), texture, options).ok());
  Grid g = grid(40);
  MeshInfo mesh_layout;
  mesh_layout.vertex_format = VertexFormat::PNCV_F32;
  mesh_layout.vertex_count = uint32_t(g.vertices.size());
  mesh_layout.index_count = uint32_t(g.indices.size());
  mesh_layout.index_size = 4;
  mesh_layout.original_file = "models/grid.obj";
  AssetFile mesh;
  REQUIRE(pack_mesh(mesh_layout, g.vertices.data(), g.vertices.size() * sizeof(Vertex_PNCV_F32),
                    g.indices.data(), g.indices.size() * 4, mesh, options)
              .ok());
  const std::string tex_path = (dir / "shared.tx").string(),
                    mesh_path = (dir / "grid.mesh").string();
  REQUIRE(save_binaryfile(tex_path, texture).ok());
  REQUIRE(save_binaryfile(mesh_path, mesh).ok());
  const std::vector<std::byte> tex_bytes =
      serialize_binaryfile(texture);  // one buffer all threads parse
  std::vector<std::byte> broken = tex_bytes;
  broken[tex_bytes.size() - 7] = std::byte{0xee};  // still parses; a chunk may fail to decode
  Manifest manifest_in;
  for (int i = 0; i < 200; ++i) {
    manifest_in.assets.push_back({"textures/t" + std::to_string(i) + ".png", "TEXI",
                                  "textures/t" + std::to_string(i) + ".tx",
                                  "xxh3-64:0123456789abcdef", uint64_t(i), uint64_t(i) * 4});
  }
  const std::string manifest_text = write_manifest(manifest_in);
  const std::string manifest_path = (dir / "manifest.json").string();
  {
    std::FILE* f = std::fopen(manifest_path.c_str(), "wb");
    REQUIRE(f);
    std::fwrite(manifest_text.data(), 1, manifest_text.size(), f);
    std::fclose(f);
  }

  // Single-threaded references, and the infos every thread shares (read-only).
  AssetView shared_view;
  REQUIRE(parse_binaryfile(tex_bytes, shared_view).ok());
  TextureInfo shared_tex;
  REQUIRE(read_texture_info(shared_view, shared_tex).ok());
  REQUIRE(shared_tex.chunks.size() >= 8);
  MeshInfo shared_mesh;
  REQUIRE(read_mesh_info(mesh, shared_mesh).ok());
  Manifest shared_manifest;
  REQUIRE(read_manifest(manifest_text, shared_manifest).ok());

  const unsigned n = thread_count();
  Failures failures;
  std::vector<std::byte> shared_dst(
      shared_tex.total_size);  // written by all threads, disjoint chunks
  std::barrier sync{std::ptrdiff_t(n)};
  auto work = [&](unsigned t) {
    for (int round = 0; round < kRounds; ++round) {
      sync.arrive_and_wait();  // everyone starts each round together
      // 1. The same file loaded by every thread.
      AssetFile loaded;
      TextureInfo info;
      if (!load_binaryfile(tex_path, loaded).ok() || !read_texture_info(loaded, info).ok()) {
        failures.add("load/read texture");
      } else {
        std::vector<uint8_t> out(info.total_size);
        if (!unpack_texture(info, loaded.blob.data(), loaded.blob.size(), out.data(), out.size())
                 .ok() ||
            out != pixels) {
          failures.add("unpack loaded texture");
        }
      }
      // 2. One shared buffer parsed by every thread; one shared info used by every unpacker.
      AssetView view;
      TextureInfo own;
      if (!parse_binaryfile(tex_bytes, view, "shared").ok() || !read_texture_info(view, own).ok() ||
          own.total_size != shared_tex.total_size) {
        failures.add("parse shared buffer");
      }
      uint32_t level = t % uint32_t(shared_tex.mips.size());
      std::vector<uint8_t> tail(shared_tex.total_size - shared_tex.mips[level].offset);
      if (!unpack_texture_mips(shared_tex, level, shared_view.blob.data(), shared_view.blob.size(),
                               tail.data(), tail.size())
               .ok() ||
          std::memcmp(tail.data(), pixels.data() + shared_tex.mips[level].offset, tail.size()) !=
              0) {
        failures.add("unpack_texture_mips from a shared info");
      }
      // 3. The chunks of one file spread over the threads, into one shared destination.
      for (size_t c = t; c < shared_tex.chunks.size(); c += n) {
        const Chunk& chunk = shared_tex.chunks[c];
        if (!unpack_chunk(shared_tex.compression, chunk, shared_view.blob.data(),
                          shared_view.blob.size(), shared_dst.data() + chunk.raw_offset,
                          shared_dst.size() - chunk.raw_offset)
                 .ok()) {
          failures.add("unpack_chunk into the shared destination");
        }
      }
      // 4. Meshes: a shared info, and each thread's own read of the same file.
      MeshInfo mesh_info;
      AssetFile mesh_file;
      if (!load_binaryfile(mesh_path, mesh_file).ok() ||
          !read_mesh_info(mesh_file, mesh_info).ok()) {
        failures.add("load/read mesh");
      }
      std::vector<std::byte> vb(shared_mesh.vertex_buffer_size), ib(shared_mesh.index_buffer_size);
      if (!unpack_mesh(shared_mesh, mesh.blob.data(), mesh.blob.size(), vb.data(), vb.size(),
                       ib.data(), ib.size())
               .ok() ||
          std::memcmp(ib.data(), g.indices.data(), ib.size()) != 0) {
        failures.add("unpack_mesh from a shared info");
      }
      // 5. The manifest: parsed from one string, loaded from one file, searched in one shared
      // object.
      Manifest m;
      if (!read_manifest(manifest_text, m).ok() || m.assets.size() != 200)
        failures.add("read_manifest");
      Manifest from_file;
      if (!load_manifest(manifest_path, from_file).ok()) failures.add("load_manifest");
      for (int i = 0; i < 200; i += 7) {
        const ManifestEntry* e =
            find_asset(shared_manifest, "textures/t" + std::to_string((i + int(t)) % 200) + ".png");
        if (!e || e->type != "TEXI") failures.add("find_asset");
      }
      if (write_manifest(shared_manifest) != manifest_text) failures.add("write_manifest");
      // 6. Error paths at the same time: statuses and messages are per call.
      AssetView bad_view;
      TextureInfo bad;
      if (parse_binaryfile(std::span(tex_bytes.data(), 10), bad_view).code !=
          ErrorCode::TruncatedHeader) {
        failures.add("truncated header status");
      }
      if (read_mesh_info(shared_view, mesh_info).code != ErrorCode::UnknownType)
        failures.add("unknown type status");
      if (parse_binaryfile(broken, bad_view).ok() && read_texture_info(bad_view, bad).ok()) {
        std::vector<uint8_t> out(bad.total_size);
        Status s =
            unpack_texture(bad, bad_view.blob.data(), bad_view.blob.size(), out.data(), out.size());
        if (!s.ok() && s.message.empty()) failures.add("error message");
      }
      AssetFile missing;
      if (load_binaryfile((dir / "missing.tx").string(), missing).code != ErrorCode::FileNotFound) {
        failures.add("missing file status");
      }
      if (std::string(error_code_name(ErrorCode::CorruptBlob)) != "CorruptBlob" ||
          texture_format_vk(TextureFormat::BC5_UNORM) != 141 ||
          vertex_format_stride(VertexFormat::PNCV_F32) != 44) {
        failures.add("tables");
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < n; ++t) threads.emplace_back(work, t);
  for (std::thread& th : threads) th.join();

  INFO(failures.first());
  CHECK(failures.count() == 0);
  CHECK(std::memcmp(shared_dst.data(), pixels.data(), pixels.size()) == 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
