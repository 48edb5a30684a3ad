// assetlib: mesh assets ("MESH").
//
// Unpacked, a mesh is a vertex buffer (vertex_count * vertex_stride bytes, interleaved) and an
// index buffer (index_count * index_size bytes, triangle list), each ready to be copied into a
// VkBuffer and bound as is.
#pragma once

#include <assetlib/asset_file.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assetlib {

enum class VertexFormat : uint32_t {
  Unknown = 0,
  // 44 bytes: position f32x3, normal f32x3, colour f32x3, uv f32x2.
  PNCV_F32 = 1,
  // 24 bytes: position f32x3, normal snorm8x4 (w = 0), colour unorm8x4, uv f16x2.
  P32N8C8V16 = 2,
};

struct Vertex_PNCV_F32 {
  float position[3];
  float normal[3];
  float color[3];
  float uv[2];
};
static_assert(sizeof(Vertex_PNCV_F32) == 44);

struct Vertex_P32N8C8V16 {
  float position[3];
  int8_t normal[4];    // snorm: value / 127
  uint8_t color[4];    // unorm: value / 255
  uint16_t uv[2];      // IEEE half floats
};
static_assert(sizeof(Vertex_P32N8C8V16) == 24);

// One vertex attribute, for VkVertexInputAttributeDescription.
struct VertexAttribute {
  uint32_t location;
  uint32_t vk_format;  // VkFormat enum value
  uint32_t offset;     // bytes from the vertex start
};

// Stable name used in the JSON ("PNCV_F32"), or "Unknown".
const char* vertex_format_name(VertexFormat format);
// The format named `name` in the JSON, or Unknown.
VertexFormat vertex_format_from_name(std::string_view name);
// Bytes per vertex, 0 for Unknown.
uint32_t vertex_format_stride(VertexFormat format);
// Fills up to 8 attributes (position = 0, normal = 1, colour = 2, uv = 3); returns how many.
uint32_t vertex_format_attributes(VertexFormat format, VertexAttribute out[8]);

struct MeshBounds {
  float origin[3] = {0, 0, 0};   // centre of the axis-aligned box
  float extents[3] = {0, 0, 0};  // half sizes of the box
  float radius = 0;              // sphere around `origin` containing every vertex
};

// A material from the source (an OBJ's .mtl). Textures are named by their logical name in the
// manifest (source path relative to the bake root, '/'-separated), empty when absent.
struct MeshMaterial {
  std::string name;
  float base_color[4] = {1, 1, 1, 1};    // diffuse colour and opacity
  float specular_color[3] = {0, 0, 0};
  std::string base_color_texture;
  std::string normal_texture;
};

// A contiguous index range drawn with one material: one draw call each.
struct Submesh {
  uint32_t first_index = 0;
  uint32_t index_count = 0;
  uint32_t material = 0;  // index into MeshInfo::materials
  MeshBounds bounds;      // of the vertices this range uses
};

struct MeshInfo {
  VertexFormat vertex_format = VertexFormat::Unknown;
  uint32_t vertex_count = 0;
  uint32_t vertex_stride = 0;
  uint32_t index_count = 0;
  uint32_t index_size = 4;        // 2 or 4 bytes
  MeshBounds bounds;
  std::vector<MeshMaterial> materials;  // at least one once packed
  std::vector<Submesh> submeshes;       // cover the index buffer in order, at least one once packed
  std::string original_file;
  Compression compression = Compression::LZ4;  // filled by read_mesh_info
  uint64_t vertex_buffer_size = 0;  // = vertex_count * vertex_stride
  uint64_t index_buffer_size = 0;   // = index_count * index_size
  std::vector<Chunk> chunks;        // blob layout: vertex bytes first, then index bytes
};

// Bounds of the positions (first three floats of each vertex) of `vertex_count` vertices.
MeshBounds compute_mesh_bounds(const void* vertices, uint32_t vertex_count, uint32_t stride);

// Reads and checks the metadata of a "MESH" asset against its blob.
Status read_mesh_info(const AssetView& file, MeshInfo& info);

// Packs vertices and indices into `out`. `info` gives the vertex format, counts, index size,
// materials, submesh ranges and original file; stride, buffer sizes and all bounds are computed
// here, and every index is checked to be < vertex_count. Without submeshes, one submesh covers
// all indices; without materials, one white "default" material is written.
Status pack_mesh(const MeshInfo& info, const void* vertices, size_t vertices_size,
                 const void* indices, size_t indices_size, AssetFile& out,
                 const PackOptions& options = {});

// Unpacks into caller buffers of at least vertex_buffer_size and index_buffer_size bytes.
Status unpack_mesh(const MeshInfo& info, const void* src, size_t src_size, void* vertex_dst,
                   size_t vertex_dst_size, void* index_dst, size_t index_dst_size);

}  // namespace assetlib
