// The API is stateless: many threads packing and unpacking at once must agree with one thread.
#include "test_helpers.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <thread>

using namespace assetlib;

TEST_CASE("many threads pack, save, load and unpack at once with identical results") {
  test::TempDir dir("threads");
  const std::vector<std::byte> reference = serialize_binaryfile(test::packed_texture(96, 64, 7));
  test::GridMesh grid = test::grid_mesh(16);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        AssetFile tex = test::packed_texture(96, 64, 7);
        if (serialize_binaryfile(tex) != reference) ++failures;
        // All threads save to the same path: atomic replacement keeps every load whole.
        if (!save_binaryfile(dir.file("shared.tx"), tex).ok()) ++failures;
        AssetFile loaded;
        TextureInfo info;
        if (!load_binaryfile(dir.file("shared.tx"), loaded).ok() ||
            !read_texture_info(loaded, info).ok()) {
          ++failures;
          continue;
        }
        std::vector<uint8_t> pixels(info.total_size);
        if (!unpack_texture(info, loaded.blob.data(), loaded.blob.size(), pixels.data(),
                            pixels.size())
                 .ok() ||
            pixels != test::gradient_pixels(info.total_size)) {
          ++failures;
        }
        AssetFile mesh;
        MeshInfo mesh_info;
        std::vector<std::byte> vb(grid.vertices.size() * 44), ib(grid.indices.size() * 4);
        if (!pack_mesh(test::grid_info(grid), grid.vertices.data(), vb.size(), grid.indices.data(),
                       ib.size(), mesh)
                 .ok() ||
            !read_mesh_info(mesh, mesh_info).ok() ||
            !unpack_mesh(mesh_info, mesh.blob.data(), mesh.blob.size(), vb.data(), vb.size(),
                         ib.data(), ib.size())
                 .ok() ||
            std::memcmp(ib.data(), grid.indices.data(), ib.size()) != 0) {
          ++failures;
        }
        (void)t;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
}
