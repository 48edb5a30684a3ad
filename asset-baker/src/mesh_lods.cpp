#include "mesh_lods.h"

#include <meshoptimizer.h>

#include <algorithm>

namespace baker {

using assetlib::Vertex_PNCVT_F32;

void build_lods(const std::vector<Vertex_PNCVT_F32>& vertices, const std::vector<assetlib::Submesh>& submeshes,
                uint32_t count, std::vector<uint32_t>& indices, std::vector<assetlib::MeshLod>& lods) {
  constexpr float kMaxError = 0.05f;
  const float* positions = vertices.empty() ? nullptr : vertices[0].position;
  // The previous level of each submesh, as its own index list.
  std::vector<std::vector<uint32_t>> previous;
  for (const auto& sub : submeshes) {
    previous.emplace_back(indices.begin() + sub.first_index, indices.begin() + sub.first_index + sub.index_count);
  }
  for (uint32_t level = 0; level < count; ++level) {
    assetlib::MeshLod lod;
    std::vector<std::vector<uint32_t>> simplified(previous.size());
    size_t before = 0, after = 0;
    for (size_t s = 0; s < previous.size(); ++s) {
      const std::vector<uint32_t>& src = previous[s];
      std::vector<uint32_t>& dst = simplified[s];
      dst.resize(src.size());
      float error = 0;
      // A submesh already simplified away (or to one triangle) stays as it is.
      size_t target = std::min(src.size(), std::max<size_t>(3, src.size() / 2 / 3 * 3));
      dst.resize(meshopt_simplify(dst.data(), src.data(), src.size(), positions, vertices.size(),
                                  sizeof(Vertex_PNCVT_F32), target, kMaxError, 0, &error));
      meshopt_optimizeVertexCache(dst.data(), dst.data(), dst.size(), vertices.size());
      lod.error = std::max(lod.error, error);
      before += src.size();
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
