// Internal: the JSON metadata of a mesh <-> MeshInfo (docs/format.md, "Mesh").
#pragma once

#include "metadata.h"

#include <assetlib/mesh_asset.h>

namespace assetlib::detail {

// Everything but the chunk table; `info` must have its layout (stride, sizes) complete.
json mesh_to_json(const MeshInfo& info);

// The top-level keys of MESH metadata, in the order mesh_to_json writes them (nlohmann::json
// sorts keys): the chunk table's, read by mesh_asset.cpp, and mesh_from_json's.
inline constexpr KeySet kMeshKeys{
    "bounds",    "chunks",       "compression",   "index_count",   "index_size", "lod_index_count",
    "lods",      "materials",    "meshlets",      "original_file", "skin",       "stats",
    "submeshes", "vertex_count", "vertex_format", "vertex_stride"};
using MeshMembers = Members<kMeshKeys>;

// Reads every key but the chunk table from the members of the metadata; checks types, not
// consistency (mesh_asset.cpp does that). Sets every field it reads; the entries of
// `info.materials` and `info.lods` are reused in place (their memory kept) and the vectors cut to
// what was read.
void mesh_from_json(JsonReader& reader, const MeshMembers& meta, MeshInfo& info);

}  // namespace assetlib::detail
