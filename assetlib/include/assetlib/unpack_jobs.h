// assetlib: unpacking on the caller's threads.
//
// Decompression is the one heavy step of loading, and its pieces are independent: every chunk of
// every asset decodes on its own into its own bytes. A loader with a job system describes each
// destination buffer as an UnpackJob (texture_unpack_job, mesh_unpack_jobs), then hands all of
// them to unpack_jobs together with the job system's parallel loop: one task per chunk, so many
// small assets and the chunks of one large asset spread alike. assetlib starts no threads and
// keeps no state; the serial unpack_texture / unpack_mesh run the same code on the calling thread.
//
//   std::vector<assetlib::UnpackJob> jobs(n);
//   for (i...) assetlib::texture_unpack_job(infos[i], 0, files[i].blob, staging[i], sizes[i],
//   jobs[i], 0); assetlib::Status s = assetlib::unpack_jobs(jobs, [&](size_t count, const
//   assetlib::TaskBody& body) {
//     job_system.parallel_for(count, body);  // body(i) once for every i, any thread, any order
//   });
//
// Hostile input (see asset_file.h): the job builders trust only an info returned by a successful
// read_texture_info / read_mesh_info; unpack_jobs is then safe on hostile blob bytes, as the
// serial unpack_* functions are.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/texture_asset.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

namespace assetlib {

// One destination buffer and the chunks that fill it: bytes [raw_begin, raw_begin + dst_size) of
// an asset's unpacked data. Build it with texture_unpack_job / mesh_unpack_jobs; a job only
// points into the info, the blob and the destination, which must outlive it.
struct UnpackJob {
  Compression compression = Compression::LZ4;
  std::span<const Chunk> chunks;    // contiguous in unpacked space, covering exactly the range
  std::span<const std::byte> blob;  // the blob, or the part of it a partial read fetched
  uint64_t blob_offset = 0;         // offset in the whole blob of blob[0]: 0 for a whole blob
  uint64_t raw_begin = 0;           // unpacked offset of dst[0]
  void* dst = nullptr;
  size_t dst_size = 0;  // exactly the range's size
};

// Levels first_mip..last of `info` into `dst`, level first_mip at offset 0 (as
// unpack_texture_mips). `blob` holds the blob from `blob_offset` on: the whole blob with 0, or the
// bytes texture_mips_blob_range said to read with its offset (no default: bytes of a partial read
// taken for the whole blob would decode a chunk from the wrong bytes wherever they still fit).
// Requires `info` from a successful read_texture_info. Errors, nothing written: InvalidArgument
// (first_mip out of range), DestinationTooSmall (dst_size below the levels' size), InvalidValue (a
// chunk straddles levels first_mip - 1 and first_mip). The blob is not looked at until unpack_jobs
// runs the job.
Status texture_unpack_job(const TextureInfo& info, uint32_t first_mip,
                          std::span<const std::byte> blob, void* dst, size_t dst_size,
                          UnpackJob& out, uint64_t blob_offset);

// The vertex buffer and the index buffer of `info`, as unpack_mesh writes them.
// Requires `info` from a successful read_mesh_info. Errors: DestinationTooSmall (either
// destination; nothing written), InvalidValue (a chunk straddles the two buffers), InvalidArgument
// for a legacy vkguide LZ4 mesh, whose single LZ4 block holds both buffers: use unpack_mesh.
// Meshlets are not a job: unpack_meshlets checks them after decoding.
Status mesh_unpack_jobs(const MeshInfo& info, std::span<const std::byte> blob, void* vertex_dst,
                        size_t vertex_dst_size, void* index_dst, size_t index_dst_size,
                        UnpackJob& vertex_job, UnpackJob& index_job);

// The caller's parallel loop: it must call body(i) exactly once for every i in [0, count), on any
// threads in any order, and return after every call has returned. The bodies never throw, take
// from 1 us (a small chunk) to about 1 ms (a 1 MiB chunk), and write disjoint bytes.
using TaskBody = std::function<void(size_t)>;
using ParallelFor = std::function<void(size_t count, const TaskBody& body)>;

// Unpacks every job, one task per chunk, through `parallel_for` (empty: a plain loop on this
// thread). Safe on hostile blob bytes for jobs built by the functions above: each chunk reads only
// inside its job's `blob` (TruncatedHeader when it lies outside, e.g. a partial read of the wrong
// range) and writes only inside its job's `dst`; corrupt data is CorruptBlob / SizeMismatch.
// Returns the error of the first failing job in job order (of its first failing chunk), else Ok,
// whatever the scheduling; `statuses`, when not empty (then jobs.size() entries), receives every
// job's own outcome, so one corrupt asset of a batch does not hide the others. A failed job's
// destination may hold partial data; the other jobs are complete.
// Allocates one small table per call (one entry per job), plus error messages.
Status unpack_jobs(std::span<const UnpackJob> jobs, const ParallelFor& parallel_for = {},
                   std::span<Status> statuses = {});

}  // namespace assetlib
