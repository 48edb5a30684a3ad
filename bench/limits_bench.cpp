#include "limits_bench.h"

#include "baked_load.h"
#include "progress.h"

#include <assetlib/assetlib.h>

#include <fcntl.h>
#include <lz4.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

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
  out = {info.compression, info.chunks, info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size};
  return true;
}

// The least work that turns the blob into the unpacked bytes: one LZ4_decompress_safe per
// compressed chunk, one memcpy per chunk stored raw. No file, no metadata, no checks beyond LZ4's.
bool decode_chunks(const Layout& layout, const std::byte* blob, std::byte* dst) {
  for (const assetlib::Chunk& c : layout.chunks) {
    const char* in = reinterpret_cast<const char*>(blob + c.packed_offset);
    char* out = reinterpret_cast<char*>(dst + c.raw_offset);
    if (c.packed_size == c.raw_size) {
      std::memcpy(out, in, c.raw_size);
    } else if (LZ4_decompress_safe(in, out, int(c.packed_size), int(c.raw_size)) != int(c.raw_size)) {
      return false;
    }
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

}  // namespace

void bench_limits(const BakedTree& tree, const TimingPolicy& policy, std::vector<LimitsRecord>& out,
                  std::vector<std::string>& notes) {
  Progress progress("limits " + tree.label + " " + tree.variant, tree.assets.size());
  StagingBuffers staging;
  Staging reference, dst, file_buffer;
  size_t done = 0;
  for (const BakedAsset& a : tree.assets) {
    progress.step(++done);
    std::string path = a.baked.string();
    assetlib::AssetFile file;
    Layout layout;
    if (!warm_page_cache(a.baked) || !assetlib::load_binaryfile(path, file) || !read_layout(file, layout)) {
      notes.push_back("error: " + tree.label + "/" + a.name + ": cannot read the baked file; limits skipped");
      continue;
    }
    uint64_t raw_stored = 0, covered = 0;
    for (const assetlib::Chunk& c : layout.chunks) {
      raw_stored += c.packed_size == c.raw_size ? c.raw_size : 0;
      covered = std::max(covered, c.raw_offset + c.raw_size);
    }
    if (covered != layout.unpacked) {
      notes.push_back("error: " + tree.label + "/" + a.name + ": chunks cover " + std::to_string(covered) +
                      " bytes, the metadata promises " + std::to_string(layout.unpacked) + "; limits skipped");
      continue;
    }
    std::byte* ref = reference.get(layout.unpacked);
    std::byte* out_bytes = dst.get(layout.unpacked);
    std::byte* read_bytes = file_buffer.get(a.file_bytes);
    staging.first.get(layout.unpacked);
    staging.second.get(layout.unpacked);
    staging.third.get(layout.unpacked);
    if (!decode_chunks(layout, file.blob.data(), ref)) {
      notes.push_back("error: " + tree.label + "/" + a.name + ": LZ4 decode failed; limits skipped");
      continue;
    }
    const std::function<bool()> sides[] = {
        [&] { return load_asset(path, staging); },
        [&] { return load_asset_mapped(path, staging); },
        [&] { return decode_chunks(layout, file.blob.data(), out_bytes); },
        [&] {
          std::memcpy(out_bytes, ref, layout.unpacked);
          return true;
        },
        [&] { return read_whole(path, read_bytes, a.file_bytes); },
    };
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok) {
      notes.push_back("error: " + tree.label + "/" + a.name + ": a limits measurement failed; skipped");
      continue;
    }
    out.push_back({tree.label, a.name, a.type, a.file_bytes, layout.unpacked, raw_stored, t[0].median, t[1].median,
                   t[2].median, t[3].median, t[4].median});
  }
}

void bench_codec_loads(const BakedTree& lz4, const BakedTree& hc, const TimingPolicy& policy,
                       std::vector<CodecLoad>& out, std::vector<std::string>& notes) {
  std::map<std::string, const BakedAsset*> hc_by_name;
  for (const BakedAsset& a : hc.assets) hc_by_name[a.name] = &a;
  Progress progress("LZ4 vs LZ4-HC load " + lz4.label, lz4.assets.size());
  StagingBuffers staging;
  size_t done = 0;
  for (const BakedAsset& a : lz4.assets) {
    progress.step(++done);
    auto other = hc_by_name.find(a.name);
    if (other == hc_by_name.end()) {
      notes.push_back(lz4.label + "/" + a.name + ": missing from the LZ4-HC bake");
      continue;
    }
    const BakedAsset& h = *other->second;
    if (!warm_page_cache(a.baked) || !warm_page_cache(h.baked)) continue;
    std::string fast = a.baked.string(), high = h.baked.string();
    const std::function<bool()> sides[] = {
        [&] { return load_asset(fast, staging); },
        [&] { return load_asset(high, staging); },
    };
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok) {
      notes.push_back("error: " + lz4.label + "/" + a.name + ": LZ4 / LZ4-HC load failed");
      continue;
    }
    out.push_back({lz4.label, a.name, a.type, a.file_bytes, h.file_bytes, a.unpacked_bytes, t[0].median, t[1].median});
  }
}

}  // namespace bench
