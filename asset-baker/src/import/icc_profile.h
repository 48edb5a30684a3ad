// What an embedded ICC profile (a PNG iCCP chunk, a JPEG's APP2 ICC_PROFILE segments) describes:
// whether its colour space is sRGB, judged by what the profile does, not by its name (exporters
// embed sRGB under generic names, and other spaces under names that mention sRGB: "sRGB linear",
// "Display P3 ... compatible with sRGB").
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace baker {

struct IccProfile {
  // Its colorants (rXYZ, gXYZ, bXYZ) within 0.01 of sRGB's and its tone curves (rTRC, gTRC, bTRC;
  // kTRC for grey) within 0.01 of sRGB's at two points; for a profile without those tags (tables
  // only), its description naming sRGB.
  bool srgb = false;
  std::string description;  // the `desc` tag in ASCII ('?' for other characters), or ""
};

// `profile` read as an ICC profile; nullopt when it is none (no 'acsp' signature, a tag table past
// its end). Reads only within `profile`.
std::optional<IccProfile> read_icc_profile(std::span<const std::byte> profile);

}  // namespace baker
