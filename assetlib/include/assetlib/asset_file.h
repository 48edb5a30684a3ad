// assetlib: the asset container.
//
// Every asset file is, little-endian (docs/format.md is the reference):
//
//   char     type[4]       "TEXI" texture, "MESH" mesh
//   uint32_t version       container + asset layout version (kFormatVersion)
//   uint32_t json_length   bytes of JSON metadata, including trailing-space padding
//   uint32_t blob_length   bytes of blob
//   char     json[json_length]   UTF-8 JSON object; padded so the blob starts 16-byte aligned
//   uint8_t  blob[blob_length]   independently compressed chunks listed in the JSON
//
// Two ways in: load_binaryfile() reads a file into an owning AssetFile (three reads: header, json,
// blob); parse_binaryfile() splits bytes already in memory (a mapped file, a pack) into a
// non-owning AssetView, so the caller can decompress straight from them without a copy.
// Everything here is a free function over plain structs: any thread may call any of it at once.
#pragma once

#include <assetlib/status.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assetlib {

// The version this build writes and reads. See "Version policy" in docs/format.md.
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr size_t kHeaderSize = 16;
inline constexpr size_t kBlobAlignment = 16;

// An asset file held in memory (owning).
struct AssetFile {
  char type[4] = {0, 0, 0, 0};
  uint32_t version = kFormatVersion;
  std::string json;              // metadata, padding included
  std::vector<std::byte> blob;   // compressed chunks
};

// The same, borrowed from bytes someone else owns. Valid while those bytes are.
struct AssetView {
  char type[4] = {0, 0, 0, 0};
  uint32_t version = 0;
  std::string_view json;
  std::span<const std::byte> blob;

  AssetView() = default;
  AssetView(const AssetFile& file);  // NOLINT(google-explicit-constructor): a file is a view
};

// Writes `file` to `path` atomically: a temporary file in the same folder, then a rename, so a
// crash never leaves a half-written asset. The JSON is padded here if it is not already.
Status save_binaryfile(const std::string& path, const AssetFile& file);

// Reads a whole asset file. Checks the header against the file size before allocating anything.
Status load_binaryfile(const std::string& path, AssetFile& out);

// Splits `bytes` (a complete asset file) into header, JSON and blob without copying.
// `source_name` only labels error messages (a path, a pack entry name).
Status parse_binaryfile(std::span<const std::byte> bytes, AssetView& out,
                        std::string_view source_name = "<memory>");

// Serialises `file` (header, padded JSON, blob) into one buffer: what save_binaryfile writes.
std::vector<std::byte> serialize_binaryfile(const AssetFile& file);

// True when `view.type` equals the 4-char `type` (e.g. "TEXI").
bool has_type(const AssetView& view, const char (&type)[5]);

// Codecs a blob's chunks may use. Chunks that a codec does not shrink enough are stored raw
// whatever the codec, so incompressible data unpacks at memcpy speed.
enum class Compression : uint32_t {
  None = 0,  // "None": every chunk stored raw
  LZ4 = 1,   // "LZ4": LZ4 block format (LZ4 and LZ4-HC write the same format)
};

// Packing settings shared by every asset type.
struct PackOptions {
  Compression compression = Compression::LZ4;
  int lz4_hc_level = 0;               // 0: fast LZ4; 1..12: LZ4-HC (slower bake, same decoder)
  uint32_t chunk_size = 1u << 20;     // upper bound on one chunk's unpacked bytes
};

// One independently compressed piece of the blob. A chunk with packed_size == raw_size is stored
// raw; otherwise it is compressed with the file's codec.
struct Chunk {
  uint64_t raw_offset = 0;   // where its bytes go in the unpacked data
  uint64_t raw_size = 0;
  uint64_t packed_offset = 0;  // where it starts in the blob
  uint64_t packed_size = 0;
};

}  // namespace assetlib

namespace assetlib {

// Unpacks one chunk of `blob` into `dst` (at least chunk.raw_size bytes), so a loader can spread
// the chunks of a large asset over several threads, or unpack only the ones it needs.
// read_texture_info / read_mesh_info have already checked the chunk lies inside the blob.
Status unpack_chunk(Compression compression, const Chunk& chunk, const void* blob,
                    size_t blob_size, void* dst, size_t dst_size);

// Writes `parts` one after another into `path` atomically: a uniquely named temporary file in the
// same folder, then a rename over `path`. On failure the temporary file is removed and `path` is
// untouched. Used by save_binaryfile, and by tools writing manifests and caches.
Status write_file_atomically(const std::string& path,
                             std::span<const std::span<const std::byte>> parts);

}  // namespace assetlib
