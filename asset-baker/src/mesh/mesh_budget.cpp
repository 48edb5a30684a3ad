#include "mesh/mesh_budget.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <utility>

namespace baker {
namespace {

// meshopt_buildMeshlets' k-d tree: leaves of up to 8 centres, and a split leaving at most 4 on a
// side turns its whole subtree into one leaf.
constexpr size_t kTreeLeafSize = 8;

const float* centre(const std::vector<float>& centres, uint32_t triangle) {
  return &centres[3 * size_t(triangle)];
}

// The size of the largest leaf of the tree meshopt_buildMeshlets builds over `order` (triangle
// numbers, permuted in place exactly as it permutes them). The statistics are computed in the same
// float operations in the same order, so the splits are the same. An explicit stack: a tree of
// lopsided splits may be deep.
size_t largest_leaf(const std::vector<float>& centres, std::vector<uint32_t>& order) {
  size_t largest = 0;
  std::vector<std::pair<size_t, size_t>> pending{{0, order.size()}};  // (first, count)
  while (!pending.empty()) {
    auto [first, count] = pending.back();
    pending.pop_back();
    uint32_t* ids = order.data() + first;
    if (count <= kTreeLeafSize) {
      largest = std::max(largest, count);
      continue;
    }
    // Welford's running mean and variance, per axis.
    float mean[3] = {}, vars[3] = {};
    float runc = 1, runs = 1;
    for (size_t i = 0; i < count; ++i, runc += 1.f, runs = 1.f / runc) {
      const float* point = centre(centres, ids[i]);
      for (int k = 0; k < 3; ++k) {
        float delta = point[k] - mean[k];
        mean[k] += delta * runs;
        vars[k] += delta * (point[k] - mean[k]);
      }
    }
    int axis = vars[0] >= vars[1] && vars[0] >= vars[2] ? 0 : vars[1] >= vars[2] ? 1 : 2;
    float split = mean[axis];
    // Partition: [0, middle) below the split; the same swaps, so the subtrees see the same order.
    size_t middle = 0;
    for (size_t i = 0; i < count; ++i) {
      float v = centre(centres, ids[i])[axis];
      std::swap(ids[middle], ids[i]);
      middle += v < split;
    }
    if (middle <= kTreeLeafSize / 2 || middle >= count - kTreeLeafSize / 2) {
      largest = std::max(largest, count);
      continue;
    }
    pending.push_back({first + middle, count - middle});
    pending.push_back({first, middle});
  }
  return largest;
}

}  // namespace

std::string MeshFallbacks::describe() const {
  std::string out;
  auto add = [&](bool taken, const char* what) {
    if (!taken) return;
    if (!out.empty()) out += ", ";
    out += what;
  };
  add(per_submesh,
      "LODs of each submesh simplified on its own vertices (submeshes x vertices over the budget)");
  add(fifo_cache, "vertex cache order by FIFO (a vertex in more than 1024 triangles)");
  add(sloppy_lods, "LODs by sloppy simplification (a vertex in more than 1024 triangles)");
  add(scan_meshlets,
      "meshlets in index order (a vertex in more than 1024 triangles, or clustered triangles)");
  return out;
}

bool needs_linear_fallback(const uint32_t* indices, size_t index_count, size_t vertex_count) {
  std::vector<uint32_t> triangles(vertex_count, 0);
  for (size_t i = 0; i < index_count; ++i) {
    if (++triangles[indices[i]] > kMaxOptimizedValence) return true;
  }
  return false;
}

bool meshlet_tree_degenerate(const uint32_t* indices, size_t index_count, const float* positions,
                             size_t stride) {
  size_t triangles = index_count / 3;
  if (triangles <= kMaxMeshletLeaf) return false;
  size_t floats = stride / sizeof(float);
  std::vector<float> centres(3 * triangles);
  for (size_t t = 0; t < triangles; ++t) {
    const float* p0 = positions + floats * indices[3 * t];
    const float* p1 = positions + floats * indices[3 * t + 1];
    const float* p2 = positions + floats * indices[3 * t + 2];
    for (int k = 0; k < 3; ++k) centres[3 * t + size_t(k)] = (p0[k] + p1[k] + p2[k]) / 3.f;
  }
  std::vector<uint32_t> order(triangles);
  for (size_t t = 0; t < triangles; ++t) order[t] = uint32_t(t);
  return largest_leaf(centres, order) > kMaxMeshletLeaf;
}

bool split_submesh_vertices(size_t submeshes, size_t vertex_count, size_t index_count) {
  return uint64_t(submeshes) * vertex_count >
         kSubmeshVertexFactor * (uint64_t(vertex_count) + index_count);
}

SubmeshVertices::SubmeshVertices(const std::vector<MeshVertex>& vertices)
    : vertices_(vertices), local_(vertices.size(), ~0u) {}

void SubmeshVertices::assign(const uint32_t* mesh_indices, size_t index_count) {
  for (uint32_t v : used_) local_[v] = ~0u;
  collect_used(mesh_indices, index_count);
  positions.resize(3 * used_.size());
  for (size_t k = 0; k < used_.size(); ++k) {
    local_[used_[k]] = uint32_t(k);
    std::copy(vertices_[used_[k]].position, vertices_[used_[k]].position + 3, &positions[3 * k]);
  }
  indices.resize(index_count);
  for (size_t i = 0; i < index_count; ++i) indices[i] = local_[mesh_indices[i]];
}

void SubmeshVertices::collect_used(const uint32_t* mesh_indices, size_t index_count) {
  used_.clear();
  if (index_count == 0) return;
  auto [low, high] = std::minmax_element(mesh_indices, mesh_indices + index_count);
  // A submesh's vertices mostly lie together (numbered in order of first use): marking them and
  // scanning their span is linear, where sorting cost 4 % of a 59-material glTF's whole bake.
  // Spread thin over the mesh, they are sorted.
  if (*high - *low <= kScanFactor * uint64_t(index_count)) {
    constexpr uint32_t kMarked = 0;
    for (size_t i = 0; i < index_count; ++i) local_[mesh_indices[i]] = kMarked;
    for (uint32_t v = *low;; ++v) {
      if (local_[v] == kMarked) used_.push_back(v);
      if (v == *high) break;
    }
    return;
  }
  used_.assign(mesh_indices, mesh_indices + index_count);
  std::sort(used_.begin(), used_.end());
  used_.erase(std::unique(used_.begin(), used_.end()), used_.end());
}

void SubmeshVertices::to_mesh(uint32_t* local, size_t count) const {
  for (size_t i = 0; i < count; ++i) local[i] = used_[local[i]];
}

void optimize_vertex_cache(uint32_t* destination, const uint32_t* indices, size_t index_count,
                           size_t vertex_count, MeshFallbacks& fallbacks) {
  if (needs_linear_fallback(indices, index_count, vertex_count)) {
    fallbacks.fifo_cache = true;
    meshopt_optimizeVertexCacheFifo(destination, indices, index_count, vertex_count, 16);
    return;
  }
  meshopt_optimizeVertexCache(destination, indices, index_count, vertex_count);
}

size_t simplify(uint32_t* destination, const uint32_t* indices, size_t index_count,
                const float* positions, size_t vertex_count, size_t stride,
                size_t target_index_count, float target_error, bool keep_borders,
                float* result_error, MeshFallbacks& fallbacks) {
  if (needs_linear_fallback(indices, index_count, vertex_count)) {
    fallbacks.sloppy_lods = true;
    return meshopt_simplifySloppy(destination, indices, index_count, positions, vertex_count,
                                  stride, target_index_count, target_error, result_error);
  }
  return meshopt_simplify(destination, indices, index_count, positions, vertex_count, stride,
                          target_index_count, target_error,
                          keep_borders ? meshopt_SimplifyLockBorder : 0, result_error);
}

size_t build_meshlets(meshopt_Meshlet* meshlets, uint32_t* meshlet_vertices,
                      uint8_t* meshlet_triangles, const uint32_t* indices, size_t index_count,
                      const float* positions, size_t vertex_count, size_t stride,
                      size_t max_vertices, size_t max_triangles, float cone_weight,
                      MeshFallbacks& fallbacks) {
  if (needs_linear_fallback(indices, index_count, vertex_count) ||
      meshlet_tree_degenerate(indices, index_count, positions, stride)) {
    fallbacks.scan_meshlets = true;
    return meshopt_buildMeshletsScan(meshlets, meshlet_vertices, meshlet_triangles, indices,
                                     index_count, vertex_count, max_vertices, max_triangles);
  }
  return meshopt_buildMeshlets(meshlets, meshlet_vertices, meshlet_triangles, indices, index_count,
                               positions, vertex_count, stride, max_vertices, max_triangles,
                               cone_weight);
}

}  // namespace baker
