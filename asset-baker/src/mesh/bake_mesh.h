// One imported mesh -> a "MESH" asset: indexed, optimised for the GPU (vertex cache, overdraw,
// fetch), tangents, optional LODs and meshlets, encoded in the chosen vertex format, with the skin
// stream of a skinned mesh (its joints and weights travel inside each vertex through every stage).
// Importers (import/) produce the ImportedMesh; this stage does not know where it came from.
#pragma once

#include "common/bake_settings.h"
#include "common/bake_status.h"
#include "common/imported_mesh.h"

#include <assetlib/mesh_asset.h>

#include <string>
#include <vector>

namespace baker {

// The vertex format a mesh is written in: `setting` (a name from baker.json), promoted to its
// two-UV variant (PNCVT_F32 -> PNCVVT_F32, PNCVT_OCT -> PNCVVT_OCT) when the mesh's materials
// sample the second UV set. A format without a two-UV variant keeps its one set: `dropped_uv1`
// says so (the caller warns).
assetlib::VertexFormat mesh_vertex_format(const std::string& setting, bool uses_uv1,
                                          bool& dropped_uv1);

// Bakes `mesh` into `out`. `source` is the bake-root-relative source path (the asset's
// original_file, and the file errors name); `what` names the mesh in warnings ("models/a.obj",
// "models/b.gltf: mesh 2 'Helmet'"). Unusual meshes that take a linear fallback, and a dropped
// second UV set, become warnings.
BakeStatus bake_mesh(ImportedMesh mesh, const std::string& source, const std::string& what,
                     const BakeSettings& settings, assetlib::AssetFile& out,
                     std::vector<std::string>& warnings);

}  // namespace baker
