#include "texture_load_bench.h"

#include "load_comparison.h"

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
  compare_loads(
      tree, "TEXI", "stb_image", [](const BakedAsset& a) { return stb_decode(a.source.string(), a.format); }, policy,
      out, notes);
}

}  // namespace bench
