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
// Two ways in: load_binaryfile() reads a file into an owning AssetFile (one read() for a file of up
// to 4 KiB, two for a larger one); parse_binaryfile() splits bytes already in memory (a mapped
// file, a pack) into a non-owning AssetView, so the caller can decompress straight from them
// without a copy. Everything here is a free function over plain structs: any thread may call any of
// it at once.
//
// Hostile input. Each function says whether it is safe on hostile bytes (a truncated, corrupt or
// crafted file). Safe means: given that every pointer really holds the size passed with it, the
// function reads and writes only inside those buffers, allocates at most what the input justifies
// (docs/robustness.md), terminates, and reports any problem as a Status; it never throws, except
// std::bad_alloc when memory runs out. The chain for an untrusted file is
//   load_binaryfile / parse_binaryfile -> read_texture_info / read_mesh_info -> unpack_*,
// each step trusting only what the previous one returned. Functions that trust their arguments
// (the writers, make_texture_info, meshlet_view...) say what they require.
// On error, output arguments of the readers are left unchanged; destinations of unpack_* may hold
// partial data.
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

// An asset file held in memory (owning). After a successful load_binaryfile, `version` is
// kFormatVersion and 16 + json.size() + blob.size() is the file's size; the type and the JSON are
// not checked yet (read_texture_info / read_mesh_info do that).
struct AssetFile {
  char type[4] = {0, 0, 0, 0};
  uint32_t version = kFormatVersion;
  std::string json;             // metadata, padding included
  std::vector<std::byte> blob;  // compressed chunks
};

// The same, borrowed from bytes someone else owns. Valid while those bytes are (for a view of an
// AssetFile: while the file lives and is not modified).
struct AssetView {
  char type[4] = {0, 0, 0, 0};
  uint32_t version = 0;
  std::string_view json;
  std::span<const std::byte> blob;

  AssetView() = default;
  AssetView(const AssetFile& file);  // NOLINT(google-explicit-constructor): a file is a view
};

// Writes `file` to `path` atomically (write_file_atomically), so a crash never leaves a
// half-written asset. The JSON is padded here if it is not already.
// Trusts `file`: type, version and JSON are written as given. `path` is used as given.
// Errors: InvalidArgument when the JSON or the blob is too large for the header's u32 lengths;
// IoError (message starts with `path`).
Status save_binaryfile(const std::string& path, const AssetFile& file);

// Reads a whole asset file into `out`.
// Safe on hostile files. Before allocating, checks that the type is four characters of an asset
// type (UnknownType: not which type), the version (UnsupportedVersion), the JSON length against
// kMaxJsonSize (InvalidValue) and that the file is exactly 16 + json_length + blob_length bytes
// (TruncatedHeader / LengthMismatch); then allocates exactly the file's size. Other errors:
// FileNotFound, IoError. Messages start with `path`.
// Does not parse the JSON.
Status load_binaryfile(const std::string& path, AssetFile& out);

// Splits `bytes` (a complete asset file) into header, JSON and blob without copying or allocating.
// Safe on hostile bytes: the same checks and errors as load_binaryfile. On success, `out.json` and
// `out.blob` lie inside `bytes` (and are valid while it is); which type it is, and the JSON, are
// not checked yet. `source_name` only labels error messages (a path, a pack entry name).
Status parse_binaryfile(std::span<const std::byte> bytes, AssetView& out,
                        std::string_view source_name = "<memory>");

// The start of an asset file without its blob: what a loader reads first when it wants only part
// of the blob (levels from mip K on: read_texture_info(AssetHead), texture_mips_blob_range).
struct AssetHead {
  char type[4] = {0, 0, 0, 0};
  uint32_t version = kFormatVersion;
  std::string json;          // metadata, padding included
  uint64_t blob_length = 0;  // bytes of blob in the file, after the header and the JSON
};

// Reads the header and the JSON of the asset file at `path` (16 + json_length bytes), not its blob.
// Safe on hostile files, with load_binaryfile's checks and errors (the file's size must match the
// header's lengths); allocates the JSON only.
Status load_asset_head(const std::string& path, AssetHead& out);

// Reads bytes [offset, offset + size) of the blob of the asset file at `path` into `out` (resized
// to `size`): an open, an fstat and a 16-byte read of the header (to see that the file is still
// the one `head` describes), one pread of the range, a close. `head` is that file's, from
// load_asset_head: a range outside head.blob_length is TruncatedHeader and a file whose lengths
// changed since is LengthMismatch, both before allocating. Other errors as load_binaryfile. `out`
// is unchanged on error. To read many ranges of one file, map it (or read the ranges yourself): the
// blob starts at byte 16 + head.json.size().
Status load_blob_range(const std::string& path, const AssetHead& head, uint64_t offset,
                       uint64_t size, std::vector<std::byte>& out);
// The same into memory of the caller's (a staging buffer): destination.size() bytes from
// `offset`. The same checks, before anything is written; on a later read error `destination` may
// hold part of the range.
Status load_blob_range(const std::string& path, const AssetHead& head, uint64_t offset,
                       std::span<std::byte> destination);

// Serialises `file` (header, padded JSON, blob) into one buffer: what save_binaryfile writes.
// Trusts `file`: the JSON (padded) and the blob must each be under 4 GiB; larger lengths are not
// checked here and would be truncated in the header (save_binaryfile checks).
std::vector<std::byte> serialize_binaryfile(const AssetFile& file);

// The header and the padded JSON: every byte before the blob. Writing it and then `file.blob`
// stores the file without copying the blob (for writers with their own file handling).
// Trusts `file` as serialize_binaryfile does.
std::vector<std::byte> serialize_binaryfile_head(const AssetFile& file);

// True when `view.type` equals the 4-char `type` (e.g. "TEXI"). Any view.
bool has_type(const AssetView& view, const char (&type)[5]);

// Codecs a blob's chunks may use. Chunks that a codec does not shrink enough are stored raw
// whatever the codec, so incompressible data unpacks at memcpy speed.
enum class Compression : uint32_t {
  None = 0,  // "None": every chunk stored raw
  LZ4 = 1,   // "LZ4": LZ4 block format (LZ4 and LZ4-HC write the same format)
  // Read-only, never written: every chunk is one LZ4 block whatever its sizes (packed_size may
  // equal or exceed raw_size). Legacy vkguide files compress their blob this way (docs/format.md,
  // "Legacy vkguide files"); pack_texture / pack_mesh refuse it (UnknownCompression).
  LegacyLZ4 = 2,
};

// Packing settings shared by every asset type. pack_texture / pack_mesh refuse a chunk_size
// outside 1 KiB..1 GiB or an lz4_hc_level outside 0..12 (InvalidArgument), and an unknown
// compression (UnknownCompression).
struct PackOptions {
  Compression compression = Compression::LZ4;
  int lz4_hc_level = 0;            // 0: fast LZ4; 1..12: LZ4-HC (slower bake, same decoder)
  uint32_t chunk_size = 1u << 20;  // upper bound on one chunk's unpacked bytes
};

// One independently compressed piece of the blob. A chunk with packed_size == raw_size is stored
// raw; otherwise it is compressed with the file's codec (under LegacyLZ4 every chunk is
// compressed).
struct Chunk {
  uint64_t raw_offset = 0;  // where its bytes go in the unpacked data
  uint64_t raw_size = 0;
  uint64_t packed_offset = 0;  // where it starts in the blob
  uint64_t packed_size = 0;
};

}  // namespace assetlib

namespace assetlib {

// The version of the LZ4 library assetlib packs and unpacks with ("1.9.4"), for --version lines:
// lz4 is linked privately, so a program using assetlib cannot ask LZ4 itself.
std::string lz4_version();

// Unpacks one chunk of `blob` into `dst` (at least chunk.raw_size bytes), so a loader can spread
// the chunks of a large asset over several threads, or unpack only the ones it needs. The chunks
// come from TextureInfo::chunks / MeshInfo::chunks, whose unpacked layout is checked by
// read_texture_info / read_mesh_info; chunk.raw_offset says where `dst` goes in the unpacked data.
// Safe on hostile bytes and on any `chunk` values: reads only
// blob[packed_offset, packed_offset + packed_size) (TruncatedHeader when that is not inside
// `blob_size`) and writes only dst[0, raw_size) (DestinationTooSmall when dst_size < raw_size,
// before writing). Corrupt data: CorruptBlob, or SizeMismatch when it decodes to another size.
// On success exactly raw_size bytes were written. Messages name the chunk, not the file.
// Cache: where a chunk is a long copy (stored raw, or one short pattern repeated; 256 KiB and
// more), it is written with non-temporal stores on x86, past the cache: right for a staging
// buffer the GPU reads next, and a CPU that reads the bytes back at once fetches them from memory.
// Every unpack_* function unpacks through this one.
Status unpack_chunk(Compression compression, const Chunk& chunk, const void* blob, size_t blob_size,
                    void* dst, size_t dst_size);

// Writes `parts` one after another into `path` atomically: a uniquely named temporary file in the
// same folder ("<path>.assetlib-tmp-<pid>-<n>"), then a rename over `path`. On failure the
// temporary file is removed and `path` is untouched (IoError, message starts with `path`). Not
// fsync'd: it survives a killed process, not a power cut. `path` is used as given (folders on the
// way may be symlinks): not for paths taken from untrusted data. Used by save_binaryfile, and by
// tools writing manifests and caches.
Status write_file_atomically(const std::string& path,
                             std::span<const std::span<const std::byte>> parts);

}  // namespace assetlib
