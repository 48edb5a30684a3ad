// Internal: the JSON metadata of a mesh <-> MeshInfo (docs/format.md, "Mesh").
#pragma once

#include "metadata.h"

#include <assetlib/mesh_asset.h>

namespace assetlib::detail {

// Everything but the chunk table; `info` must have its layout (stride, sizes) complete.
json mesh_to_json(const MeshInfo& info);

// Reads every key but the chunk table; checks types, not consistency (mesh_asset.cpp does that).
// Sets every field it reads; the entries of `info.materials` and `info.lods` are reused in place
// (their memory kept) and the vectors cut to what was read.
void mesh_from_json(JsonReader& reader, JsonValue meta, MeshInfo& info);

}  // namespace assetlib::detail
