#include "mesh/mesh_lods.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <optional>

namespace baker {

void build_lods(const std::vector<MeshVertex>& vertices,
                const std::vector<assetlib::Submesh>& submeshes, uint32_t count, bool split,
                std::vector<uint32_t>& indices, std::vector<assetlib::MeshLod>& lods,
                MeshFallbacks& fallbacks) {
  if (count == 0) return;
  constexpr float kMaxError = 0.05f;
  // Each submesh is simplified on its own: with more than one, a border of one is a seam with
  // another, and moving its vertices on one side only opened cracks through the mesh. Borders
  // stay; a mesh of one submesh keeps its freedom.
  const bool keep_borders = submeshes.size() > 1;
  const float* positions = vertices.empty() ? nullptr : vertices[0].position;
  std::optional<SubmeshVertices> local;
  if (split) {
    local.emplace(vertices);
    fallbacks.per_submesh = true;
  }
  // The previous level of each submesh, as its own index list.
  std::vector<std::vector<uint32_t>> previous;
  for (const auto& sub : submeshes) {
    previous.emplace_back(indices.begin() + sub.first_index,
                          indices.begin() + sub.first_index + sub.index_count);
  }
  // Each level is simplified from the one before, and meshopt_simplify's error then still tells
  // the distance from LOD 0. The sloppy fallback's error tells the distance from its input only:
  // chained, a coarser level claimed less error than a finer one (an engine choosing by error
  // picked it). A submesh on the fallback is simplified from LOD 0 at every level.
  const std::vector<std::vector<uint32_t>> lod0 = previous;
  std::vector<bool> from_lod0(lod0.size());
  for (size_t s = 0; s < lod0.size(); ++s) {
    from_lod0[s] = needs_linear_fallback(lod0[s].data(), lod0[s].size(), vertices.size());
  }
  for (uint32_t level = 0; level < count; ++level) {
    assetlib::MeshLod lod;
    std::vector<std::vector<uint32_t>> simplified(previous.size());
    size_t before = 0, after = 0;
    for (size_t s = 0; s < previous.size(); ++s) {
      const std::vector<uint32_t>& src = from_lod0[s] ? lod0[s] : previous[s];
      std::vector<uint32_t>& dst = simplified[s];
      dst.resize(src.size());
      float error = 0;
      // Half the previous level; a submesh already simplified away (or to one triangle) stays as
      // it is.
      const size_t last = previous[s].size();
      size_t target = std::min(last, std::max<size_t>(3, last / 2 / 3 * 3));
      if (local) {
        local->assign(src.data(), src.size());
        dst.resize(simplify(dst.data(), local->indices.data(), src.size(), local->positions.data(),
                            local->vertex_count(), 3 * sizeof(float), target, kMaxError,
                            keep_borders, &error, fallbacks));
        optimize_vertex_cache(dst.data(), dst.data(), dst.size(), local->vertex_count(), fallbacks);
        local->to_mesh(dst.data(), dst.size());
      } else {
        dst.resize(simplify(dst.data(), src.data(), src.size(), positions, vertices.size(),
                            sizeof(MeshVertex), target, kMaxError, keep_borders, &error,
                            fallbacks));
        optimize_vertex_cache(dst.data(), dst.data(), dst.size(), vertices.size(), fallbacks);
      }
      lod.error = std::max(lod.error, error);
      before += last;
      after += dst.size();
    }
    if (after * 10 > before * 9) break;  // not worth another level
    for (const std::vector<uint32_t>& dst : simplified) {
      lod.submeshes.push_back({uint32_t(indices.size()), uint32_t(dst.size())});
      indices.insert(indices.end(), dst.begin(), dst.end());
    }
    lods.push_back(std::move(lod));
    previous = std::move(simplified);
  }
}

}  // namespace baker
