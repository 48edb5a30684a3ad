#include "pipeline/bake_order.h"

#include "common/parallel_for.h"
#include "common/regular_file.h"
#include "common/source_paths.h"
#include "import/image_import.h"
#include "pipeline/source_files.h"

#include <algorithm>
#include <optional>

namespace baker {
namespace {

// Nanoseconds per unit, from the per-file `seconds` of `asset-baker <corpus> -j1 --json` (one
// source at a time, block compression on every core): images took 37 to 44 ns per pixel of their
// first level and role, whatever the format; OBJ files 17 to 21 ns per byte; GLB files 84 to 100
// ns per byte (more with embedded images). A .gltf counts its JSON only, as its buffers are not
// read before it bakes. The file size stands in when a header does not parse. By size alone, a
// 92 KB PNG of 8192² pixels, two seconds of work, started 68th.
constexpr uint64_t kImageNsPerPixel = 40;
constexpr uint64_t kObjNsPerByte = 20;
constexpr uint64_t kGltfNsPerByte = 100;

// A PNG, TGA, BMP or HDR header fits in the first 4 KiB; a JPEG's frame header follows its
// metadata segments (EXIF with a thumbnail, an ICC profile), which may take more.
constexpr uint64_t kHeaderPrefixes[] = {uint64_t(4) << 10, uint64_t(256) << 10};

// The pixels an image's header announces; nullopt when it cannot be read inside `input` or does
// not parse, and for sides the bake refuses at once (so every product below stays far from
// overflow: at most 16384² pixels, 1 GiB files).
std::optional<uint64_t> image_pixels(const std::filesystem::path& input, const Source& source) {
  std::optional<std::filesystem::path> path = inside_root(input, source.relative);
  if (!path) return std::nullopt;
  std::vector<std::byte> head;
  for (uint64_t prefix : kHeaderPrefixes) {
    if (read_regular_prefix(*path, prefix, head) != ReadResult::Ok) return std::nullopt;
    if (std::optional<ImageHeader> header = probe_image(head)) {
      if (header->width > kMaxSourceDimension || header->height > kMaxSourceDimension)
        return std::nullopt;
      return uint64_t(header->width) * header->height;
    }
    if (head.size() < prefix) return std::nullopt;  // the whole file did not parse
  }
  return std::nullopt;
}

}  // namespace

uint64_t estimated_bake_cost(const std::filesystem::path& input, const Source& source) {
  const uint64_t bytes = std::min(source.bytes, kMaxSourceBytes);  // larger ones fail at once
  switch (source.kind) {
    case AssetKind::Mesh: return kObjNsPerByte * bytes;
    case AssetKind::Scene: return kGltfNsPerByte * bytes;
    case AssetKind::Texture: break;
  }
  // An image bakes once per role it is used in (one output each), decoding each time.
  const uint64_t roles = std::max<uint64_t>(1, source.outputs.size());
  return kImageNsPerPixel * roles * image_pixels(input, source).value_or(bytes);
}

void longest_first(const std::filesystem::path& input, const std::vector<Source>& sources,
                   unsigned threads, std::vector<size_t>& to_run) {
  std::vector<uint64_t> cost(sources.size());
  parallel_for(to_run.size(), threads,
               [&](size_t k) { cost[to_run[k]] = estimated_bake_cost(input, sources[to_run[k]]); });
  std::stable_sort(to_run.begin(), to_run.end(),
                   [&](size_t a, size_t b) { return cost[a] > cost[b]; });
}

}  // namespace baker
