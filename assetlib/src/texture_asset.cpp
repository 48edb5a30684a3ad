// Texture assets: metadata <-> TextureInfo, and packing/unpacking of the mip chain.
#include <assetlib/texture_asset.h>

#include "chunked_blob.h"
#include "legacy_vkguide.h"
#include "metadata.h"
#include "no_throw.h"

namespace assetlib {
namespace {

using detail::json;

// Vulkan guarantees 4096 and most GPUs stop at 16384 or 32768; anything larger is a broken file.
constexpr uint32_t kMaxDimension = 32768;

bool same_layout(const std::vector<TextureMip>& a, const std::vector<TextureMip>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].width != b[i].width || a[i].height != b[i].height || a[i].offset != b[i].offset ||
        a[i].size != b[i].size) {
      return false;
    }
  }
  return true;
}

// Checks format, dimensions and that the mips are the contiguous chain make_texture_info builds.
Status check_layout(const TextureInfo& info, const char* context) {
  auto invalid = [&](const std::string& what) {
    return Status::error(ErrorCode::InvalidValue, std::string(context) + ": " + what);
  };
  if (texture_level_size(info.format, 1, 1) == 0) return invalid("unknown texture format");
  if (info.width == 0 || info.height == 0 || info.width > kMaxDimension ||
      info.height > kMaxDimension) {
    return invalid("dimensions " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                   " outside 1.." + std::to_string(kMaxDimension));
  }
  uint32_t full = texture_full_mip_count(info.width, info.height);
  if (info.mips.empty() || info.mips.size() > full) {
    return invalid(std::to_string(info.mips.size()) + " mip levels, expected 1.." +
                   std::to_string(full));
  }
  TextureInfo expected =
      make_texture_info(info.format, info.width, info.height, uint32_t(info.mips.size()));
  if (!same_layout(info.mips, expected.mips) || info.total_size != expected.total_size) {
    return invalid("mip levels are not the contiguous chain of a " + std::to_string(info.width) +
                   "x" + std::to_string(info.height) + " texture");
  }
  return {};
}

void read_mips(detail::JsonReader& reader, const json& meta, std::vector<TextureMip>& mips) {
  const json& levels = reader.array(meta, "mips");
  if (!reader.ok()) return;
  if (levels.size() > 64) {
    reader.fail(ErrorCode::InvalidValue, "too many mip levels");
    return;
  }
  mips.clear();
  for (const json& level : levels) {
    TextureMip mip;
    mip.width = reader.u32(level, "width");
    mip.height = reader.u32(level, "height");
    mip.offset = reader.u64(level, "offset");
    mip.size = reader.u64(level, "size");
    mips.push_back(mip);
  }
}

Status read_texture_info_throwing(const AssetView& file, TextureInfo& info) {
  json meta;
  if (Status s = detail::parse_metadata(file, "TEXI", meta); !s) return s;
  detail::JsonReader reader("TEXI metadata");
  TextureInfo out;
  const bool legacy = detail::vkguide::is_texture(meta);
  if (legacy) {
    detail::vkguide::read_texture(reader, meta, out);
  } else {
    out.format = reader.named(meta, "format", texture_format_from_name);
    out.width = reader.u32(meta, "width");
    out.height = reader.u32(meta, "height");
    out.total_size = reader.u64(meta, "total_size");
    out.original_file = reader.string(meta, "original_file");
    read_mips(reader, meta, out.mips);
  }
  if (!reader.ok()) return reader.status();
  if (Status s = check_layout(out, "TEXI metadata"); !s) return s;
  // What the caller will allocate to unpack it: checked before the chunk table is even read.
  if (Status s = detail::check_unpacked_size(out.total_size, "TEXI metadata"); !s) return s;
  if (legacy) {
    detail::vkguide::read_chunks(reader, out.compression, {out.total_size}, file.blob.size(),
                                 out.chunks);
  } else {
    detail::read_chunk_table(reader, meta, out.total_size, file.blob.size(), out.compression,
                             out.chunks);
  }
  if (!reader.ok()) return reader.status();
  info = std::move(out);
  return {};
}

Status pack_texture_throwing(const TextureInfo& info, const void* pixels, size_t pixels_size,
                             AssetFile& out, const PackOptions& options) {
  if (Status s = check_layout(info, "pack_texture"); !s) return s;
  if (Status s = detail::check_unpacked_size(info.total_size, "pack_texture"); !s) return s;
  if (pixels_size != info.total_size) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack_texture: " + std::to_string(pixels_size) + " bytes given, " +
                             std::to_string(info.total_size) + " expected");
  }
  std::vector<detail::RawSection> sections;
  for (const TextureMip& mip : info.mips) {
    sections.push_back({static_cast<const std::byte*>(pixels) + mip.offset, mip.size});
  }
  std::vector<std::byte> blob;
  std::vector<Chunk> chunks;
  if (Status s = detail::pack_sections(sections, options, blob, chunks); !s) return s;

  json meta;
  meta["format"] = texture_format_name(info.format);
  meta["width"] = info.width;
  meta["height"] = info.height;
  meta["total_size"] = info.total_size;
  meta["original_file"] = info.original_file;
  json mips = json::array();
  for (const TextureMip& mip : info.mips) {
    mips.push_back(
        {{"width", mip.width}, {"height", mip.height}, {"offset", mip.offset}, {"size", mip.size}});
  }
  meta["mips"] = std::move(mips);
  detail::write_chunk_table(meta, options.compression, chunks);
  return detail::finish_asset(out, "TEXI", meta, std::move(blob), "pack_texture");
}

}  // namespace

Status read_texture_info(const AssetView& file, TextureInfo& info) {
  return detail::no_throw("TEXI metadata", [&] { return read_texture_info_throwing(file, info); });
}

Status pack_texture(const TextureInfo& info, const void* pixels, size_t pixels_size, AssetFile& out,
                    const PackOptions& options) {
  return detail::no_throw("pack_texture", [&] {
    return pack_texture_throwing(info, pixels, pixels_size, out, options);
  });
}

Status unpack_texture(const TextureInfo& info, const void* src, size_t src_size, void* dst,
                      size_t dst_size) {
  return unpack_texture_mips(info, 0, src, src_size, dst, dst_size);
}

Status unpack_texture_mips(const TextureInfo& info, uint32_t first_mip, const void* src,
                           size_t src_size, void* dst, size_t dst_size) {
  // Allocates nothing but error messages.
  return detail::no_throw("unpack_texture_mips", [&] {
    if (first_mip >= info.mips.size()) {
      return Status::error(ErrorCode::InvalidArgument, "unpack_texture_mips: level " +
                                                           std::to_string(first_mip) + " of " +
                                                           std::to_string(info.mips.size()));
    }
    return detail::unpack_range(info.compression, info.chunks, info.mips[first_mip].offset,
                                info.total_size, src, src_size, dst, dst_size);
  });
}

}  // namespace assetlib
