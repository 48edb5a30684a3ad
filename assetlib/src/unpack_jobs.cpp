// Unpacking on the caller's threads: jobs are ranges of unpacked data, tasks are their chunks.
#include <assetlib/unpack_jobs.h>

#include "chunked_blob.h"
#include "no_throw.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <vector>

namespace assetlib {
namespace {

constexpr size_t kNoFailure = std::numeric_limits<size_t>::max();

// The serial path allocates nothing: each job stops at its first failing chunk.
Status unpack_serially(std::span<const UnpackJob> jobs, std::span<Status> statuses) {
  Status first_error;
  for (size_t j = 0; j < jobs.size(); ++j) {
    Status status;
    for (size_t c = 0; c < jobs[j].chunks.size() && status.ok(); ++c) {
      status = detail::unpack_job_chunk(jobs[j], c);
    }
    if (!status.ok() && first_error.ok()) first_error = status;
    if (!statuses.empty()) statuses[j] = std::move(status);
  }
  return first_error;
}

// Each task only records the index of its failing chunk (the lowest, through an atomic minimum);
// the messages are made afterwards by decoding that chunk again, so the result does not depend on
// which thread failed first.
struct JobProgress {
  size_t first_task = 0;
  std::atomic<size_t> failed_chunk{kNoFailure};
};

void record_failure(std::atomic<size_t>& failed, size_t chunk) {
  size_t seen = failed.load(std::memory_order_relaxed);
  while (chunk < seen && !failed.compare_exchange_weak(seen, chunk, std::memory_order_relaxed)) {
  }
}

Status unpack_in_parallel(std::span<const UnpackJob> jobs, const ParallelFor& parallel_for,
                          std::span<Status> statuses) {
  std::vector<JobProgress> progress(jobs.size());
  size_t tasks = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    progress[j].first_task = tasks;
    tasks += jobs[j].chunks.size();
  }
  auto by_first_task = [](size_t task, const JobProgress& p) { return task < p.first_task; };
  parallel_for(tasks, [&](size_t task) {
    // The job whose first task is the last one at or before `task`. Jobs without chunks share
    // their first task with the next job and are skipped by upper_bound.
    auto it = std::upper_bound(progress.begin(), progress.end(), task, by_first_task) - 1;
    size_t j = size_t(it - progress.begin());
    size_t chunk = task - it->first_task;
    if (!detail::unpack_job_chunk(jobs[j], chunk).ok()) record_failure(it->failed_chunk, chunk);
  });
  Status first_error;
  for (size_t j = 0; j < jobs.size(); ++j) {
    size_t failed = progress[j].failed_chunk.load(std::memory_order_relaxed);
    Status status = failed == kNoFailure ? Status{} : detail::unpack_job_chunk(jobs[j], failed);
    if (!status.ok() && first_error.ok()) first_error = status;
    if (!statuses.empty()) statuses[j] = std::move(status);
  }
  return first_error;
}

}  // namespace

Status texture_unpack_job(const TextureInfo& info, uint32_t first_mip,
                          std::span<const std::byte> blob, void* dst, size_t dst_size,
                          UnpackJob& out, uint64_t blob_offset) {
  return detail::no_throw("texture_unpack_job", [&] {
    if (first_mip >= info.mips.size()) {
      return Status::error(
          ErrorCode::InvalidArgument,
          "texture level " + std::to_string(first_mip) + " of " + std::to_string(info.mips.size()));
    }
    return detail::range_job(info.compression, info.chunks, info.mips[first_mip].offset,
                             info.total_size, blob, blob_offset, dst, dst_size, out);
  });
}

Status mesh_unpack_jobs(const MeshInfo& info, std::span<const std::byte> blob, void* vertex_dst,
                        size_t vertex_dst_size, void* index_dst, size_t index_dst_size,
                        UnpackJob& vertex_job, UnpackJob& index_job) {
  return detail::no_throw("mesh_unpack_jobs", [&] {
    if (info.compression == Compression::LegacyLZ4) {
      return Status::error(ErrorCode::InvalidArgument,
                           "mesh_unpack_jobs: a legacy vkguide LZ4 mesh holds both buffers in one "
                           "LZ4 block; unpack it with unpack_mesh");
    }
    uint64_t vb = info.vertex_buffer_size;
    UnpackJob jobs[2];
    if (Status s = detail::range_job(info.compression, info.chunks, 0, vb, blob, 0, vertex_dst,
                                     vertex_dst_size, jobs[0]);
        !s) {
      return s;
    }
    if (Status s = detail::range_job(info.compression, info.chunks, vb, vb + info.index_buffer_size,
                                     blob, 0, index_dst, index_dst_size, jobs[1]);
        !s) {
      return s;
    }
    vertex_job = jobs[0];
    index_job = jobs[1];
    return Status{};
  });
}

Status unpack_jobs(std::span<const UnpackJob> jobs, const ParallelFor& parallel_for,
                   std::span<Status> statuses) {
  return detail::no_throw("unpack_jobs", [&] {
    if (!statuses.empty() && statuses.size() != jobs.size()) {
      return Status::error(ErrorCode::InvalidArgument,
                           "unpack_jobs: " + std::to_string(statuses.size()) + " statuses for " +
                               std::to_string(jobs.size()) + " jobs");
    }
    return parallel_for ? unpack_in_parallel(jobs, parallel_for, statuses)
                        : unpack_serially(jobs, statuses);
  });
}

}  // namespace assetlib
