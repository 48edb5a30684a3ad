// assetlib-bench, measurement 3: overhead against the machine's limits. Per baked file, the
// stateless API and the same from a mapped file, against the least work that produces the same
// unpacked bytes (LZ4 alone, memcpy) and against read() of the file.
#include "bench.h"

#include <assetlib/assetlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <functional>

namespace bench {
namespace {

// The chunk table and codec of a loaded file, and its unpacked bytes (the memcpy source).
struct Layout {
  assetlib::Compression compression = assetlib::Compression::LZ4;
  std::vector<assetlib::Chunk> chunks;
  uint64_t unpacked = 0;
};

bool read_layout(const assetlib::AssetFile& file, Layout& out) {
  if (assetlib::has_type(file, "TEXI")) {
    assetlib::TextureInfo info;
    if (!assetlib::read_texture_info(file, info)) return false;
    out = {info.compression, info.chunks, info.total_size};
    return true;
  }
  assetlib::MeshInfo info;
  if (!assetlib::read_mesh_info(file, info)) return false;
  out = {info.compression, info.chunks,
         info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size};
  return true;
}

// The least work that turns the blob into the unpacked bytes: one LZ4_decompress_safe per
// compressed chunk, one memcpy per chunk stored raw. No file, no metadata, no checks beyond LZ4's.
bool decode_chunks(const Layout& layout, const std::byte* blob, std::byte* dst) {
  for (const assetlib::Chunk& c : layout.chunks) {
    if (!decode_chunk_bare(blob + c.packed_offset, c.packed_size, dst + c.raw_offset, c.raw_size))
      return false;
  }
  return true;
}

// read() of the whole file into `buffer`, with open and close: the page-cache copy alone.
bool read_whole(const std::string& path, std::byte* buffer, uint64_t size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  uint64_t done = 0;
  while (done < size) {
    ssize_t got = ::read(fd, buffer + done, size_t(size - done));
    if (got <= 0) break;
    done += uint64_t(got);
  }
  ::close(fd);
  return done == size;
}

// Unpacked bytes of the chunks stored raw, and how far the chunks reach into the unpacked bytes.
struct ChunkCoverage {
  uint64_t raw_stored = 0, covered = 0;
};

ChunkCoverage chunk_coverage(const Layout& layout) {
  ChunkCoverage c;
  for (const assetlib::Chunk& chunk : layout.chunks) {
    c.raw_stored += chunk.packed_size == chunk.raw_size ? chunk.raw_size : 0;
    c.covered = std::max(c.covered, chunk.raw_offset + chunk.raw_size);
  }
  return c;
}

// Destination buffers reused across the files of a tree, grown to the largest.
struct LimitsBuffers {
  StagingBuffers staging;
  Staging reference, dst, file_buffer;
};

// Measures the five ways to produce the unpacked bytes of one baked file of `tree`, side by side,
// into `out`. Returns why the file was skipped, or "" when it was measured.
std::string measure_limits(const std::string& tree, const BakedAsset& a, const MappedPack& pack,
                           const TimingPolicy& policy, LimitsBuffers& b, LimitsRecord& out) {
  std::string path = a.baked.string();
  assetlib::AssetFile file;
  Layout layout;
  if (!warm_page_cache(a.baked) || !assetlib::load_binaryfile(path, file) ||
      !read_layout(file, layout)) {
    return "cannot read the baked file; limits skipped";
  }
  const ChunkCoverage coverage = chunk_coverage(layout);
  if (coverage.covered != layout.unpacked) {
    return "chunks cover " + std::to_string(coverage.covered) + " bytes, the metadata promises " +
           std::to_string(layout.unpacked) + "; limits skipped";
  }
  std::byte* ref = b.reference.get(layout.unpacked);
  std::byte* out_bytes = b.dst.get(layout.unpacked);
  std::byte* read_bytes = b.file_buffer.get(a.file_bytes);
  b.staging.first.get(layout.unpacked);
  b.staging.second.get(layout.unpacked);
  b.staging.third.get(layout.unpacked);
  if (!decode_chunks(layout, file.blob.data(), ref)) return "LZ4 decode failed; limits skipped";
  const std::function<bool()> sides[] = {
      [&] { return load_asset(path, b.staging); },
      [&] { return load_asset_mapped(path, b.staging); },
      [&] { return decode_chunks(layout, file.blob.data(), out_bytes); },
      [&] {
        std::memcpy(out_bytes, ref, layout.unpacked);
        return true;
      },
      [&] { return read_whole(path, read_bytes, a.file_bytes); },
      [&] { return load_pack_asset(pack, a.name, b.staging); },
      [&] { return read_pack_info(pack, a.name); },
  };
  std::vector<Timing> t = measure_side_by_side(sides, policy);
  if (!t[0].ok) return "a limits measurement failed; skipped";
  out = {tree,        a.name,      a.type,      a.file_bytes, layout.unpacked, coverage.raw_stored,
         t[0].median, t[1].median, t[2].median, t[3].median,  t[4].median,     t[5].median,
         t[6].median};
  return "";
}

}  // namespace

void bench_limits(const BakedTree& tree, const MappedPack& pack, const TimingPolicy& policy,
                  std::vector<LimitsRecord>& out, std::vector<std::string>& notes) {
  Progress progress("limits " + tree.label + " " + tree.variant, tree.assets.size());
  LimitsBuffers buffers;
  size_t done = 0;
  for (const BakedAsset& a : tree.assets) {
    progress.step(++done);
    LimitsRecord record;
    if (std::string skipped = measure_limits(tree.label, a, pack, policy, buffers, record);
        !skipped.empty()) {
      notes.push_back("error: " + tree.label + "/" + a.name + ": " + skipped);
      continue;
    }
    out.push_back(std::move(record));
  }
}

}  // namespace bench
