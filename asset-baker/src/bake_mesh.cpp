#include "bake_mesh.h"

#include "obj_import.h"
#include "source_paths.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace baker {
namespace {

using assetlib::ErrorCode;
using assetlib::Status;
using assetlib::Vertex_PNCV_F32;

// Indexes the triangle soup: identical vertices merged, then ordered for the post-transform cache,
// for overdraw (within each submesh, so ranges stay contiguous) and for vertex fetch.
void build_index_buffer(const std::vector<Vertex_PNCV_F32>& soup, const std::vector<ImportedSubmesh>& submeshes,
                        bool optimize, std::vector<Vertex_PNCV_F32>& vertices, std::vector<uint32_t>& indices) {
  std::vector<uint32_t> remap(soup.size());
  size_t unique = meshopt_generateVertexRemap(remap.data(), nullptr, soup.size(), soup.data(), soup.size(),
                                              sizeof(Vertex_PNCV_F32));
  vertices.resize(unique);
  indices.resize(soup.size());
  meshopt_remapVertexBuffer(vertices.data(), soup.data(), soup.size(), sizeof(Vertex_PNCV_F32), remap.data());
  meshopt_remapIndexBuffer(indices.data(), nullptr, soup.size(), remap.data());
  if (!optimize) return;
  for (const ImportedSubmesh& sub : submeshes) {
    uint32_t* range = indices.data() + sub.first_index;
    meshopt_optimizeVertexCache(range, range, sub.index_count, vertices.size());
    meshopt_optimizeOverdraw(range, range, sub.index_count, &vertices[0].position[0], vertices.size(),
                             sizeof(Vertex_PNCV_F32), 1.05f);
  }
  meshopt_optimizeVertexFetch(vertices.data(), indices.data(), indices.size(), vertices.data(),
                              vertices.size(), sizeof(Vertex_PNCV_F32));
}

int8_t to_snorm8(float v) { return int8_t(std::lround(std::clamp(v, -1.0f, 1.0f) * 127.0f)); }
uint8_t to_unorm8(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

std::vector<assetlib::Vertex_P32N8C8V16> to_compact(const std::vector<Vertex_PNCV_F32>& in) {
  std::vector<assetlib::Vertex_P32N8C8V16> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const Vertex_PNCV_F32& v = in[i];
    auto& c = out[i];
    std::memcpy(c.position, v.position, sizeof c.position);
    for (int k = 0; k < 3; ++k) c.normal[k] = to_snorm8(v.normal[k]);
    c.normal[3] = 0;
    for (int k = 0; k < 3; ++k) c.color[k] = to_unorm8(v.color[k]);
    c.color[3] = 255;
    for (int k = 0; k < 2; ++k) c.uv[k] = meshopt_quantizeHalf(v.uv[k]);
  }
  return out;
}

}  // namespace

Status bake_mesh(std::string_view obj_text, const std::string& relative_path, const MeshInputs& inputs,
                 const BakeSettings& settings, assetlib::AssetFile& out, std::vector<std::string>& warnings) {
  ImportedMesh mesh;
  if (Status s = import_obj(obj_text, relative_path, inputs, mesh, warnings); !s) return s;

  std::vector<Vertex_PNCV_F32> vertices;
  std::vector<uint32_t> indices;
  build_index_buffer(mesh.soup, mesh.submeshes, settings.mesh.optimize, vertices, indices);

  assetlib::MeshInfo info;
  info.vertex_count = uint32_t(vertices.size());
  info.index_count = uint32_t(indices.size());
  info.original_file = relative_path;
  info.materials = mesh.materials;
  for (const ImportedSubmesh& sub : mesh.submeshes) {
    info.submeshes.push_back({sub.first_index, sub.index_count, sub.material, {}});
  }
  // 16-bit indices halve the index buffer; 0xFFFF stays free for primitive restart.
  info.index_size = vertices.size() < 0xFFFF ? 2 : 4;
  std::vector<uint16_t> indices16;
  const void* index_data = indices.data();
  if (info.index_size == 2) {
    indices16.assign(indices.begin(), indices.end());
    index_data = indices16.data();
  }
  size_t index_bytes = size_t(info.index_count) * info.index_size;

  if (settings.mesh.vertex_format == "P32N8C8V16") {
    info.vertex_format = assetlib::VertexFormat::P32N8C8V16;
    auto compact = to_compact(vertices);
    return assetlib::pack_mesh(info, compact.data(), compact.size() * sizeof(compact[0]), index_data,
                               index_bytes, out, settings.pack);
  }
  info.vertex_format = assetlib::VertexFormat::PNCV_F32;
  return assetlib::pack_mesh(info, vertices.data(), vertices.size() * sizeof(vertices[0]), index_data,
                             index_bytes, out, settings.pack);
}

}  // namespace baker
