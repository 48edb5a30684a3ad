// assetlib: mesh assets ("MESH").
//
// Unpacked, a mesh is a vertex buffer (vertex_count * vertex_stride bytes, interleaved) and an
// index buffer (triangle lists: level of detail 0, then any coarser LODs), each ready to be copied
// into a VkBuffer and bound as is; optionally also meshlets (clusters of <= 64 vertices and
// <= 124 triangles with culling bounds) for mesh shaders or cluster culling.
//
// Hostile input (see asset_file.h): read_mesh_info, unpack_mesh, unpack_meshlets and
// unpack_mesh_skin are safe on hostile bytes; the unpackers trust only an info that read_mesh_info
// returned. The metadata and the sizes are checked, the unpacked vertex and index bytes are not: a
// hostile file can hold indices >= vertex_count or NaN positions. Check the indices before drawing
// an untrusted mesh (or rely on robustBufferAccess). Meshlets are checked completely by
// unpack_meshlets, skin joint indices by unpack_mesh_skin.
//
// Unstable before 1.0: levels of detail (MeshLod, IndexRange, MeshInfo::lods, lod_index_count) and
// meshlets (Meshlet, MeshletView, MeshletData, the meshlet fields of Submesh and MeshInfo,
// unpack_meshlets, meshlet_view). Their layout and API may change; a format change bumps
// kFormatVersion.
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
  // 60 bytes: PNCV_F32 followed by tangent f32x4 (xyz, w = bitangent sign +-1).
  PNCVT_F32 = 3,
  // 28 bytes: position f32x3, octahedral normal snorm16x2, colour unorm8x4, uv f16x2,
  // tangent snorm8x4 (octahedral xy, z = bitangent sign +-127, w = 0).
  PNCVT_OCT = 4,
  // 68 bytes: PNCVT_F32 with a second UV set (f32x2) between uv and tangent.
  PNCVVT_F32 = 5,
  // 32 bytes: PNCVT_OCT followed by a second UV set (f16x2).
  PNCVVT_OCT = 6,
  // Read-only: 28 bytes, vkguide's own "P32N8C8V16" vertex (legacy vkguide meshes only): position
  // f32x3, normal unorm8x3, colour unorm8x3, 2 padding bytes, uv f32x2. Not P32N8C8V16 above.
  P32N8C8V16_VKGUIDE = 7,
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
  int8_t normal[4];  // snorm: value / 127
  uint8_t color[4];  // unorm: value / 255
  uint16_t uv[2];    // IEEE half floats
};
static_assert(sizeof(Vertex_P32N8C8V16) == 24);

struct Vertex_PNCVT_F32 {
  float position[3];
  float normal[3];
  float color[3];
  float uv[2];
  float tangent[4];  // (0,0,0,0) when the mesh has no UVs to derive it from
};
static_assert(sizeof(Vertex_PNCVT_F32) == 60);

struct Vertex_PNCVT_OCT {
  float position[3];
  int16_t normal[2];  // octahedral encoding, snorm16 (docs/format.md gives the decode)
  uint8_t color[4];   // unorm8, alpha 255
  uint16_t uv[2];     // IEEE half floats
  int8_t tangent[4];  // octahedral xy (snorm8), z = bitangent sign * 127, w = 0
};
static_assert(sizeof(Vertex_PNCVT_OCT) == 28);

struct Vertex_PNCVVT_F32 {
  float position[3];
  float normal[3];
  float color[3];
  float uv[2];
  float uv1[2];  // the second UV set (location 5)
  float tangent[4];
};
static_assert(sizeof(Vertex_PNCVVT_F32) == 68);

struct Vertex_PNCVVT_OCT {
  float position[3];
  int16_t normal[2];
  uint8_t color[4];
  uint16_t uv[2];
  int8_t tangent[4];
  uint16_t uv1[2];  // the second UV set (location 5), IEEE half floats
};
static_assert(sizeof(Vertex_PNCVVT_OCT) == 32);

// Read-only (legacy vkguide meshes): the layout of vkguide's Vertex_P32N8C8V16, padding spelled
// out.
struct Vertex_P32N8C8V16_VKGUIDE {
  float position[3];
  uint8_t normal[3];  // unorm: n = value / 255 * 2 - 1 (vkguide's baker wrote (n + 1) / 2 * 255)
  uint8_t color[3];   // unorm: value / 255
  uint8_t padding[2];
  float uv[2];
};
static_assert(sizeof(Vertex_P32N8C8V16_VKGUIDE) == 28);

// One vertex attribute, for VkVertexInputAttributeDescription.
struct VertexAttribute {
  uint32_t location;
  uint32_t vk_format;  // VkFormat enum value
  uint32_t offset;     // bytes from the vertex start
};

// The format tables below take any value: an unknown format or name gives the stated fallback.

// Stable name used in the JSON ("PNCV_F32"), or "Unknown". P32N8C8V16_VKGUIDE is named
// "P32N8C8V16_VKGUIDE" for display; no file of ours holds that name.
const char* vertex_format_name(VertexFormat format);
// The format named `name` in the JSON (exact, case-sensitive), or Unknown. Never a read-only
// legacy format (P32N8C8V16_VKGUIDE), so no writer can be configured to write one.
VertexFormat vertex_format_from_name(std::string_view name);
// Bytes per vertex, 0 for Unknown.
uint32_t vertex_format_stride(VertexFormat format);
// Fills up to 8 attributes (position = 0, normal = 1, colour = 2, uv = 3, tangent = 4 and the
// second uv = 5 in the formats that have them); returns how many (today at most 6; 0 for
// Unknown). `out` must have room for 8.
uint32_t vertex_format_attributes(VertexFormat format, VertexAttribute out[8]);

// Skinning data of a skinned mesh: a second vertex stream (its own buffer, binding it beside the
// vertex buffer), one record per vertex in vertex-buffer order. Up to four influences per vertex;
// unused ones have weight 0 and joint 0. Weights are unorm and sum exactly to the unorm's one
// (255 or 65535). Joint indices index the joints of the mesh's skeleton (skeleton_asset.h).
enum class SkinFormat : uint32_t {
  None = 0,
  // 8 bytes: joints u8x4 (VK_FORMAT_R8G8B8A8_UINT), weights unorm8x4 (VK_FORMAT_R8G8B8A8_UNORM).
  J8W8 = 1,
  // 16 bytes: joints u16x4 (VK_FORMAT_R16G16B16A16_UINT), weights unorm16x4
  // (VK_FORMAT_R16G16B16A16_UNORM).
  J16W16 = 2,
};

struct Skin_J8W8 {
  uint8_t joints[4];
  uint8_t weights[4];
};
static_assert(sizeof(Skin_J8W8) == 8);

struct Skin_J16W16 {
  uint16_t joints[4];
  uint16_t weights[4];
};
static_assert(sizeof(Skin_J16W16) == 16);

// Stable name used in the JSON ("J8W8", "J16W16"), or "None" / "Unknown" for others.
const char* skin_format_name(SkinFormat format);
// The format named `name` (exact, case-sensitive), or None for any other name.
SkinFormat skin_format_from_name(std::string_view name);
// Bytes per vertex of the skin stream, 0 for None or an unknown value.
uint32_t skin_format_stride(SkinFormat format);
// The two attributes of the skin stream, offsets within a skin record: joints at location 6,
// weights at location 7. Returns 2, or 0 (nothing written) for None or an unknown value.
uint32_t skin_format_attributes(SkinFormat format, VertexAttribute out[2]);

struct MeshBounds {
  float origin[3] = {0, 0, 0};   // centre of the axis-aligned box
  float extents[3] = {0, 0, 0};  // half sizes of the box
  float radius = 0;              // sphere around `origin` containing every vertex
};

// The material of a submesh: a summary for renderers that need only a colour and two textures,
// and the logical name of the full "MATL" asset (material_asset.h). Textures are named by their
// logical name in the manifest ('/'-separated), empty when absent.
// From a hostile file the names are any strings and the colours are not clamped: resolve names
// with find_asset on the manifest, never open them as paths.
struct MeshMaterial {
  std::string name;
  float base_color[4] = {1, 1, 1, 1};  // diffuse colour and opacity
  float specular_color[3] = {0, 0, 0};
  std::string base_color_texture;
  std::string normal_texture;
  std::string material;  // the MATL asset; empty when there is none (files baked before it)
};

// A contiguous index range drawn with one material: one draw call each.
struct Submesh {
  uint32_t first_index = 0;
  uint32_t index_count = 0;
  uint32_t material = 0;       // index into MeshInfo::materials
  MeshBounds bounds;           // of the vertices this range uses (as stored: not checked on read)
  uint32_t first_meshlet = 0;  // this submesh's meshlets, when the mesh has meshlets (unstable)
  uint32_t meshlet_count = 0;  // (unstable)
};

// Unstable (levels of detail).
struct IndexRange {
  uint32_t first_index = 0;
  uint32_t index_count = 0;
};

// Unstable. A coarser level of detail: one index range per submesh (same order), into the index
// buffer after LOD 0, over the same vertex buffer.
struct MeshLod {
  float error = 0;  // simplification error, relative to the mesh's extent (0..1); never negative
  std::vector<IndexRange> submeshes;
};

// Unstable. A cluster of triangles for mesh shaders / cluster culling (meshoptimizer's layout plus
// bounds).
struct Meshlet {
  uint32_t vertex_offset;    // entry index into the meshlet vertex array (vertex buffer indices)
  uint32_t triangle_offset;  // byte offset into the meshlet triangle array (3 bytes per triangle)
  uint32_t vertex_count;     // <= 64
  uint32_t triangle_count;   // <= 124
  float center[3];           // bounding sphere
  float radius;
  float cone_apex[3];  // backface cone: cull when dot(normalize(apex - eye), axis) >= cutoff
  float cone_axis[3];
  float cone_cutoff;
};
static_assert(sizeof(Meshlet) == 60);

// Unstable. The meshlet section of an unpacked mesh, viewed in place (no copy).
struct MeshletView {
  const Meshlet* meshlets = nullptr;
  const uint32_t* vertices = nullptr;  // meshlet_vertex_count entries
  const uint8_t* triangles = nullptr;  // meshlet_triangle_count * 3 entries
};

// Unstable. Mesh data beside the vertices and indices, as the baker produced it (pack_mesh input).
struct MeshletData {
  std::vector<Meshlet> meshlets;
  std::vector<uint32_t> vertices;
  std::vector<uint8_t> triangles;
};

// Optimisation figures recorded by the baker (meshopt_analyzeVertexCache, cache of 16); 0 =
// unknown. Informational: any finite values in a hostile file.
struct MeshStats {
  float acmr_before = 0,
        acmr_after = 0;  // average cache miss ratio: transformed vertices per triangle
  float atvr_before = 0,
        atvr_after = 0;  // average transformed vertex ratio: per vertex (1 is ideal)
};

struct MeshInfo {
  VertexFormat vertex_format = VertexFormat::Unknown;
  uint32_t vertex_count = 0;
  uint32_t vertex_stride = 0;
  uint32_t index_count = 0;             // LOD 0 indices
  uint32_t lod_index_count = 0;         // indices of all coarser LODs, stored after LOD 0
  uint32_t index_size = 4;              // 2 or 4 bytes
  MeshBounds bounds;                    // as stored: not checked against the vertices on read
  std::vector<MeshMaterial> materials;  // at least one once packed
  std::vector<Submesh> submeshes;       // cover LOD 0 in order, at least one once packed
  std::vector<MeshLod> lods;            // LOD 1, 2, ... (may be empty; unstable)
  uint32_t meshlet_count = 0;           // meshlet section sizes (unstable)
  uint32_t meshlet_vertex_count = 0;
  uint32_t meshlet_triangle_count = 0;
  MeshStats stats;
  std::string original_file;
  // Skinning (None: a rigid mesh). The skin stream is a fourth blob section, after the meshlet
  // data: vertex_count * skin_stride bytes. `skeleton` is the logical name of the SKEL asset whose
  // joints the stream indexes; skin_joint_count is its joint count (every joint index is below it).
  SkinFormat skin_format = SkinFormat::None;
  uint32_t skin_stride = 0;       // skin_format_stride(skin_format)
  uint32_t skin_joint_count = 0;  // 1..256 for J8W8, 1..kMaxJoints for J16W16; 0 without a skin
  std::string skeleton;
  uint64_t skin_buffer_size = 0;               // = vertex_count * skin_stride
  Compression compression = Compression::LZ4;  // filled by read_mesh_info
  uint64_t vertex_buffer_size = 0;             // = vertex_count * vertex_stride
  uint64_t index_buffer_size = 0;              // = (index_count + lod_index_count) * index_size
  uint64_t meshlet_data_size = 0;  // meshlets, then their vertices, then triangles (padded to 4)
  std::vector<Chunk> chunks;       // blob layout: vertices, indices, meshlet data, skin
  // Filled by read_mesh_info: true for a legacy vkguide mesh (read-only: rebake its source to get
  // materials, submeshes, LODs and meshlets). Ignored by pack_mesh.
  bool legacy = false;
};

// Unpacked bytes of every section: vertex buffer + index buffer + meshlet data + skin stream (the
// manifest's raw_size). For an info from read_mesh_info, less than 256 x the file size.
inline uint64_t mesh_unpacked_size(const MeshInfo& info) {
  return info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size +
         info.skin_buffer_size;
}

// Bounds of the positions (first three floats of each vertex) of `vertex_count` vertices; all zero
// for 0 vertices. Trusts its input: `vertices` holds vertex_count * stride bytes, stride >= 12.
// Non-finite positions give non-finite bounds.
MeshBounds compute_mesh_bounds(const void* vertices, uint32_t vertex_count, uint32_t stride);

// Reads the metadata of a "MESH" asset and checks it against its blob.
// Safe on hostile bytes (any view, e.g. from parse_binaryfile). The JSON is parsed without
// exceptions, in memory linear in its size. Errors: UnknownType, InvalidJson, MissingKey,
// WrongKeyType, UnknownCompression, InvalidValue; messages start with "MESH metadata" and do not
// name the file (prefix it yourself). `info` is left unchanged on error.
// Once warm, allocates nothing when `info` is reused: the same asset again, or two in turn, read
// into one `info` (the calling thread keeps a JSON parser and a scratch info, which trades memory
// with `info`: tens of KB, about 1 MB at most after a 64 KiB header). Legacy files allocate.
// On success: the vertex format is known and vertex_stride is its stride; index_size is 2 or 4
// (2 only with <= 65536 vertices); every count is <= 2^28, index counts are multiples of 3; the
// arrays hold <= 2^20 entries and there are <= 32 LODs; submeshes tile LOD 0 in order and name
// existing materials, their meshlet ranges tile the meshlets; every LOD has one range per submesh
// inside the LOD part of the index buffer, so every draw range lies inside the index buffer;
// every JSON float is finite and within +-3e38, so it converts to a finite float. A skin (the
// optional "skin" key) has a known format, its stride, 1..256 (J8W8) or 1..kMaxJoints (J16W16)
// joints; without it skin_format is None and the skin fields are 0 / empty. The buffer sizes
// follow from the counts, and the chunks cover exactly the four sections and exactly `file.blob`,
// within what LZ4 can expand: mesh_unpacked_size(info) < 256 x the file size. Not checked: the
// unpacked bytes (index values, positions), meshlet contents (unpack_meshlets checks them), the
// bounds against the vertices, material, texture and skeleton names, stats, skin joint indices
// (unpack_mesh_skin checks them) and weights. Also reads vkguide's legacy
// meshes (metadata with "vertex_buffer_size" and no "vertex_count"; docs/format.md, "Legacy vkguide
// files"): PNCV_F32 or P32N8C8V16_VKGUIDE vertices, one "default" material and one submesh, no LODs
// or meshlets, `legacy` set, compression None or LegacyLZ4 (then one chunk holds both buffers and
// its packed size may exceed its raw size); the guarantees above hold otherwise.
Status read_mesh_info(const AssetView& file, MeshInfo& info);

// Packs vertices and indices (LOD 0, then every LOD's ranges) into `out`. `info` gives the vertex
// format, counts, index size, materials, submesh ranges (with their meshlet ranges), LODs, stats
// and original file; stride, buffer sizes and all bounds are computed here, and every index is
// checked to be < vertex_count. Without submeshes, one submesh covers LOD 0; without materials,
// one white "default" material is written. `meshlets` is optional; `skin` (skin_size bytes) is the
// skin stream of a skinned mesh (info.skin_format, skin_joint_count and skeleton set), nullptr and
// 0 for a rigid one.
// Checks the layout and ranges as read_mesh_info does (InvalidValue); vertices_size and
// indices_size equal to the buffer sizes, every index < vertex_count, finite positions whose bounds
// fit in a float, meshlet data matching the counts and every meshlet inside its arrays and limits,
// skin_size equal to skin_buffer_size and every skin joint index < skin_joint_count
// (InvalidArgument); `options` (see PackOptions). A read-only legacy vertex format
// (P32N8C8V16_VKGUIDE) is InvalidValue. `out` is written only on success.
// Trusts the pointers to hold the sizes given, `indices` aligned to index_size. Pass
// meshlets = nullptr when info.meshlet_count is 0: the sizes of `*meshlets` are only checked when
// meshlet_count > 0, and non-empty arrays with a zero count overflow the meshlet section.
Status pack_mesh(const MeshInfo& info, const void* vertices, size_t vertices_size,
                 const void* indices, size_t indices_size, AssetFile& out,
                 const PackOptions& options = {}, const MeshletData* meshlets = nullptr,
                 const void* skin = nullptr, size_t skin_size = 0);

// Unpacks into caller buffers of at least vertex_buffer_size and index_buffer_size bytes.
// `src`/`src_size` is the blob. Requires `info` from a successful read_mesh_info (an info built by
// hand is not validated).
// Safe on hostile bytes in `src` (any src_size): reads stay inside [src, src + src_size)
// (TruncatedHeader when a chunk lies outside it); corrupt data is CorruptBlob / SizeMismatch.
// Writes only vertex_dst[0, vertex_buffer_size) and index_dst[0, index_buffer_size); both
// destinations are checked (DestinationTooSmall) before either is written. A chunk straddling the
// two buffers (never written by pack_mesh) is InvalidValue. No alignment needed. On success both
// buffers were written completely; on error they may hold partial data. The values are not checked:
// indices may be >= vertex_count in a hostile file. Allocates nothing but error messages, except
// for a LegacyLZ4 mesh (a legacy vkguide file): its one LZ4 block holds both buffers and cannot be
// split, so it is decoded into a temporary buffer of mesh_unpacked_size(info) bytes (at most 1 GiB;
// OutOfMemory when that fails), both destinations checked before.
Status unpack_mesh(const MeshInfo& info, const void* src, size_t src_size, void* vertex_dst,
                   size_t vertex_dst_size, void* index_dst, size_t index_dst_size);

// Checks the index buffer unpack_mesh wrote (`indices`, `size` bytes: at least
// info.index_buffer_size) against the vertex count: InvalidValue naming the first index that is
// not below info.vertex_count, DestinationTooSmall when `size` is short. What to run before
// drawing an untrusted mesh without robustBufferAccess (a read past a vertex buffer is undefined
// behaviour in Vulkan). Every LOD's indices are checked too. Requires `info` from a successful
// read_mesh_info (an index_size other than 2 or 4 is InvalidArgument). O(indices) at memory
// speed; no alignment needed; allocates nothing but error messages.
Status check_mesh_indices(const MeshInfo& info, const void* indices, size_t size);

// Unstable. Unpacks the meshlet section into `dst` (at least meshlet_data_size bytes, 4-byte
// aligned) and checks every meshlet against its arrays and the vertex count. View it with
// meshlet_view().
// Requires `info` from a successful read_mesh_info. Safe on hostile bytes in `src`, as unpack_mesh.
// Errors: InvalidArgument (dst not 4-byte aligned), DestinationTooSmall (before writing),
// TruncatedHeader / CorruptBlob / SizeMismatch / InvalidValue as unpack_mesh, and InvalidValue when
// a meshlet fails the checks (the bytes are then in `dst`: do not use them).
// On success: every meshlet has <= 64 vertices and <= 124 triangles, its vertex and triangle
// ranges lie inside the arrays, each local index is < its vertex_count, and every meshlet vertex
// index is < info.vertex_count: meshlet_view(info, dst) can be followed without further checks.
Status unpack_meshlets(const MeshInfo& info, const void* src, size_t src_size, void* dst,
                       size_t dst_size);

// Unpacks the skin stream (section 4) into `dst` (at least skin_buffer_size bytes) and checks every
// joint index against skin_joint_count, so a shader indexing a palette of that many matrices stays
// inside it. Requires `info` from a successful read_mesh_info with a skin. Safe on hostile bytes in
// `src`, as unpack_mesh. Errors: InvalidArgument (the mesh has no skin), DestinationTooSmall
// (before writing), TruncatedHeader / CorruptBlob / SizeMismatch, InvalidValue when a joint index
// is out of range (the bytes are then in `dst`: do not use them). Weights are not checked.
Status unpack_mesh_skin(const MeshInfo& info, const void* src, size_t src_size, void* dst,
                        size_t dst_size);

// Unstable. The meshlets, their vertex and triangle arrays, in place in unpacked meshlet data.
// No checks, pointer arithmetic only: `meshlet_data` must be meshlet_data_size bytes, 4-byte
// aligned, that a successful unpack_meshlets with the same `info` wrote (or trusted data).
MeshletView meshlet_view(const MeshInfo& info, const void* meshlet_data);

}  // namespace assetlib
