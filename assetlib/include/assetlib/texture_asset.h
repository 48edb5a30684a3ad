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
#pragma once

#include <assetlib/asset_file.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assetlib {

enum class TextureFormat : uint32_t {
  Unknown = 0,
  RGBA8_UNORM = 1,  // VK_FORMAT_R8G8B8A8_UNORM: data (normal maps, masks)
  RGBA8_SRGB = 2,   // VK_FORMAT_R8G8B8A8_SRGB: colour
  RGBA16_UNORM = 3,  // VK_FORMAT_R16G16B16A16_UNORM: 16-bit data
  RGBA16_SFLOAT = 4, // VK_FORMAT_R16G16B16A16_SFLOAT: HDR colour (linear, half floats)
  // Block-compressed: 4x4 texel blocks, rows of blocks tightly packed, edge blocks padded.
  BC1_RGB_UNORM = 5,   // VK_FORMAT_BC1_RGB_UNORM_BLOCK: 8 bytes/block, opaque data
  BC1_RGB_SRGB = 6,    // VK_FORMAT_BC1_RGB_SRGB_BLOCK: 8 bytes/block, opaque colour
  BC3_UNORM = 7,       // VK_FORMAT_BC3_UNORM_BLOCK: 16 bytes/block, data with alpha
  BC3_SRGB = 8,        // VK_FORMAT_BC3_SRGB_BLOCK: 16 bytes/block, colour with alpha
  BC4_UNORM = 9,       // VK_FORMAT_BC4_UNORM_BLOCK: 8 bytes/block, one channel (R)
  BC5_UNORM = 10,      // VK_FORMAT_BC5_UNORM_BLOCK: 16 bytes/block, two channels (RG): normal maps
};

struct TextureMip {
  uint32_t width = 0;
  uint32_t height = 0;
  uint64_t offset = 0;  // bytes from the start of the unpacked data
  uint64_t size = 0;    // bytes of this level
};

struct TextureInfo {
  TextureFormat format = TextureFormat::Unknown;
  uint32_t width = 0;   // of level 0
  uint32_t height = 0;  // of level 0
  std::vector<TextureMip> mips;   // level 0 first; at least one
  uint64_t total_size = 0;        // unpacked bytes of all levels
  Compression compression = Compression::LZ4;  // filled by read_texture_info
  std::string original_file;      // source path, for tools and error messages
  std::vector<Chunk> chunks;      // blob layout, filled by read_texture_info / pack_texture
};

// Stable name used in the JSON ("RGBA8_SRGB"), or "Unknown".
const char* texture_format_name(TextureFormat format);
// The VkFormat enum value for `format`, without needing the Vulkan headers (0 = undefined).
uint32_t texture_format_vk(TextureFormat format);
// The format named `name` in the JSON, or Unknown.
TextureFormat texture_format_from_name(std::string_view name);
// Texels per block side: 4 for BCn formats, 1 otherwise.
uint32_t texture_block_size(TextureFormat format);
// Bytes of one tightly packed level of `width` x `height` texels (whole blocks for BCn).
uint64_t texture_level_size(TextureFormat format, uint32_t width, uint32_t height);
// Number of levels in a full chain down to 1x1: floor(log2(max(width, height))) + 1.
uint32_t texture_full_mip_count(uint32_t width, uint32_t height);

// Builds the description of a `width` x `height` texture with `mip_count` levels (each half the
// previous, rounded down, never below 1), laid out contiguously. Chunks stay empty.
TextureInfo make_texture_info(TextureFormat format, uint32_t width, uint32_t height,
                              uint32_t mip_count = 1);

// Reads the metadata of a "TEXI" asset and checks it (sizes, offsets, chunk table) against the
// blob, so unpack_texture() needs no further validation of the file.
Status read_texture_info(const AssetView& file, TextureInfo& info);

// Compresses `pixels` (info.total_size bytes, the layout above) into `out`. `info` gives format,
// dimensions, mips and original_file; its chunks and compression are ignored and the ones used are
// written into the metadata.
Status pack_texture(const TextureInfo& info, const void* pixels, size_t pixels_size,
                    AssetFile& out, const PackOptions& options = {});

// Unpacks every level into `dst` (at least info.total_size bytes). `src`/`src_size` is the blob.
Status unpack_texture(const TextureInfo& info, const void* src, size_t src_size, void* dst,
                      size_t dst_size);

// Unpacks levels first_mip..last into `dst`, level first_mip at offset 0; the larger levels are
// neither read nor decompressed. Needs mips[first_mip..] bytes: total_size - mips[first_mip].offset.
Status unpack_texture_mips(const TextureInfo& info, uint32_t first_mip, const void* src,
                           size_t src_size, void* dst, size_t dst_size);

}  // namespace assetlib
