#include "legacy_vkguide.h"

#include <assetlib/limits.h>
#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/prefab_asset.h>
#include <assetlib/texture_asset.h>

#include <lz4.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace assetlib::detail::vkguide {

// ---- Recognising legacy metadata --------------------------------------------------------------

bool is_texture(JsonValue meta) {
  return has_key(meta, "buffer_size") && !has_key(meta, "mips") && !has_key(meta, "mip_count");
}
bool is_mesh(JsonValue meta) {
  return has_key(meta, "vertex_buffer_size") && !has_key(meta, "vertex_count");
}
bool is_material(JsonValue meta) {
  return has_key(meta, "baseEffect") && !has_key(meta, "alpha_mode");
}
bool is_prefab(JsonValue meta) { return has_key(meta, "node_matrices") && !has_key(meta, "nodes"); }

// ---- Blob -------------------------------------------------------------------------------------

// vkguide's "compression": "LZ4" (the whole blob is one LZ4 block, whatever its size) or "None"
// (the data as is). vkguide's own reader takes any other string as "None"; refusing it is safer.
static Compression read_codec(JsonReader& reader, JsonValue meta) {
  std::string_view codec = reader.string(meta, "compression");
  if (!reader.ok()) return Compression::None;
  if (codec == "LZ4") return Compression::LegacyLZ4;
  if (codec != "None") {
    reader.fail(ErrorCode::UnknownCompression, "unknown compression '" + std::string(codec) +
                                                   "' in a legacy vkguide file (LZ4 or None)");
  }
  return Compression::None;
}

// "None": one chunk per section (split at kMaxChunkSize), so each section unpacks on its own.
static void raw_chunks(JsonReader& reader, std::initializer_list<uint64_t> sections, uint64_t total,
                       uint64_t blob_size, std::vector<Chunk>& chunks) {
  if (blob_size != total) {
    reader.fail(ErrorCode::InvalidValue, "uncompressed legacy vkguide blob holds " +
                                             std::to_string(blob_size) + " bytes, the data " +
                                             std::to_string(total));
    return;
  }
  uint64_t at = 0;
  for (uint64_t size : sections) {
    for (uint64_t end = at + size; at < end;) {
      uint64_t n = std::min(end - at, kMaxChunkSize);
      chunks.push_back({at, n, at, n});
      at += n;
    }
  }
}

// LZ4: the whole blob is one block of every section together, so one chunk (straddling the
// sections of a mesh). Checked as read_chunk_table checks a chunk, except that a legacy block may
// be as large as its data or larger (incompressible data), within what LZ4 ever writes.
static void lz4_chunk(JsonReader& reader, uint64_t total, uint64_t blob_size,
                      std::vector<Chunk>& chunks) {
  const std::string sizes = std::to_string(total) + " bytes from " + std::to_string(blob_size);
  if (total > kMaxChunkSize) {
    reader.fail(ErrorCode::InvalidValue,
                "legacy vkguide data of " + std::to_string(total) +
                    " bytes is one LZ4 block, over the 1 GiB limit (assetlib::kMaxChunkSize)");
  } else if (total > kMaxChunkExpansion * blob_size) {
    reader.fail(ErrorCode::InvalidValue, "legacy vkguide blob claims " + sizes +
                                             ": more than LZ4 can expand (256x, "
                                             "assetlib::kMaxChunkExpansion)");
  } else if (blob_size > uint64_t(LZ4_compressBound(int(total)))) {  // total <= 1 GiB: an int
    reader.fail(ErrorCode::InvalidValue, "legacy vkguide blob of " + std::to_string(blob_size) +
                                             " bytes is larger than LZ4 writes for " +
                                             std::to_string(total) + " bytes");
  } else {
    chunks.push_back({0, total, 0, blob_size});
  }
}

void read_chunks(JsonReader& reader, Compression compression,
                 std::initializer_list<uint64_t> sections, uint64_t blob_size,
                 std::vector<Chunk>& chunks) {
  uint64_t total = 0;
  for (uint64_t size : sections) total += size;  // each bounded by the callers' limits
  chunks.clear();
  if (total == 0) {
    reader.fail(ErrorCode::InvalidValue, "legacy vkguide file holds no data");
  } else if (compression == Compression::None) {
    raw_chunks(reader, sections, total, blob_size, chunks);
  } else {
    lz4_chunk(reader, total, blob_size, chunks);
  }
}

// ---- Texture ("TEXI") -------------------------------------------------------------------------

void read_texture(JsonReader& reader, JsonValue meta, TextureInfo& out) {
  if (has_key(meta, "pages")) {
    // A later vkguide revision: one LZ4 block per level. Its pages start one level below the
    // image (the baker built a mip before compressing each) and its texel order depends on the
    // texture tool: too uncertain to give exact bytes.
    reader.fail(
        ErrorCode::InvalidValue,
        "legacy vkguide texture with per-level 'pages' is not supported: rebake its source");
    return;
  }
  std::string_view format = reader.string(meta, "format");
  if (reader.ok() && format != "RGBA8") {
    reader.fail(ErrorCode::InvalidValue, "unknown legacy vkguide texture format '" +
                                             std::string(format) + "' (only RGBA8 is read)");
  }
  uint32_t width = reader.u32(meta, "width");
  uint32_t height = reader.u32(meta, "height");
  uint64_t buffer_size = reader.u64(meta, "buffer_size");
  std::string original_file(reader.string(meta, "original_file"));
  Compression compression = read_codec(reader, meta);
  if (!reader.ok()) return;
  // 8-bit RGBA that vkguide's baker loaded with stb_image from PNG/JPEG: sRGB-encoded colour, as
  // a rebake of a colour texture calls it (vkguide's engine made the image UNORM).
  out = make_texture_info(TextureFormat::RGBA8_SRGB, width, height, 1);
  out.original_file = std::move(original_file);
  out.compression = compression;
  out.legacy = true;
  if (buffer_size != out.total_size) {
    reader.fail(ErrorCode::InvalidValue,
                "legacy vkguide texture: buffer_size " + std::to_string(buffer_size) + " is not " +
                    std::to_string(width) + " x " + std::to_string(height) +
                    " x 4 = " + std::to_string(out.total_size) + " bytes of RGBA8");
  }
}

// ---- Mesh ("MESH") ----------------------------------------------------------------------------

// vkguide's "bounds": [origin x, y, z, radius, extents x, y, z]. Optional (the first vkguide
// meshes had none: zero bounds).
static void read_bounds(JsonReader& reader, JsonValue meta, MeshBounds& bounds) {
  if (!reader.ok() || !has_key(meta, "bounds")) return;
  float v[7];
  reader.f32_array(meta, "bounds", v, 7);  // every number finite as a float
  if (!reader.ok()) return;
  std::memcpy(bounds.origin, v, sizeof bounds.origin);
  bounds.radius = v[3];
  std::memcpy(bounds.extents, v + 4, sizeof bounds.extents);
}

// How many `element`-byte items `bytes` holds; fails unless a whole number of them, within u32.
static uint32_t element_count(JsonReader& reader, const char* key, uint64_t bytes, uint64_t element,
                              const std::string& what) {
  if (!reader.ok()) return 0;
  if (element == 0 || bytes % element != 0) {
    reader.fail(ErrorCode::InvalidValue, std::string("legacy vkguide mesh: ") + key + " " +
                                             std::to_string(bytes) + " is not a whole number of " +
                                             what);
    return 0;
  }
  if (bytes / element > UINT32_MAX) {
    reader.fail(ErrorCode::InvalidValue, std::string("legacy vkguide mesh: ") + key + " " +
                                             std::to_string(bytes) + " holds too many " + what);
    return 0;
  }
  return uint32_t(bytes / element);
}

void read_mesh(JsonReader& reader, JsonValue meta, MeshInfo& out) {
  out = MeshInfo{};
  std::string_view format = reader.string(meta, "vertex_format");
  uint64_t vertex_bytes = reader.u64(meta, "vertex_buffer_size");
  uint64_t index_bytes = reader.u64(meta, "index_buffer_size");
  uint32_t index_size = reader.u32(meta, "index_size");
  out.original_file = reader.string(meta, "original_file");
  out.compression = read_codec(reader, meta);
  read_bounds(reader, meta, out.bounds);
  if (!reader.ok()) return;
  // vkguide's PNCV_F32 is ours byte for byte; its P32N8C8V16 is another layout than ours.
  out.vertex_format = format == "PNCV_F32"     ? VertexFormat::PNCV_F32
                      : format == "P32N8C8V16" ? VertexFormat::P32N8C8V16_VKGUIDE
                                               : VertexFormat::Unknown;
  if (out.vertex_format == VertexFormat::Unknown) {
    reader.fail(ErrorCode::InvalidValue, "unknown legacy vkguide vertex_format '" +
                                             std::string(format) + "' (PNCV_F32 or P32N8C8V16)");
    return;
  }
  if (index_size != 2 && index_size != 4) {
    reader.fail(ErrorCode::InvalidValue,
                "legacy vkguide mesh: index_size " + std::to_string(index_size) + " is not 2 or 4");
    return;
  }
  out.vertex_stride = vertex_format_stride(out.vertex_format);
  out.index_size = index_size;
  out.vertex_count = element_count(
      reader, "vertex_buffer_size", vertex_bytes, out.vertex_stride,
      std::to_string(out.vertex_stride) + "-byte " + std::string(format) + " vertices");
  out.index_count = element_count(reader, "index_buffer_size", index_bytes, index_size,
                                  std::to_string(index_size) + "-byte indices");
  out.materials.resize(1);
  out.materials[0].name = "default";
  out.submeshes = {Submesh{0, out.index_count, 0, out.bounds, 0, 0}};
  out.legacy = true;
}

Status unpack_mesh_whole(const MeshInfo& info, const void* src, size_t src_size, void* vertex_dst,
                         size_t vertex_dst_size, void* index_dst, size_t index_dst_size) {
  const uint64_t vb = info.vertex_buffer_size, ib = info.index_buffer_size;
  auto too_small = [](const char* what, size_t got, uint64_t want) {
    return Status::error(ErrorCode::DestinationTooSmall,
                         std::string("unpack_mesh: ") + what + " destination holds " +
                             std::to_string(got) + " bytes, " + std::to_string(want) + " needed");
  };
  if (vertex_dst_size < vb) return too_small("vertex", vertex_dst_size, vb);
  if (index_dst_size < ib) return too_small("index", index_dst_size, ib);
  if (info.chunks.size() != 1 || info.chunks[0].raw_size != vb + ib) {
    return Status::error(ErrorCode::InvalidValue,
                         "unpack_mesh: not the one LZ4 block of a legacy vkguide mesh");
  }
  std::vector<std::byte> whole(vb + ib);
  if (Status s =
          unpack_chunk(info.compression, info.chunks[0], src, src_size, whole.data(), whole.size());
      !s) {
    return s;
  }
  if (vb) std::memcpy(vertex_dst, whole.data(), vb);
  if (ib) std::memcpy(index_dst, whole.data() + vb, ib);
  return {};
}

// ---- Material ("MATX", or "MATL" with vkguide's keys) ------------------------------------------

void read_material(JsonReader& reader, JsonValue meta, uint64_t blob_size, MaterialInfo& out) {
  JsonValue textures = reader.object(meta, "textures");
  if (reader.ok() && has_key(textures, "baseColor"))
    out.base_color.texture = reader.string(textures, "baseColor");
  std::string_view transparency = reader.optional_string(meta, "transparency", "");
  if (!reader.ok()) return;
  if (transparency == "transparent") {
    out.alpha_mode = AlphaMode::Blend;
  } else if (transparency == "masked") {
    out.alpha_mode = AlphaMode::Mask;
  } else if (!transparency.empty()) {
    reader.fail(ErrorCode::InvalidValue, "unknown legacy vkguide transparency '" +
                                             std::string(transparency) +
                                             "' (transparent or masked)");
    return;
  }
  if (blob_size != 0) {
    reader.fail(ErrorCode::InvalidValue, "a legacy vkguide material has no blob, this one has " +
                                             std::to_string(blob_size) + " bytes");
    return;
  }
  out.metallic_factor = 0;
  out.roughness_factor = 1;
  out.legacy = true;
}

// ---- Prefab ("PRFB") --------------------------------------------------------------------------

// A vkguide node, gathered from its four maps. Strings stay in the parsed JSON until the nodes are
// built, so a crafted file costs little beyond its JSON text.
struct Node {
  int64_t matrix = -1;              // index into the blob's matrices; -1: none (identity)
  std::string_view name;            // the node_names entry
  std::string_view mesh, material;  // the node_meshes entry's paths, when has_mesh
  bool has_mesh = false;
  bool has_parent = false;
  bool visiting = false;  // on the ancestor chain being placed (a cycle if met again)
  uint64_t parent = 0;    // a vkguide node id
  int32_t index = -1;     // in PrefabInfo::nodes, once placed
};
using NodeMap = std::map<uint64_t, Node>;  // by vkguide node id: sorted, so the order is stable

// One [node id, value] pair of a node map.
static bool node_pair(JsonValue entry, uint64_t& id, JsonValue& value) {
  simdjson::dom::array pair;
  if (!get_array(entry, pair) || pair.size() != 2) return false;
  auto it = pair.begin();
  if (!get_u64(*it, id)) return false;
  value = *++it;
  return true;
}

// vkguide keeps each node map as a std::unordered_map<uint64_t, T>, which nlohmann writes as an
// array of [key, value] pairs. Checks that shape; the values are checked by the caller.
static JsonArray node_pairs(JsonReader& reader, JsonValue meta, const char* key) {
  JsonArray pairs = reader.entries(meta, key);
  uint64_t id;
  JsonValue value;
  for (JsonValue p : pairs) {
    if (!reader.ok()) break;
    if (!node_pair(p, id, value)) {
      reader.fail(ErrorCode::WrongKeyType,
                  std::string("'") + key + "' must hold [node id, value] pairs");
    }
  }
  return pairs;
}

// Most nodes of a legacy prefab. Every id met is a node, so a pair of ids ("[1,2]", 6 bytes) makes
// two, and each costs some 350 bytes read (a map node and a PrefabNode): kMaxArrayEntries would
// let 4 MiB of metadata take 300 MB, past read_*_info's bound (limits.h). vkguide's scenes hold a
// few hundred nodes; 2^16 costs at most some 23 MB.
constexpr size_t kMaxLegacyPrefabNodes = size_t(1) << 16;

static Node& add_node(JsonReader& reader, NodeMap& nodes, uint64_t id) {
  Node& node = nodes[id];
  if (nodes.size() > kMaxLegacyPrefabNodes)
    reader.fail(ErrorCode::InvalidValue, "more than 2^16 nodes (legacy vkguide prefab)");
  return node;
}

// Gathers "node_matrices", "node_names", "node_parents" and "node_meshes" into `nodes`. Every id
// met becomes a node, parents included.
static void collect_nodes(JsonReader& reader, JsonValue meta, uint64_t matrix_count,
                          NodeMap& nodes) {
  uint64_t id;
  JsonValue value;
  for (JsonValue p : node_pairs(reader, meta, "node_matrices")) {
    if (!reader.ok() || !node_pair(p, id, value)) return;
    uint64_t matrix = 0;
    if (!get_u64(value, matrix) || matrix >= matrix_count) {
      return reader.fail(ErrorCode::InvalidValue, "node_matrices: node " + std::to_string(id) +
                                                      " names matrix " + simdjson::minify(value) +
                                                      ", the blob holds " +
                                                      std::to_string(matrix_count));
    }
    add_node(reader, nodes, id).matrix = int64_t(matrix);
  }
  for (JsonValue p : node_pairs(reader, meta, "node_names")) {
    if (!reader.ok() || !node_pair(p, id, value)) return;
    std::string_view name;
    if (!get_string(value, name))
      return reader.fail(ErrorCode::WrongKeyType, "node_names: names must be strings");
    add_node(reader, nodes, id).name = name;
  }
  for (JsonValue p : node_pairs(reader, meta, "node_parents")) {
    if (!reader.ok() || !node_pair(p, id, value)) return;
    uint64_t parent = 0;
    if (!get_u64(value, parent))
      return reader.fail(ErrorCode::WrongKeyType, "node_parents: parents must be node ids");
    Node& node = add_node(reader, nodes, id);
    node.has_parent = true;
    node.parent = parent;
    add_node(reader, nodes, parent);
  }
  for (JsonValue p : node_pairs(reader, meta, "node_meshes")) {
    if (!reader.ok() || !node_pair(p, id, value)) return;
    std::string_view mesh = reader.string(value, "mesh_path");
    std::string_view material = reader.string(value, "material_path");
    Node& node = add_node(reader, nodes, id);
    node.mesh = mesh;
    node.material = material;
    node.has_mesh = true;
  }
}

// Orders the nodes parents first: by id, each after its ancestors. vkguide's engine resolved
// parents by retrying until done, and never ended on a cycle; here a cycle is an error.
static void place_parents_first(JsonReader& reader, NodeMap& nodes,
                                std::vector<NodeMap::iterator>& order) {
  std::vector<NodeMap::iterator> chain;  // the node, its parent, ..., up to a placed node or root
  for (auto it = nodes.begin(); it != nodes.end(); ++it) {
    chain.clear();
    for (auto at = it; at->second.index < 0;) {
      if (at->second.visiting) {
        return reader.fail(
            ErrorCode::InvalidValue,
            "node_parents: node " + std::to_string(at->first) + " is its own ancestor");
      }
      at->second.visiting = true;
      chain.push_back(at);
      if (!at->second.has_parent) break;
      at = nodes.find(at->second.parent);  // present: collect_nodes added every parent
    }
    for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
      (*c)->second.index = int32_t(order.size());
      order.push_back(*c);
    }
  }
}

// Matrix `index` of the blob: 16 little-endian floats, column-major (glm's mat4), the node's
// local transform. Finite and within +-3e38, as read_prefab_info requires of every number.
static void read_matrix(JsonReader& reader, std::span<const std::byte> blob, uint64_t index,
                        float out[16]) {
  const std::byte* p = blob.data() + index * 64;
  for (int k = 0; k < 16; ++k, p += 4) {
    uint32_t bits =
        uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    float v = std::bit_cast<float>(bits);
    if (!is_finite_float(v)) {
      return reader.fail(ErrorCode::InvalidValue,
                         "matrix " + std::to_string(index) + " holds a non-finite number");
    }
    out[k] = v;
  }
}

void read_prefab(JsonReader& reader, JsonValue meta, std::span<const std::byte> blob,
                 PrefabInfo& out) {
  if (blob.size() % 64 != 0) {
    return reader.fail(ErrorCode::InvalidValue, "legacy vkguide prefab blob of " +
                                                    std::to_string(blob.size()) +
                                                    " bytes is not a whole number of 4x4 matrices");
  }
  NodeMap nodes;
  collect_nodes(reader, meta, blob.size() / 64, nodes);
  std::vector<NodeMap::iterator> order;
  if (reader.ok()) place_parents_first(reader, nodes, order);
  if (!reader.ok()) return;
  out.nodes.resize(order.size());
  for (size_t i = 0; i < order.size() && reader.ok(); ++i) {
    const Node& src = order[i]->second;
    PrefabNode& n = out.nodes[i];
    n.name = src.name;
    n.parent = src.has_parent ? nodes.find(src.parent)->second.index : -1;
    n.has_matrix = src.matrix >= 0;
    if (n.has_matrix) read_matrix(reader, blob, uint64_t(src.matrix), n.matrix);
    if (src.has_mesh) {
      n.mesh = src.mesh;
      n.materials = {std::string(src.material)};
    }
  }
  out.legacy = true;
}

}  // namespace assetlib::detail::vkguide
