#include "texture_load_bench.h"

#include "baked_load.h"
#include "progress.h"

#include <stb/stb_image.h>

#include <functional>

namespace bench {
namespace {

// The stb_image call an engine would make for the pixels the baked file holds: 16-bit data
// textures stay 16-bit, HDR stays float, everything else (8-bit and block-compressed) is 8-bit.
// stb allocates the pixels; the copy into a staging buffer an engine would then make, the mip
// chain it would still have to build and any block compression are not charged to this side.
std::function<bool()> stb_decode(const std::string& path, const std::string& baked_format) {
  if (baked_format == "RGBA16_SFLOAT") {
    return [path] {
      int w = 0, h = 0, c = 0;
      float* p = stbi_loadf(path.c_str(), &w, &h, &c, 4);
      stbi_image_free(p);
      return p != nullptr;
    };
  }
  if (baked_format == "RGBA16_UNORM") {
    return [path] {
      int w = 0, h = 0, c = 0;
      stbi_us* p = stbi_load_16(path.c_str(), &w, &h, &c, 4);
      stbi_image_free(p);
      return p != nullptr;
    };
  }
  return [path] {
    int w = 0, h = 0, c = 0;
    stbi_uc* p = stbi_load(path.c_str(), &w, &h, &c, 4);
    stbi_image_free(p);
    return p != nullptr;
  };
}

}  // namespace

void bench_texture_loads(const BakedTree& tree, const TimingPolicy& policy, std::vector<LoadComparison>& out,
                         std::vector<std::string>& notes) {
  size_t total = 0, done = 0;
  for (const BakedAsset& a : tree.assets) total += a.type == "TEXI";
  Progress progress("texture load " + tree.label + " " + tree.variant, total);
  StagingBuffers staging;
  for (const BakedAsset& a : tree.assets) {
    if (a.type != "TEXI") continue;
    progress.step(++done);
    if (!warm_page_cache(a.source) || !warm_page_cache(a.baked)) {
      notes.push_back(tree.label + "/" + a.name + ": cannot read; texture load skipped");
      continue;
    }
    staging.first.get(a.unpacked_bytes);
    std::string baked_path = a.baked.string();
    const std::function<bool()> sides[] = {
        stb_decode(a.source.string(), a.format),
        [&] { return load_texture(baked_path, staging); },
    };
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok || !t[1].ok) {
      // The source decoder refusing a file the baker took is a note; assetlib failing is an error.
      notes.push_back((t[0].failed ? "" : "error: ") + tree.label + "/" + a.name + ": " +
                      (t[0].failed ? "stb_image" : "baked load") + " failed; texture load skipped");
      continue;
    }
    out.push_back({tree.label, tree.variant, a.name, a.format, a.source_bytes, a.file_bytes, a.unpacked_bytes,
                   t[0].median, t[1].median});
  }
}

}  // namespace bench
