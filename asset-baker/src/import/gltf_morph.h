// glTF morph targets, baked at their default weights (docs/baker.md, "glTF"): a mesh asset holds
// one shape, so each primitive's POSITION, NORMAL and TANGENT get the weighted sum of its targets'
// deltas (glTF 2.0, 3.7.2.2) and the shapes no longer animate; the importer warns about that.
#pragma once

#include "import/gltf_accessors.h"
#include "import/gltf_json.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace baker {

// The number of morph targets of `mesh` (at `path`): glTF 2.0, 3.7.2.2, every primitive has as
// many (GltfError otherwise).
size_t morph_target_count(const Json& mesh, const std::string& path);

// The morph weights `obj` (a mesh or a node, at `path`) lists in "weights" for `targets` morph
// targets: zeros when absent. Throws GltfError when it is not an array of that many finite numbers.
std::vector<float> morph_weights(const Json& obj, const std::string& path, size_t targets);

// The default morph weights of each mesh of a document (morph_weights of the mesh, one per morph
// target; empty without targets), read when first asked and kept: a mesh's primitives are walked
// once, not once per node drawing it (100000 primitives drawn by 5000 nodes took 32 s).
class MeshDefaultWeights {
 public:
  explicit MeshDefaultWeights(const Json& root);
  const std::vector<float>& of(uint32_t mesh);

 private:
  const Json& root_;
  std::vector<std::optional<std::vector<float>>> weights_;
};

// Whether `node` (at `path`), drawing a mesh of default weights `mesh_weights`, lists morph weights
// other than those (or ones that are not the right count of numbers): the mesh asset, shared by
// every node drawing it, keeps the mesh's.
bool node_has_other_weights(const Json& node, const std::string& path, MeshDefaultWeights& defaults,
                            uint32_t mesh);

// Adds the deltas of the targets of primitive `p` (at `path`) with a weight other than 0 to the
// POSITION, NORMAL and TANGENT (xyz, renormalised) in `attributes`, which hold `vertex_count`
// vertices (each changed in a copy: copy_to_change); an attribute the primitive does not have is
// not made. Every target's accessor indices
// are checked; a target read must hold VEC3 elements, `vertex_count` of them. The deltas of other
// attributes (TEXCOORD_n, COLOR_n) are not applied: their names go to `unapplied`. Throws
// GltfError; a Draco-compressed primitive with a weighted target is unsupported (Draco may
// reorder the vertices the targets refer to).
void apply_morph_targets(GltfData& data, const Json& p, const std::string& path,
                         const std::vector<float>& weights, bool draco, uint32_t vertex_count,
                         VertexAttributes& attributes, std::set<std::string>& unapplied);

}  // namespace baker
