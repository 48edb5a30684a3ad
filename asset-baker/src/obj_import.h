// Reading an OBJ and its materials with tinyobjloader into a triangle soup grouped by material.
#pragma once

#include "bake_mesh.h"

#include <assetlib/mesh_asset.h>

#include <string>
#include <string_view>
#include <vector>

namespace baker {

struct ImportedSubmesh {
  uint32_t first_index = 0;  // into the soup: triangles first_index / 3 ...
  uint32_t index_count = 0;
  uint32_t material = 0;
};

struct ImportedMesh {
  // 3 vertices per triangle, submesh by submesh; tangents still zero (mesh_tangents.h fills them).
  std::vector<assetlib::Vertex_PNCVT_F32> soup;
  bool has_uvs = false;  // any face had texture coordinates
  std::vector<ImportedSubmesh> submeshes;       // one per material used, in material order
  std::vector<assetlib::MeshMaterial> materials;
};

// Parses the OBJ, checks every index, triangulates, flips V for Vulkan's top-left texture origin,
// and generates smooth angle-weighted normals (respecting smoothing groups) where the file has none.
assetlib::Status import_obj(std::string_view obj_text, const std::string& relative_path,
                            const MeshInputs& inputs, ImportedMesh& out, std::vector<std::string>& warnings);

}  // namespace baker
