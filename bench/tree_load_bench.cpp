// assetlib-bench, measurement 6: a whole tree loaded at once, as a game's loading screen does.
// Every asset of a tree that has a source measurement (sections 1 and 2) goes into one arena,
// from loose files and from one pack, on one thread and on two; the bare LZ4 decoding of the same
// chunks and the bare writing of their bytes, on one and two threads, are the floors. Compared with
// the sum of the source decode times.
#include "bench.h"
#include "worker_pool.h"

#include <assetlib/assetlib.h>

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <algorithm>
#include <functional>
#include <optional>
#include <set>

namespace bench {
namespace {

// One asset's place in the loading: its bytes, its metadata, where it goes, its jobs.
struct Slot {
  std::string name;
  std::string path;  // the loose file
  bool texture = false;
  uint64_t arena_offset = 0;
  assetlib::AssetFile file;  // loose loads read into it
  assetlib::AssetView view;
  assetlib::TextureInfo texture_info;
  assetlib::MeshInfo mesh_info;
  std::vector<std::byte> meshlets;  // unpack_meshlets is not a job: its output is checked
};

// Loads `slots` into one arena the way an engine with a job system does: every header read and
// every job made in parallel over the assets, then every chunk of every asset through
// unpack_jobs. The pool decides the threads; a pool of one runs both phases in plain loops.
class TreeLoader {
 public:
  TreeLoader(std::vector<Slot>& slots, std::byte* arena, const assetlib::PackView* pack)
      : slots_(slots), arena_(arena), pack_(pack), jobs_(2 * slots.size()) {}

  bool load(WorkerPool& pool) {
    std::atomic<bool> ok{true};
    pool.parallel_for(slots_.size(), [&](size_t i) {
      if (!prepare(i)) ok = false;
    });
    return ok && assetlib::unpack_jobs(jobs_, pool.as_parallel_for()).ok();
  }

 private:
  bool open(Slot& s) {
    if (!pack_) {
      if (!assetlib::load_binaryfile(s.path, s.file)) return false;
      s.view = s.file;
      return true;
    }
    std::optional<assetlib::PackEntry> entry = assetlib::find_pack_entry(*pack_, s.name);
    return entry && assetlib::read_pack_asset(*pack_, *entry, s.view);
  }

  bool prepare(size_t i) {
    Slot& s = slots_[i];
    if (!open(s)) return false;
    std::byte* dst = arena_ + s.arena_offset;
    assetlib::UnpackJob* jobs = &jobs_[2 * i];
    if (s.texture) {
      return assetlib::read_texture_info(s.view, s.texture_info) &&
             assetlib::texture_unpack_job(s.texture_info, 0, s.view.blob, dst,
                                          s.texture_info.total_size, jobs[0], 0);
    }
    const assetlib::MeshInfo& m = s.mesh_info;
    if (!assetlib::read_mesh_info(s.view, s.mesh_info)) return false;
    if (!assetlib::mesh_unpack_jobs(m, s.view.blob, dst, m.vertex_buffer_size,
                                    dst + m.vertex_buffer_size, m.index_buffer_size, jobs[0],
                                    jobs[1])) {
      return false;
    }
    if (m.meshlet_data_size == 0) return true;
    s.meshlets.resize(m.meshlet_data_size);
    return bool(assetlib::unpack_meshlets(m, s.view.blob.data(), s.view.blob.size(),
                                          s.meshlets.data(), s.meshlets.size()));
  }

  std::vector<Slot>& slots_;
  std::byte* arena_;
  const assetlib::PackView* pack_;
  std::vector<assetlib::UnpackJob> jobs_;  // two per slot; a texture's second stays empty
};

// Writes `n` zero bytes at `dst` with non-temporal stores where the CPU has them (x86 SSE2), as
// the library writes long fills and copies (streaming_copy.h); memset elsewhere. Fenced.
void stream_zero(std::byte* dst, uint64_t n) {
#if defined(__SSE2__)
  uint64_t at = std::min<uint64_t>(n, (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15);
  std::memset(dst, 0, at);
  const __m128i zero = _mm_setzero_si128();
  for (; at + 64 <= n; at += 64) {
    auto to = reinterpret_cast<__m128i*>(dst + at);
    _mm_stream_si128(to, zero);
    _mm_stream_si128(to + 1, zero);
    _mm_stream_si128(to + 2, zero);
    _mm_stream_si128(to + 3, zero);
  }
  std::memset(dst + at, 0, n - at);
  _mm_sfence();
#else
  std::memset(dst, 0, n);
#endif
}

// The floors, spread over the pool one chunk per task as the loads spread them:
// - decode: LZ4_decompress_safe of every chunk of every asset, blobs already in memory (memcpy
//   for chunks stored raw): plain LZ4's least work on today's bytes;
// - write: every chunk's unpacked bytes written as zeros with streaming stores, nothing read: the
//   least work of any loader that puts those bytes in memory, whatever the format. What this
//   machine's memory bandwidth allows the whole-tree load.
class ChunkFloors {
 public:
  ChunkFloors(const std::vector<Slot>& slots, std::byte* arena) {
    for (const Slot& s : slots) {
      const auto& chunks = s.texture ? s.texture_info.chunks : s.mesh_info.chunks;
      for (const assetlib::Chunk& c : chunks) {
        tasks_.push_back({s.view.blob.data() + c.packed_offset,
                          arena + s.arena_offset + c.raw_offset, c.packed_size, c.raw_size});
      }
    }
  }

  bool decode(WorkerPool& pool) {
    std::atomic<bool> ok{true};
    pool.parallel_for(tasks_.size(), [&](size_t i) {
      const Task& t = tasks_[i];
      if (!decode_chunk_bare(t.src, t.packed, t.dst, t.raw)) ok = false;
    });
    return ok;
  }

  bool write(WorkerPool& pool) {
    pool.parallel_for(tasks_.size(), [&](size_t i) { stream_zero(tasks_[i].dst, tasks_[i].raw); });
    return true;
  }

 private:
  struct Task {
    const std::byte* src;
    std::byte* dst;
    uint64_t packed, raw;
  };
  std::vector<Task> tasks_;
};

// FNV-1a over 8-byte words: enough to tell that two ways of loading wrote the same arena.
uint64_t checksum(const std::byte* bytes, uint64_t size) {
  uint64_t h = 1469598103934665603ull;
  uint64_t word = 0;
  for (uint64_t i = 0; i + 8 <= size; i += 8) {
    std::memcpy(&word, bytes + i, 8);
    h = (h ^ word) * 1099511628211ull;
  }
  return h;
}

}  // namespace

std::string bench_tree_load(const BakedTree& tree, const MappedPack& pack,
                            const std::set<std::string>& names, const TimingPolicy& policy,
                            TreeLoad& out) {
  std::vector<Slot> slots;
  uint64_t arena_size = 0;
  for (const BakedAsset& a : tree.assets) {
    if (!names.count(a.name)) continue;
    Slot s;
    s.name = a.name;
    s.path = a.baked.string();
    s.texture = a.type == "TEXI";
    s.arena_offset = arena_size;
    arena_size += (a.unpacked_bytes + 63) / 64 * 64;
    out.file_bytes += a.file_bytes;
    out.unpacked_bytes += a.unpacked_bytes;
    if (!warm_page_cache(a.baked)) return "cannot read " + s.path;
    slots.push_back(std::move(s));
  }
  out.tree = tree.label;
  out.assets = slots.size();
  Staging arena_buffer;
  std::byte* arena = arena_buffer.get(arena_size);

  WorkerPool one(1), two(2);
  TreeLoader loose(slots, arena, nullptr), packed(slots, arena, &pack.view);
  // A first load fills every info (the floor needs the chunk tables) and proves that each way
  // writes the same bytes.
  uint64_t expected = 0;
  for (auto* way : {&loose, &packed}) {
    std::memset(arena, 0, arena_size);
    if (!way->load(two)) return "a whole-tree load failed";
    uint64_t sum = checksum(arena, arena_size);
    if (way != &loose && sum != expected) return "the pack and the loose files unpack differently";
    expected = sum;
  }
  ChunkFloors floors(slots, arena);
  const std::function<bool()> sides[] = {
      [&] { return loose.load(one); },    [&] { return loose.load(two); },
      [&] { return packed.load(one); },   [&] { return packed.load(two); },
      [&] { return floors.decode(one); }, [&] { return floors.decode(two); },
      [&] { return floors.write(one); },  [&] { return floors.write(two); },
  };
  TimingPolicy whole = policy;
  whole.min_sample_seconds = 0;  // one call is one whole tree: tens of milliseconds
  std::vector<Timing> t = measure_side_by_side(sides, whole);
  if (!t[0].ok) return "a whole-tree load failed";
  out.loose_1t = t[0].median;
  out.loose_2t = t[1].median;
  out.pack_1t = t[2].median;
  out.pack_2t = t[3].median;
  out.lz4_1t = t[4].median;
  out.lz4_2t = t[5].median;
  out.write_1t = t[6].median;
  out.write_2t = t[7].median;
  // The write floor zeroes the arena: the floors' bytes are checked on a decode of their own.
  if (!floors.decode(two) || checksum(arena, arena_size) != expected)
    return "the LZ4 floor wrote other bytes";
  return "";
}

}  // namespace bench
