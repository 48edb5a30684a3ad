#include "mesh_load_bench.h"

#include "load_comparison.h"

#include <assetlib/mesh_asset.h>

#include <tiny_obj_loader.h>

#include <functional>
#include <unordered_map>

namespace bench {
namespace {

struct CornerKey {
  int position, normal, uv;
  bool operator==(const CornerKey&) const = default;
};

struct CornerHash {
  size_t operator()(const CornerKey& k) const {
    uint64_t h = uint64_t(uint32_t(k.position)) * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t(uint32_t(k.normal)) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2));
    h ^= (uint64_t(uint32_t(k.uv)) + 0x8CB92BA72F3D8DD7ull + (h << 6) + (h >> 2));
    return size_t(h);
  }
};

float at(const std::vector<tinyobj::real_t>& v, size_t i) { return float(v[i]); }

assetlib::Vertex_PNCV_F32 make_vertex(const tinyobj::attrib_t& a, const tinyobj::index_t& idx) {
  assetlib::Vertex_PNCV_F32 v{};
  size_t p = size_t(idx.vertex_index);
  for (size_t k = 0; k < 3; ++k) {
    v.position[k] = at(a.vertices, 3 * p + k);
    v.color[k] = a.colors.size() == a.vertices.size() ? at(a.colors, 3 * p + k) : 1.0f;
  }
  if (idx.normal_index >= 0 && 3 * size_t(idx.normal_index) + 2 < a.normals.size()) {
    for (size_t k = 0; k < 3; ++k) v.normal[k] = at(a.normals, 3 * size_t(idx.normal_index) + k);
  }
  if (idx.texcoord_index >= 0 && 2 * size_t(idx.texcoord_index) + 1 < a.texcoords.size()) {
    v.uv[0] = at(a.texcoords, 2 * size_t(idx.texcoord_index));
    v.uv[1] = 1.0f - at(a.texcoords, 2 * size_t(idx.texcoord_index) + 1);
  }
  return v;
}

volatile size_t g_sink = 0;  // keeps the built arrays observable

// What an engine without assetlib does on every launch: parse the OBJ and index its corners.
// Deliberately lean: no normal generation for files without normals, no grouping by material,
// no vertex-cache optimisation (the baker does all three offline).
bool obj_to_arrays(const std::string& path, const std::string& folder) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), folder.c_str(), true)) return false;
  std::vector<assetlib::Vertex_PNCV_F32> vertices;
  std::vector<uint32_t> indices;
  std::unordered_map<CornerKey, uint32_t, CornerHash> seen;
  seen.reserve(attrib.vertices.size() / 3);
  const size_t positions = attrib.vertices.size() / 3;
  for (const tinyobj::shape_t& shape : shapes) {
    for (const tinyobj::index_t& idx : shape.mesh.indices) {
      if (idx.vertex_index < 0 || size_t(idx.vertex_index) >= positions) return false;
      auto [it, inserted] = seen.try_emplace(CornerKey{idx.vertex_index, idx.normal_index, idx.texcoord_index},
                                             uint32_t(vertices.size()));
      if (inserted) vertices.push_back(make_vertex(attrib, idx));
      indices.push_back(it->second);
    }
  }
  g_sink = g_sink + vertices.size() + indices.size();
  return !indices.empty();
}

}  // namespace

void bench_mesh_loads(const BakedTree& tree, const TimingPolicy& policy, std::vector<LoadComparison>& out,
                      std::vector<std::string>& notes) {
  compare_loads(
      tree, "MESH", "tinyobjloader",
      [](const BakedAsset& a) -> SourceDecoder {
        return [source = a.source.string(), folder = a.source.parent_path().string() + "/"] {
          return obj_to_arrays(source, folder);
        };
      },
      policy, out, notes);
}

}  // namespace bench
