// Keeping meshoptimizer's stages linear on hostile meshes (docs/robustness.md, "Baker"). Each
// stage calls meshoptimizer through these functions, which fall back to a linear algorithm when
// the input would make meshoptimizer 0.18 superlinear. Real meshes stay below every threshold and
// bake exactly as they did; a mesh that crosses one still bakes, with a warning (MeshFallbacks).
#pragma once

#include "common/imported_mesh.h"

#include <assetlib/mesh_asset.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct meshopt_Meshlet;

namespace baker {

// The vertex cache optimiser, the simplifier and the meshlet builder rescan the triangles around a
// vertex whenever they touch it: time grows with triangles x the largest valence (a fan of 200000
// triangles around one vertex, 8 MB of OBJ, took 23 s in the vertex cache optimiser and longer in
// the meshlet builder). A range with a vertex used by more triangles than this is processed by
// linear algorithms: meshopt_optimizeVertexCacheFifo (within 3% of the same ACMR on real meshes),
// meshopt_simplifySloppy for LODs, meshopt_buildMeshletsScan for meshlets.
inline constexpr uint32_t kMaxOptimizedValence = 1024;

// meshopt_buildMeshlets finds the nearest triangle in a k-d tree over triangle centres whenever a
// meshlet has no neighbouring triangle left (for every triangle of a mesh of disconnected ones,
// such as a flat-shaded export). A subtree whose split would leave at most 4 centres on one side
// stays one leaf, scanned on every lookup: coincident triangles, or a few far-away ones, turn the
// tree into one leaf and the build quadratic (100000 flat-shaded triangles and 4 far ones: 46 s).
// When a leaf of that tree (rebuilt here the same way) would hold more centres than this, the
// meshlets are built by meshopt_buildMeshletsScan.
inline constexpr size_t kMaxMeshletLeaf = 1024;

// Every meshoptimizer call also costs O(vertex count). Once per submesh, that is submeshes x
// vertices (10000 one-triangle materials beside a 90000-vertex grid: 197 s with LODs and meshlets).
// Ordering and meshlets take each submesh on its own vertices whenever there are several (the
// same result); when submeshes x vertices exceed this factor x (vertices + indices), so do LODs
// (they then measure their error against the submesh, not the whole mesh, and may open seams
// between materials).
inline constexpr uint64_t kSubmeshVertexFactor = 16;

// Which fallbacks a bake took, for one warning.
struct MeshFallbacks {
  bool fifo_cache = false;     // vertex cache order by meshopt_optimizeVertexCacheFifo
  bool sloppy_lods = false;    // LODs by meshopt_simplifySloppy
  bool scan_meshlets = false;  // meshlets by meshopt_buildMeshletsScan
  bool per_submesh = false;    // LODs of each submesh simplified on its own vertices

  bool any() const { return fifo_cache || sloppy_lods || scan_meshlets || per_submesh; }
  // "vertex cache order by FIFO, ..." for the warning; empty when none was taken.
  std::string describe() const;
};

// Whether these triangles take the linear fallbacks: a vertex in more than kMaxOptimizedValence
// of them. The one test behind optimize_vertex_cache, simplify and build_meshlets below.
bool needs_linear_fallback(const uint32_t* indices, size_t index_count, size_t vertex_count);

// True when meshopt_buildMeshlets would build a k-d tree with a leaf of more than kMaxMeshletLeaf
// triangle centres for these triangles (the same centres, splits and partition order).
bool meshlet_tree_degenerate(const uint32_t* indices, size_t index_count, const float* positions,
                             size_t stride);

// True when each submesh's LODs should be simplified on its own vertices (kSubmeshVertexFactor).
bool split_submesh_vertices(size_t submeshes, size_t vertex_count, size_t index_count);

// A submesh's triangles renumbered onto the vertices they use, in the same order (vertex k of the
// submesh is its k-th smallest vertex index), with those vertices' positions. Reused from submesh
// to submesh: its scratch table has one entry per vertex of the mesh, reset by the next assign.
class SubmeshVertices {
 public:
  explicit SubmeshVertices(const std::vector<MeshVertex>& vertices);
  void assign(const uint32_t* indices, size_t index_count);
  // Maps local vertex numbers back to the mesh's, in place.
  void to_mesh(uint32_t* local, size_t count) const;

  std::vector<uint32_t> indices;  // the submesh's triangles, renumbered
  std::vector<float> positions;   // xyz of each vertex used
  size_t vertex_count() const { return used_.size(); }

 private:
  // Fills used_ with the vertices `mesh_indices` name, increasing, each once; may mark them in
  // local_ (assign then overwrites those entries).
  void collect_used(const uint32_t* mesh_indices, size_t index_count);
  // Up to this many vertices in a submesh's span per index, a scan of the span beats a sort.
  static constexpr uint64_t kScanFactor = 4;

  const std::vector<MeshVertex>& vertices_;
  std::vector<uint32_t> used_;   // local -> mesh vertex, increasing
  std::vector<uint32_t> local_;  // mesh vertex -> local, ~0u when unused
};

// meshopt_optimizeVertexCache, or meshopt_optimizeVertexCacheFifo over kMaxOptimizedValence.
// `destination` may be `indices`.
void optimize_vertex_cache(uint32_t* destination, const uint32_t* indices, size_t index_count,
                           size_t vertex_count, MeshFallbacks& fallbacks);

// meshopt_simplify, or meshopt_simplifySloppy over kMaxOptimizedValence. Returns the index count.
// `keep_borders`: the vertices on the border of `indices` stay (meshopt_SimplifyLockBorder; the
// sloppy fallback cannot).
size_t simplify(uint32_t* destination, const uint32_t* indices, size_t index_count,
                const float* positions, size_t vertex_count, size_t stride,
                size_t target_index_count, float target_error, bool keep_borders,
                float* result_error, MeshFallbacks& fallbacks);

// meshopt_buildMeshlets, or meshopt_buildMeshletsScan over kMaxOptimizedValence or kMaxMeshletLeaf.
// The output arrays are sized by meshopt_buildMeshletsBound. Returns the meshlet count.
size_t build_meshlets(meshopt_Meshlet* meshlets, uint32_t* meshlet_vertices,
                      uint8_t* meshlet_triangles, const uint32_t* indices, size_t index_count,
                      const float* positions, size_t vertex_count, size_t stride,
                      size_t max_vertices, size_t max_triangles, float cone_weight,
                      MeshFallbacks& fallbacks);

}  // namespace baker
