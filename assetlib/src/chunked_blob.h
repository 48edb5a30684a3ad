// Internal: splitting unpacked data into independently compressed chunks, and back.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/unpack_jobs.h>

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

// The job that unpacks the unpacked-space range [raw_begin, raw_end) into `dst` (its byte 0 =
// raw_begin): DestinationTooSmall when dst_size is below the range's size, InvalidValue when the
// range does not start and end on chunk boundaries. `chunks` must be contiguous and in order (as
// read_*_info returns them); found by binary search.
Status range_job(Compression compression, std::span<const Chunk> chunks, uint64_t raw_begin,
                 uint64_t raw_end, std::span<const std::byte> blob, uint64_t blob_offset, void* dst,
                 size_t dst_size, UnpackJob& out);

// Unpacks chunk `index` of `job` into its place in job.dst.
Status unpack_job_chunk(const UnpackJob& job, size_t index);

// range_job, then unpack_jobs of that job on this thread.
Status unpack_range(Compression compression, std::span<const Chunk> chunks, uint64_t raw_begin,
                    uint64_t raw_end, const void* src, size_t src_size, void* dst, size_t dst_size);

}  // namespace assetlib::detail
