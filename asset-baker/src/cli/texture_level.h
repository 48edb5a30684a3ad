// Unpacking one mip level of a baked texture on its own, for `info --sources` (PSNR of level 0) and
// `export --mip N`: only that level's chunks are decompressed, into a buffer of that level's size,
// never the whole chain.
#pragma once

#include "common/bake_status.h"
#include "texture/texture_readback.h"

#include <assetlib/texture_asset.h>

#include <span>
#include <string>
#include <vector>

namespace baker {

// Unpacks level `mip` (< info.mips.size()) of the texture `path`, read by read_texture_info, into
// `out` (resized to the level's size; may throw std::bad_alloc). Chunks never straddle levels
// (pack_texture); one that does, or corrupt data, is InvalidAsset about `path`.
inline BakeStatus unpack_level(const assetlib::TextureInfo& info, std::span<const std::byte> blob,
                               uint32_t mip, std::vector<std::byte>& out, const std::string& path) {
  const assetlib::TextureMip& level = info.mips.at(mip);
  uint64_t begin = level.offset, end = level.offset + level.size, covered = 0;
  out.assign(size_t(level.size), std::byte{0});
  for (const assetlib::Chunk& c : info.chunks) {
    if (c.raw_offset + c.raw_size <= begin || c.raw_offset >= end) continue;
    if (c.raw_offset < begin || c.raw_offset + c.raw_size > end) {
      return BakeStatus::failure(
          BakeError::InvalidAsset, path,
          "a chunk straddles mip level " + std::to_string(mip) + " and the next");
    }
    size_t at = size_t(c.raw_offset - begin);
    if (assetlib::Status s = assetlib::unpack_chunk(info.compression, c, blob.data(), blob.size(),
                                                    out.data() + at, out.size() - at);
        !s) {
      return BakeStatus::from_memory_call(s, BakeError::InvalidAsset, path);
    }
    covered += c.raw_size;
  }
  if (covered != level.size) {
    return BakeStatus::failure(BakeError::InvalidAsset, path,
                               "the chunks do not cover mip level " + std::to_string(mip));
  }
  return {};
}

// Level `mip` as 8-bit RGBA (texture/texture_readback.h), from the level alone as unpack_level
// gives it.
inline std::vector<uint8_t> level_alone_to_rgba8(const assetlib::TextureInfo& info, uint32_t mip,
                                                 std::span<const std::byte> level) {
  assetlib::TextureInfo shifted = info;
  shifted.mips.at(mip).offset = 0;  // level_to_rgba8 finds the level at its offset
  return level_to_rgba8(shifted, mip, level);
}

}  // namespace baker
