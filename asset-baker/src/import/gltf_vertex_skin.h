// The skin of a glTF primitive's vertices: its JOINTS_n / WEIGHTS_n attributes read as each
// vertex's four largest influences in the skeleton's joints, quantised for the skin format
// (common/skin_influences.h; docs/baker.md, "Skins and animations").
#pragma once

#include "common/skin_influences.h"
#include "import/gltf_accessors.h"

#include <assetlib/mesh_asset.h>

#include <map>
#include <string>
#include <vector>

namespace baker {

// The skin a mesh is bound to (gltf_skins.h): its vertices' JOINTS_n index `joint_map`, which
// gives each its joint in the skeleton `skeleton` of `joint_count` joints; weights are quantised
// for `format`.
struct GltfMeshSkin {
  const std::vector<uint32_t>* joint_map = nullptr;
  uint32_t joint_count = 0;
  assetlib::SkinFormat format = assetlib::SkinFormat::None;
  std::string skeleton;
};

// The n of JOINTS_n (prefix "JOINTS_") or WEIGHTS_n ("WEIGHTS_"), or -1 for other names.
int skin_set(const std::string& name, const char* prefix);
bool is_skin_attribute(const std::string& name);

// Joints must be unsigned bytes or shorts, weights floats or normalized unsigned bytes or shorts
// (glTF 2.0, 3.7.3.3): GltfError at `path` otherwise. Draco-decoded values carry no component
// type; vertex_skins checks their values.
void check_skin_component_type(const std::string& name, const AccessorValues& values,
                               const std::string& path);

// What quantising a mesh's influences repaired, for its warnings.
struct SkinCounts {
  size_t reduced = 0;   // vertices with more than four influences
  size_t zero_sum = 0;  // vertices without weight
};

// Every vertex's influences (`attributes` of the primitive at `path`, vertex_count elements each),
// in skeleton joints, quantised for the skin's format. Every JOINTS_n needs its WEIGHTS_n and the
// other way round; a primitive without any binds every vertex to joint 0 (counted as without
// weight). Throws GltfError naming the attribute and the vertex (see import_gltf_mesh).
std::vector<QuantizedInfluences> vertex_skins(const VertexAttributes& attributes,
                                              uint32_t vertex_count, const GltfMeshSkin& skin,
                                              const std::string& path, SkinCounts& counts);

// The warnings of a mesh's repairs, about `what` ("c.gltf: meshes[0]").
void warn_skin_counts(const SkinCounts& counts, const std::string& what,
                      std::vector<std::string>& warnings);

}  // namespace baker
