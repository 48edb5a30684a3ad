// KHR_draco_mesh_compression: a primitive's indices and attributes decoded with Draco.
#pragma once

#include "import/gltf_accessors.h"

#include <map>
#include <string>
#include <vector>

namespace baker {

struct DracoPrimitive {
  std::vector<uint32_t> indices;                     // triangle list
  std::map<std::string, AccessorValues> attributes;  // by glTF attribute name ("POSITION")
};

// Decodes the primitive at `path` whose KHR_draco_mesh_compression object is `ext`. Each
// compressed attribute takes the type of the primitive's accessor for it (its components and
// normalization) and must have as many points as that accessor's count. Throws GltfError.
DracoPrimitive decode_draco(GltfData& data, const Json& primitive, const Json& ext,
                            const std::string& path);

}  // namespace baker
