// glTF animations -> clips (assetlib::ClipInfo and its key floats, docs/baker.md "Animations").
//
// Every animation becomes one clip, its keys kept as authored (times, values, STEP / LINEAR /
// CUBICSPLINE; not resampled), its channels targeting prefab nodes: a glTF node instanced under
// several parents gets one channel per instance.
#pragma once

#include "import/gltf_accessors.h"

#include <assetlib/clip_asset.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace baker {

struct GltfClip {
  assetlib::ClipInfo info;  // name, channels and their offsets into `keys`
  std::vector<float> keys;
};

struct GltfClips {
  std::vector<GltfClip> clips;  // one per animation, in file order
  std::set<uint32_t> targets;   // glTF nodes some kept channel moves
};

// Every animation of the file. `prefab_nodes[n]` lists the prefab nodes of glTF node n.
// Refused (GltfError naming the JSON path, "animations[1].samplers[0].input: ..."): an index out
// of range; an unknown interpolation or path; an input that is not SCALAR, or whose times are not
// finite, >= 0 and strictly increasing; an output of the wrong type for its path, holding another
// count than its input's (three times it for CUBICSPLINE), or a value that is not finite.
// Dropped with a warning: "weights" channels (morph targets are baked at their default weights),
// channels without a node or whose node is outside the default scene, channels of an extension's
// path.
GltfClips import_gltf_animations(GltfData& data,
                                 const std::vector<std::vector<uint32_t>>& prefab_nodes,
                                 std::vector<std::string>& warnings);

}  // namespace baker
