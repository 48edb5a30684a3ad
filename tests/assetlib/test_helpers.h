// Shared fixtures for the assetlib unit tests: deterministic pixel and mesh data, temp folders.
#pragma once

#include <assetlib/assetlib.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace test {

// A fresh, empty folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("assetlib-test-" + tag + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Smooth, compressible pixels (gradients), deterministic for a given seed.
inline std::vector<uint8_t> gradient_pixels(size_t size, uint32_t seed = 1) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = uint8_t((i / 4 + seed * (i % 4)) / 7);
  return bytes;
}

// Incompressible bytes, deterministic for a given seed.
inline std::vector<uint8_t> noise_bytes(size_t size, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(size);
  for (auto& b : bytes) b = uint8_t(rng());
  return bytes;
}

inline std::vector<std::byte> read_bytes(const std::string& path) {
  std::vector<std::byte> bytes(std::filesystem::file_size(path));
  FILE* f = std::fopen(path.c_str(), "rb");
  size_t got = std::fread(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  bytes.resize(got);
  return bytes;
}

inline void write_bytes(const std::string& path, const void* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (size > 0) std::fwrite(data, 1, size, f);
  std::fclose(f);
}

// A packed RGBA8 texture with a full mip chain of gradient pixels.
inline assetlib::AssetFile packed_texture(uint32_t w, uint32_t h, uint32_t mips,
                                          const assetlib::PackOptions& options = {}) {
  assetlib::TextureInfo info =
      assetlib::make_texture_info(assetlib::TextureFormat::RGBA8_SRGB, w, h, mips);
  info.original_file = "textures/test.png";
  std::vector<uint8_t> pixels = gradient_pixels(info.total_size);
  assetlib::AssetFile file;
  assetlib::pack_texture(info, pixels.data(), pixels.size(), file, options);
  return file;
}

// A grid of `n` x `n` quads in the PNCV_F32 format with 32-bit indices.
struct GridMesh {
  std::vector<assetlib::Vertex_PNCV_F32> vertices;
  std::vector<uint32_t> indices;
};

inline GridMesh grid_mesh(uint32_t n) {
  GridMesh m;
  for (uint32_t y = 0; y <= n; ++y) {
    for (uint32_t x = 0; x <= n; ++x) {
      float fx = float(x) / float(n), fy = float(y) / float(n);
      m.vertices.push_back({{fx * 2 - 1, 0.5f, fy * 2 - 1}, {0, 1, 0}, {fx, fy, 1}, {fx, fy}});
    }
  }
  for (uint32_t y = 0; y < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      uint32_t i = y * (n + 1) + x;
      m.indices.insert(m.indices.end(), {i, i + n + 1, i + 1, i + 1, i + n + 1, i + n + 2});
    }
  }
  return m;
}

inline assetlib::MeshInfo grid_info(const GridMesh& m) {
  assetlib::MeshInfo info;
  info.vertex_format = assetlib::VertexFormat::PNCV_F32;
  info.vertex_count = uint32_t(m.vertices.size());
  info.index_count = uint32_t(m.indices.size());
  info.index_size = 4;
  info.original_file = "models/grid.obj";
  return info;
}

}  // namespace test
