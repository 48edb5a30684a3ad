// Internal: splitting unpacked data into independently compressed chunks, and back.
#pragma once

#include <assetlib/asset_file.h>

#include <span>
#include <vector>

namespace assetlib::detail {

// A contiguous run of unpacked bytes (a mip level, a vertex buffer). Chunks never straddle two
// sections, so each section can be unpacked on its own.
struct RawSection {
  const std::byte* data;
  uint64_t size;
};

// Compresses `sections`, laid one after another in unpacked space, into `blob`, recording the
// chunks. Chunks hold at most options.chunk_size bytes; one that does not shrink by at least an
// eighth is stored raw.
Status pack_sections(std::span<const RawSection> sections, const PackOptions& options,
                     std::vector<std::byte>& blob, std::vector<Chunk>& chunks);

// Unpacks the unpacked-space range [raw_begin, raw_end) into `dst` (its byte 0 = raw_begin). The
// range must start and end on chunk boundaries.
Status unpack_range(Compression compression, std::span<const Chunk> chunks, uint64_t raw_begin,
                    uint64_t raw_end, const void* src, size_t src_size, void* dst, size_t dst_size);

}  // namespace assetlib::detail
