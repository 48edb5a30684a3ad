// Filtering one texture level down to a smaller one: every mip level from the one before, and a
// level 0 that max_size scales down.
//
// The baker's own, not stb_image_resize: stb's general pipeline (a scatter of every source texel
// through per-texel callbacks) filtered 12 million texels a second here, which made mip levels
// 60 % of the corpus bake. This is the same arithmetic (kernels sampled at the texel centres as
// stb samples them, normalised per output texel; alpha weighting with stb's epsilon, so that the
// colour of fully transparent texels survives) laid out as two passes over rows: each source row
// is decoded and filtered across once, into a ring of the rows the next output rows need.
#pragma once

#include <cstddef>
#include <cstdint>

namespace baker {

// What a texel holds: four channels of one of these.
enum class LevelTexels {
  Unorm8,      // linear 8-bit channels (data, normal maps)
  Srgb8Alpha,  // sRGB 8-bit colour, weighted by its linear 8-bit alpha (channel 3)
  Unorm16,     // linear 16-bit channels
  Float32,     // linear floats, neither clamped nor rounded
};

// The reconstruction kernel, widened by the scale: Mitchell-Netravali (B = C = 1/3, radius 2:
// sharp, small negative lobes) or the tent (radius 1: no negative lobes, for radiance, where a lobe
// around a bright texel rings far below 0).
enum class LevelKernel { Mitchell, Tent };

// Beyond an edge, the texels of the far side (a texture that repeats), or the edge texel again.
enum class LevelEdge { Wrap, Clamp };

struct LevelFilter {
  LevelTexels texels = LevelTexels::Unorm8;
  LevelKernel kernel = LevelKernel::Mitchell;
  LevelEdge edge_u = LevelEdge::Clamp, edge_v = LevelEdge::Clamp;
};

// Filters the level `src` (sw x sh texels, rows packed) down to `dst` (dw x dh, rows packed),
// each axis on its own: an axis whose size stays is copied as it is (stb_image_resize blurred
// it), a smaller one is filtered. Requires 1 <= dw <= sw and 1 <= dh <= sh, sizes below 2^23 (texel
// centres stay exact in floats; images are at most 16384 texels a side), src and dst apart.
// Allocates the taps of both axes and the source rows one output row reads, each filtered to dw
// texels of floats: 8 rows when halving, about 4 * sh / dh in general.
void filter_level(const LevelFilter& filter, const std::byte* src, uint32_t sw, uint32_t sh,
                  std::byte* dst, uint32_t dw, uint32_t dh);

}  // namespace baker
