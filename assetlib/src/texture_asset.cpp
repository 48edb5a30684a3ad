// Texture assets: metadata <-> TextureInfo, and packing/unpacking of the mip chain.
#include <assetlib/texture_asset.h>

#include "chunked_blob.h"
#include "legacy_vkguide.h"
#include "metadata.h"
#include "mip_chain.h"
#include "no_throw.h"

#include <algorithm>
#include <cstring>

namespace assetlib {
namespace {

using detail::json;

// Vulkan guarantees 4096 and most GPUs stop at 16384 or 32768; anything larger is a broken file.
constexpr uint32_t kMaxDimension = 32768;

// True when `info.mips` are the contiguous chain make_texture_info lays out (level i is
// max(1, side >> i), right after level i - 1) and total_size is its sum. Computed level by level:
// building the expected chain would allocate on every read.
bool is_contiguous_chain(const TextureInfo& info) {
  uint64_t offset = 0;
  for (size_t level = 0; level < info.mips.size(); ++level) {
    const TextureMip& mip = info.mips[level];
    uint32_t width = detail::mip_side(info.width, uint32_t(level));
    uint32_t height = detail::mip_side(info.height, uint32_t(level));
    if (mip.width != width || mip.height != height || mip.offset != offset ||
        mip.size != texture_level_size(info.format, width, height)) {
      return false;
    }
    offset += mip.size;
  }
  return info.total_size == offset;
}

// Checks format, dimensions and that the mips are the contiguous chain make_texture_info builds.
// Allocates nothing but error messages.
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
  if (!is_contiguous_chain(info)) {
    return invalid("mip levels are not the contiguous chain of a " + std::to_string(info.width) +
                   "x" + std::to_string(info.height) + " texture");
  }
  return {};
}

// The keys read from TEXI metadata and from each of its "mips" (written before "mip_count"
// replaced them), in the order pack_texture writes them.
constexpr detail::KeySet kTextureKeys{"chunks",        "compression", "format",
                                      "height",        "mip_count",   "mips",
                                      "original_file", "total_size",  "width"};
constexpr detail::KeySet kMipKeys{"height", "offset", "size", "width"};

// Bounds what a hostile "mips" array or "mip_count" makes a reader lay out; the real bound,
// texture_full_mip_count, is checked with the rest of the layout.
constexpr uint64_t kMaxMipLevels = 64;

// The chain "mip_count" stands for; check_layout then checks the count and total_size.
void read_mip_count(detail::JsonReader& reader, const detail::Member& member, TextureInfo& info) {
  uint64_t count = reader.u64(member, kMaxMipLevels);
  if (!reader.ok()) return;
  info.mips.clear();
  detail::lay_out_mip_chain(info.format, info.width, info.height, uint32_t(count), info.mips);
}

void read_mips(detail::JsonReader& reader, const detail::Member& member,
               std::vector<TextureMip>& mips) {
  detail::JsonArray levels = reader.array(member);
  if (!reader.ok()) return;
  if (levels.size() > kMaxMipLevels) {
    reader.fail(ErrorCode::InvalidValue, "too many mip levels");
    return;
  }
  mips.clear();
  for (detail::JsonValue level : levels) {
    detail::Members<kMipKeys> m(reader, level);
    TextureMip mip;
    mip.width = reader.u32(m["width"]);
    mip.height = reader.u32(m["height"]);
    mip.offset = reader.u64(m["offset"]);
    mip.size = reader.u64(m["size"]);
    mips.push_back(mip);
  }
}

// `info` as a default TextureInfo that keeps the memory of its vectors and string.
void reset_keeping_memory(TextureInfo& info) {
  TextureInfo fresh;
  fresh.mips.swap(info.mips);
  fresh.chunks.swap(info.chunks);
  fresh.original_file.swap(info.original_file);
  fresh.mips.clear();
  fresh.chunks.clear();
  fresh.original_file.clear();
  info = std::move(fresh);
}

size_t bytes_held(const TextureInfo& info) {
  return info.mips.capacity() * sizeof(TextureMip) + info.chunks.capacity() * sizeof(Chunk) +
         info.original_file.capacity();
}

// What every read texture is checked for before its chunk table is read: the layout, and what
// the caller will allocate to unpack it.
Status check_read_texture(const TextureInfo& info) {
  if (Status s = check_layout(info, "TEXI metadata"); !s) return s;
  return detail::check_unpacked_size(info.total_size, "TEXI metadata");
}

Status read_legacy_texture(detail::JsonValue meta, uint64_t blob_size, TextureInfo& out) {
  detail::JsonReader reader("TEXI metadata");
  detail::vkguide::read_texture(reader, meta, out);
  if (!reader.ok()) return reader.status();
  if (Status s = check_read_texture(out); !s) return s;
  detail::vkguide::read_chunks(reader, out.compression, {out.total_size}, blob_size, out.chunks);
  return reader.status();
}

// Fills `out` (reset first) from parsed TEXI metadata; `blob_size`: the blob's length in the file.
Status read_texture(detail::JsonValue meta, uint64_t blob_size, TextureInfo& out) {
  reset_keeping_memory(out);
  detail::JsonReader reader("TEXI metadata");
  detail::Members<kTextureKeys> m(reader, meta);
  // Legacy metadata has neither "mip_count" nor "mips": only then is it worth looking for
  // vkguide's keys.
  const bool has_mip_list = m["mips"].found();
  if (!has_mip_list && !m["mip_count"].found() && detail::vkguide::is_texture(meta))
    return read_legacy_texture(meta, blob_size, out);
  out.format = reader.named(m["format"], texture_format_from_name);
  out.width = reader.u32(m["width"]);
  out.height = reader.u32(m["height"]);
  out.total_size = reader.u64(m["total_size"]);
  out.original_file = reader.string(m["original_file"]);
  if (has_mip_list) {
    read_mips(reader, m["mips"], out.mips);
  } else if (reader.ok()) {
    read_mip_count(reader, m["mip_count"], out);
  }
  if (!reader.ok()) return reader.status();
  if (Status s = check_read_texture(out); !s) return s;
  detail::read_chunk_table(reader, m["compression"], m["chunks"], out.total_size, blob_size,
                           out.compression, out.chunks);
  return reader.status();
}

// `blob_size`: the blob's length in the file (file.blob may be empty: a head read without it).
// Allocates nothing once this thread's parser and scratch info, and `info`, have grown.
Status read_texture_info_throwing(const AssetView& file, uint64_t blob_size, TextureInfo& info) {
  detail::ParsedJson meta;
  if (Status s = detail::parse_metadata(file, "TEXI", meta); !s) return s;
  return detail::read_reusing(info, bytes_held, [&](TextureInfo& out) {
    return read_texture(meta.root(), blob_size, out);
  });
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
  // check_layout proved the levels the contiguous chain: their count says all of them.
  meta["mip_count"] = info.mips.size();
  detail::write_chunk_table(meta, options.compression, chunks);
  return detail::finish_asset(out, "TEXI", meta, std::move(blob), "pack_texture");
}

}  // namespace

Status read_texture_info(const AssetView& file, TextureInfo& info) {
  return detail::no_throw("TEXI metadata",
                          [&] { return read_texture_info_throwing(file, file.blob.size(), info); });
}

Status read_texture_info(const AssetHead& head, TextureInfo& info) {
  return detail::no_throw("TEXI metadata", [&] {
    AssetView view;
    std::memcpy(view.type, head.type, 4);
    view.version = head.version;
    view.json = head.json;
    return read_texture_info_throwing(view, head.blob_length, info);
  });
}

Status texture_mips_blob_range(const TextureInfo& info, uint32_t first_mip, BlobRange& out) {
  return detail::no_throw("texture_mips_blob_range", [&] {
    // The job of those levels names exactly their chunks; nothing is read or written here.
    UnpackJob job;
    uint64_t size =
        first_mip < info.mips.size() ? info.total_size - info.mips[first_mip].offset : 0;
    if (Status s = texture_unpack_job(info, first_mip, {}, nullptr, size_t(size), job, 0); !s) {
      return s;
    }
    out = {};
    if (!job.chunks.empty()) {
      const Chunk& last = job.chunks.back();
      out.offset = job.chunks.front().packed_offset;
      out.size = last.packed_offset + last.packed_size - out.offset;
    }
    return Status{};
  });
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
    UnpackJob job;
    std::span<const std::byte> blob(static_cast<const std::byte*>(src), src_size);
    if (Status s = texture_unpack_job(info, first_mip, blob, dst, dst_size, job, 0); !s) return s;
    return unpack_jobs(std::span<const UnpackJob>(&job, 1));
  });
}

}  // namespace assetlib
