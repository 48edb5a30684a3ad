// assetlib: texture assets ("TEXI").
//
// The unpacked bytes are exactly what vkCmdCopyBufferToImage expects: mip levels stored
// contiguously from level 0 (largest) down, each tightly packed row by row, so the runtime issues
// one VkBufferImageCopy per level with bufferOffset = mips[i].offset, bufferRowLength = 0.
//
//   assetlib::AssetFile file;
//   assetlib::TextureInfo info;
//   if (!assetlib::load_binaryfile(path, file) || !assetlib::read_texture_info(file, info)) ...
//   void* staging = map_staging_buffer(info.total_size);
//   assetlib::unpack_texture(info, file.blob.data(), file.blob.size(), staging, info.total_size);
//
// Hostile input (see asset_file.h): read_texture_info and unpack_texture / unpack_texture_mips are
// safe on hostile bytes; the unpackers trust only an info that read_texture_info returned.
#pragma once

#include <assetlib/asset_file.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assetlib {

enum class TextureFormat : uint32_t {
  Unknown = 0,
  RGBA8_UNORM = 1,    // VK_FORMAT_R8G8B8A8_UNORM: data (normal maps, masks)
  RGBA8_SRGB = 2,     // VK_FORMAT_R8G8B8A8_SRGB: colour
  RGBA16_UNORM = 3,   // VK_FORMAT_R16G16B16A16_UNORM: 16-bit data
  RGBA16_SFLOAT = 4,  // VK_FORMAT_R16G16B16A16_SFLOAT: HDR colour (linear, half floats)
  // Block-compressed: 4x4 texel blocks, rows of blocks tightly packed, edge blocks padded.
  BC1_RGB_UNORM = 5,  // VK_FORMAT_BC1_RGB_UNORM_BLOCK: 8 bytes/block, opaque data
  BC1_RGB_SRGB = 6,   // VK_FORMAT_BC1_RGB_SRGB_BLOCK: 8 bytes/block, opaque colour
  BC3_UNORM = 7,      // VK_FORMAT_BC3_UNORM_BLOCK: 16 bytes/block, data with alpha
  BC3_SRGB = 8,       // VK_FORMAT_BC3_SRGB_BLOCK: 16 bytes/block, colour with alpha
  BC4_UNORM = 9,      // VK_FORMAT_BC4_UNORM_BLOCK: 8 bytes/block, one channel (R)
  BC5_UNORM = 10,     // VK_FORMAT_BC5_UNORM_BLOCK: 16 bytes/block, two channels (RG): normal maps
};

struct TextureMip {
  uint32_t width = 0;
  uint32_t height = 0;
  uint64_t offset = 0;  // bytes from the start of the unpacked data
  uint64_t size = 0;    // bytes of this level
};

struct TextureInfo {
  TextureFormat format = TextureFormat::Unknown;
  uint32_t width = 0;                          // of level 0
  uint32_t height = 0;                         // of level 0
  std::vector<TextureMip> mips;                // level 0 first; at least one
  uint64_t total_size = 0;                     // unpacked bytes of all levels
  Compression compression = Compression::LZ4;  // filled by read_texture_info
  std::string original_file;                   // source path, for tools and error messages
  std::vector<Chunk> chunks;  // blob layout, filled by read_texture_info / pack_texture
  // Filled by read_texture_info: true for a legacy vkguide texture (read-only: rebake its source to
  // get mips and block compression). Ignored by pack_texture.
  bool legacy = false;
};

// The format tables below take any value: an unknown format or name gives the stated fallback.

// Stable name used in the JSON ("RGBA8_SRGB"), or "Unknown".
const char* texture_format_name(TextureFormat format);
// The VkFormat enum value for `format`, without needing the Vulkan headers (0 = undefined).
uint32_t texture_format_vk(TextureFormat format);
// The format named `name` in the JSON (exact, case-sensitive), or Unknown.
TextureFormat texture_format_from_name(std::string_view name);
// Texels per block side: 4 for BCn formats, 1 otherwise (Unknown included).
uint32_t texture_block_size(TextureFormat format);
// Bytes of one tightly packed level of `width` x `height` texels (whole blocks for BCn); 0 for
// Unknown. Exact for sides below 2^30 (the format allows 32768); larger products wrap.
uint64_t texture_level_size(TextureFormat format, uint32_t width, uint32_t height);
// Number of levels in a full chain down to 1x1: floor(log2(max(width, height))) + 1 (1 for 0x0).
uint32_t texture_full_mip_count(uint32_t width, uint32_t height);

// Builds the description of a `width` x `height` texture with `mip_count` levels (each half the
// previous, rounded down, never below 1), laid out contiguously. Chunks stay empty, so the result
// describes pixels for pack_texture; it cannot be used to unpack.
// Trusts its arguments: mip_count is clamped to 1..full chain; format and sides are not checked
// (pack_texture checks them).
TextureInfo make_texture_info(TextureFormat format, uint32_t width, uint32_t height,
                              uint32_t mip_count = 1);

// Reads the metadata of a "TEXI" asset and checks it against the blob, so the unpackers need no
// further validation of the file.
// Safe on hostile bytes (any view, e.g. from parse_binaryfile). The JSON is parsed without
// exceptions, in memory linear in its size. Errors: UnknownType, InvalidJson, MissingKey,
// WrongKeyType, UnknownCompression, InvalidValue; messages start with "TEXI metadata" and do not
// name the file (prefix it yourself). `info` is left unchanged on error.
// Once warm, allocates nothing when `info` is reused: the same asset again, or two in turn, read
// into one `info` (the calling thread keeps a JSON parser and a scratch info, which trades memory
// with `info`: tens of KB, about 1 MB at most after a 64 KiB header). Legacy files allocate.
// On success: format is known; width and height are 1..32768; mips are level 0 onwards of the full
// chain, offsets and sizes exactly as make_texture_info lays them out, and total_size is their sum;
// the chunks are contiguous and cover exactly [0, total_size) and exactly `file.blob`, each at most
// 1 GiB unpacked and within what LZ4 can expand, so total_size < 256 x the file size: allocating
// it is justified by the file. Nothing is decompressed: corrupt chunk data is found by unpack_*.
// Texel values are never checked (every bit pattern is a valid texel or BCn block).
// Reads the level count ("mip_count") and, from files written before it, the level list ("mips").
// Also reads vkguide's legacy textures ("buffer_size" and neither of those; docs/format.md,
// "Legacy vkguide files"): RGBA8_SRGB, one level, `legacy` set, compression None or LegacyLZ4 (one
// chunk whose packed size may exceed its raw size); the guarantees above hold otherwise.
Status read_texture_info(const AssetView& file, TextureInfo& info);

// The same for a file read without its blob (load_asset_head): the chunk table is checked against
// head.blob_length. Same contract otherwise.
Status read_texture_info(const AssetHead& head, TextureInfo& info);

// A byte range of an asset's blob.
struct BlobRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

// The blob bytes that hold levels first_mip..last of `info`: a partial read fetches only these
// (load_blob_range) and unpacks them with texture_unpack_job(..., blob_offset = out.offset).
// Requires `info` from a successful read_texture_info. Errors: InvalidArgument (first_mip out of
// range), InvalidValue (a chunk straddles levels first_mip - 1 and first_mip).
Status texture_mips_blob_range(const TextureInfo& info, uint32_t first_mip, BlobRange& out);

// Compresses `pixels` (info.total_size bytes, the layout above) into `out`. `info` gives format,
// dimensions, mips and original_file; its chunks and compression are ignored and the ones used are
// written into the metadata.
// Checks `info` as read_texture_info does (InvalidValue), pixels_size == info.total_size
// (InvalidArgument) and `options` (see PackOptions). Trusts `pixels` to hold pixels_size bytes.
// `out` is written only on success.
Status pack_texture(const TextureInfo& info, const void* pixels, size_t pixels_size, AssetFile& out,
                    const PackOptions& options = {});

// Unpacks every level into `dst` (at least info.total_size bytes). `src`/`src_size` is the blob.
// Same contract as unpack_texture_mips with first_mip = 0.
Status unpack_texture(const TextureInfo& info, const void* src, size_t src_size, void* dst,
                      size_t dst_size);

// Unpacks levels first_mip..last into `dst`, level first_mip at offset 0; the larger levels are
// neither read nor decompressed. Needs mips[first_mip..] bytes: total_size -
// mips[first_mip].offset. Requires `info` from a successful read_texture_info (an info built by
// hand is not validated). Safe on hostile bytes in `src` (any src_size, even another file's blob):
// reads stay inside [src, src + src_size) (TruncatedHeader when a chunk lies outside it); corrupt
// data is CorruptBlob / SizeMismatch. Writes only dst[0, needed); dst_size < needed is
// DestinationTooSmall, before anything is written. first_mip >= mips.size() is InvalidArgument; a
// chunk that straddles level first_mip - 1 and first_mip (never written by pack_texture) is
// InvalidValue. No alignment needed. On success all `needed` bytes were written; on error `dst` may
// hold partial data.
Status unpack_texture_mips(const TextureInfo& info, uint32_t first_mip, const void* src,
                           size_t src_size, void* dst, size_t dst_size);

}  // namespace assetlib
