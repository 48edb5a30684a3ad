// IEEE half floats as the baker stores them: UVs of the compact vertex formats, HDR texels.
#pragma once

#include <cstdint>

namespace baker {

// The largest finite half float.
inline constexpr float kMaxHalf = 65504.0f;

// `v` as a half float, rounded to nearest. Where meshopt_quantizeHalf gives what no stored value
// should hold, this does not: beyond +-65504 it is clamped to +-65504 (meshopt gives infinity,
// which shading turns into NaN), and below 2^-14 it is a subnormal half, rounded to nearest even,
// down to 2^-24 (meshopt flushes to 0). NaN gives 0: importers refuse non-finite values before.
uint16_t to_half(float v);

}  // namespace baker
