// Alpha coverage kept through the mip chain of a cut-out texture (foliage, fences, hair cards).
//
// A masked material draws a texel where its alpha passes the cutoff. Filtering a level averages
// a cut-out's thin opaque parts with the transparent texels beside them, and the averages fall
// below the cutoff: in each smaller level fewer texels pass, and thin geometry thins out and
// vanishes with distance although the mean alpha is kept. Each level's alpha is scaled instead so
// that the fraction of texels passing the test is level 0's (I. Castano, "Computing Alpha
// Mipmaps", 2010). Colour is unchanged: textures are stored with straight alpha. Cut-outs are
// colour textures, whose levels are 8-bit (RGBA8) before block compression.
#pragma once

#include <cstddef>
#include <cstdint>

namespace baker {

// The fraction of the `count` RGBA8 texels at `texels` whose alpha passes `cutoff` (alpha / 255 >=
// cutoff, as a shader tests the stored value). 0 for no texels.
double alpha_coverage(const std::byte* texels, uint64_t count, float cutoff);

// Scales the alpha of the `count` RGBA8 texels at `texels` so that the fraction passing `cutoff`
// comes as close to `coverage` as their values allow; when two ways come as close, the one that
// passes more texels (a thin wire keeps a texel rather than none). While `coverage` is above 0, at
// least one texel passes if any alpha is above 0. The order of alpha values is kept, the lowest
// alpha that then passes is scaled onto the cutoff, and none goes past 255. Nothing changes when
// the level already comes closest as it is.
void keep_alpha_coverage(std::byte* texels, uint64_t count, float cutoff, double coverage);

}  // namespace baker
