// Alpha coverage kept through the mip chain of a cut-out texture (foliage, fences, hair cards).
//
// A masked material draws a texel where its alpha passes the cutoff. Filtering a level averages
// a cut-out's thin opaque parts with the transparent texels beside them, and the averages fall
// below the cutoff: in each smaller level fewer texels pass, and thin geometry thins out and
// vanishes with distance although the mean alpha is kept. Each level's alpha is scaled instead so
// that the fraction of texels passing the test is level 0's (I. Castano, "Computing Alpha
// Mipmaps", 2010). Colour is unchanged: textures are stored with straight alpha.
#pragma once

#include <cstddef>
#include <cstdint>

namespace baker {

// Alpha channel storage of 8-bit (RGBA8) or 16-bit (RGBA16_UNORM) texels.
enum class AlphaDepth { Bits8, Bits16 };

// The fraction of the `count` RGBA texels at `texels` whose alpha passes `cutoff` (alpha / max >=
// cutoff, as a shader's test of the stored value). 0 for no texels.
double alpha_coverage(const std::byte* texels, uint64_t count, AlphaDepth depth, float cutoff);

// Scales the alpha of the `count` RGBA texels at `texels` so that the fraction passing `cutoff`
// comes as close to `coverage` as their values allow. The order of alpha values is kept, a texel
// at the alpha that passes first is scaled onto the cutoff exactly, and none goes past the
// channel's maximum. Nothing changes when the level already comes closest as it is.
void keep_alpha_coverage(std::byte* texels, uint64_t count, AlphaDepth depth, float cutoff,
                         double coverage);

}  // namespace baker
