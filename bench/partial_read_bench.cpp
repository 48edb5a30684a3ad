// assetlib-bench, measurement 7: partial reads. A large texture loaded from mip level K on reads
// its header, its metadata and only the blob bytes of those levels (load_asset_head,
// texture_mips_blob_range, load_blob_range), against loading the whole file and unpacking the
// same levels.
#include "bench.h"

#include <assetlib/assetlib.h>

#include <functional>

namespace bench {
namespace {

// The whole file read, levels `skip`.. unpacked.
bool load_whole(const std::string& path, uint32_t skip, Staging& staging) {
  assetlib::AssetFile file;
  assetlib::TextureInfo info;
  if (!assetlib::load_binaryfile(path, file) || !assetlib::read_texture_info(file, info))
    return false;
  uint64_t size = info.total_size - info.mips[skip].offset;
  return assetlib::unpack_texture_mips(info, skip, file.blob.data(), file.blob.size(),
                                       staging.get(size), size)
      .ok();
}

// Head, then the blob range of levels `skip`.., then those levels unpacked. Adds the bytes read.
bool load_partial(const std::string& path, uint32_t skip, Staging& staging, uint64_t& bytes_read) {
  assetlib::AssetHead head;
  assetlib::TextureInfo info;
  assetlib::BlobRange range;
  std::vector<std::byte> blob;
  if (!assetlib::load_asset_head(path, head) || !assetlib::read_texture_info(head, info) ||
      !assetlib::texture_mips_blob_range(info, skip, range) ||
      !assetlib::load_blob_range(path, head, range.offset, range.size, blob)) {
    return false;
  }
  bytes_read = assetlib::kHeaderSize + head.json.size() + blob.size();
  uint64_t size = info.total_size - info.mips[skip].offset;
  assetlib::UnpackJob job;
  return assetlib::texture_unpack_job(info, skip, blob, staging.get(size), size, job,
                                      range.offset) &&
         assetlib::unpack_jobs(std::span<const assetlib::UnpackJob>(&job, 1));
}

}  // namespace

void bench_partial_reads(const BakedTree& tree, uint32_t skip, const TimingPolicy& policy,
                         std::vector<PartialRead>& out, std::vector<std::string>& notes) {
  for (const BakedAsset& a : tree.assets) {
    assetlib::AssetHead head;
    assetlib::TextureInfo info;
    const std::string path = a.baked.string();
    if (a.type != "TEXI" || !assetlib::load_asset_head(path, head) ||
        !assetlib::read_texture_info(head, info) ||
        std::max(info.width, info.height) < kPartialReadMinSide || info.mips.size() <= skip) {
      continue;
    }
    warm_page_cache(a.baked);
    PartialRead r{tree.label, a.name, a.format, info.width, info.height, skip, a.file_bytes};
    Staging whole_staging, partial_staging;
    const std::function<bool()> sides[] = {
        [&] { return load_whole(path, skip, whole_staging); },
        [&] { return load_partial(path, skip, partial_staging, r.bytes_read); },
    };
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok) {
      notes.push_back("error: " + tree.label + "/" + a.name + ": partial read failed");
      continue;
    }
    r.whole_seconds = t[0].median;
    r.partial_seconds = t[1].median;
    out.push_back(r);
  }
}

}  // namespace bench
