// Internal: reading the legacy asset files of vkguide's asset system (github.com/vblanco20-1/
// vulkan-guide, folder assetlib/), which many engines started from. They have our container (a
// 4-char type, version 1, JSON, blob) but other JSON keys and one LZ4 block for a whole blob;
// docs/format.md, "Legacy vkguide files", is the reference for what is read and how it maps.
//
// Read-only. Each function translates legacy metadata into the info struct of our format, so that
// the existing checks (layout, limits) run on it and the unpackers work unchanged; the one
// exception is a legacy LZ4 mesh, whose single block holds both buffers (unpack_mesh_whole).
// Nothing here writes a legacy file.
//
// Included only by the four asset readers, each using its own part.
#pragma once

#include "metadata.h"

#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/prefab_asset.h>
#include <assetlib/texture_asset.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

namespace assetlib::detail::vkguide {

// Which metadata is vkguide's: its key for the data size, without the key our format has instead.
// (A legacy material may also be told by its type, "MATX": read_material_info checks that.)
bool is_texture(JsonValue meta);
bool is_mesh(JsonValue meta);
bool is_material(JsonValue meta);
bool is_prefab(JsonValue meta);

// The chunk table of a legacy blob holding `sections` (unpacked sizes, in order), in place of the
// "chunks" key vkguide does not write.
void read_chunks(JsonReader& reader, Compression compression,
                 std::initializer_list<uint64_t> sections, uint64_t blob_size,
                 std::vector<Chunk>& chunks);

// vkguide's texture: "format" "RGBA8", "width", "height", "buffer_size", "original_file",
// "compression"; one level, rows tightly packed (what its engine copied into the image).
// Fills everything but the chunk table; texture_asset.cpp checks the layout as for any texture.
void read_texture(JsonReader& reader, JsonValue meta, TextureInfo& out);

// vkguide's mesh: "vertex_format", "vertex_buffer_size", "index_buffer_size", "index_size",
// "original_file", "compression", "bounds"; the blob holds the vertex buffer, then the index
// buffer. Becomes a mesh of one "default" material and one submesh drawing every index, what
// pack_mesh writes for a mesh given none. Fills everything but the chunk table and the buffer
// sizes, from a default MeshInfo; mesh_asset.cpp checks the layout as for any mesh.
void read_mesh(JsonReader& reader, JsonValue meta, MeshInfo& out);

// unpack_mesh for a LegacyLZ4 mesh: its one LZ4 block holds the vertex buffer and then the index
// buffer, and LZ4 cannot start decoding inside a block, so it is decoded whole into a temporary
// buffer (at most kMaxChunkSize, as read_chunks checked) and split. Both destinations are checked
// before anything is decoded, the vertex buffer first.
Status unpack_mesh_whole(const MeshInfo& info, const void* src, size_t src_size, void* vertex_dst,
                         size_t vertex_dst_size, void* index_dst, size_t index_dst_size);

// vkguide's material: "baseEffect" (its engine's pipeline name), "textures" (slot name -> texture
// path; its baker writes "baseColor" only), "customProperties" (importer strings), and
// "transparency" ("transparent", "masked", absent when opaque). Metadata only. What our material
// can hold of it: the base colour texture and the alpha mode; the rest is not represented. The
// factors are those of a plain textured dielectric (vkguide's shader had no metalness).
void read_material(JsonReader& reader, JsonValue meta, uint64_t blob_size, MaterialInfo& out);

// vkguide's prefab: four maps keyed by node id (see collect_nodes) and a blob of 4x4 float
// matrices. A node with a mesh gets one material, as vkguide drew each node with one.
void read_prefab(JsonReader& reader, JsonValue meta, std::span<const std::byte> blob,
                 PrefabInfo& out);

}  // namespace assetlib::detail::vkguide
