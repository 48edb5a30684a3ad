// Colour spaces a source declares: the baker bakes colour images as sRGB and data images as
// linear (texture_role.h), and converts nothing. A PNG, JPEG, BMP or PSD that declares another
// space (an embedded ICC profile, a gamma or primaries other than sRGB's) would bake with shifted
// colours and no word said; the importer names the declaration in a warning instead.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace baker {

// What `source` declares besides sRGB, as a phrase for a warning ("an ICC profile 'ProPhoto
// RGB'", "a gamma of 1/1.00", "chromaticities other than sRGB's (...)"); "" when it declares
// nothing else. PNG, by the specification's (third edition) ranking, the first present deciding:
// a cICP chunk of BT.709 primaries and the sRGB transfer; an ICC profile that is sRGB
// (icc_profile.h; inflated only when its compressed bytes are at most 16 KiB); an sRGB chunk; then
// a gamma within 5 % of sRGB's 1/2.2 and chromaticities within 0.01 of sRGB's, or neither; only
// chunks before the image data are read. JPEG: no ICC profile in APP2 segments, or an sRGB one.
// BMP: no V4/V5 header, or one whose colour space is sRGB, the Windows default or an embedded sRGB
// profile. PSD: no ICC profile image resource (1039), or an sRGB one. Other formats give "".
std::string declared_colour_space(std::span<const std::byte> source);

// For a Radiance HDR whose header declares EXPOSURE lines (each a factor its pixels were multiplied
// by, cumulative): "EXPOSURE=<product>", when the product is not 1; else "". Only the header (up to
// its empty line, within the first 4 KiB) is read.
std::string declared_exposure(std::span<const std::byte> source);

// For a Radiance HDR whose header declares primaries other than Radiance's standard ones (within
// 0.01) or a colour correction other than 1 1 1: that line ("PRIMARIES=0.708 0.292 ..."); else "".
// The first such line decides; the header is read as declared_exposure reads it.
std::string declared_hdr_colour(std::span<const std::byte> source);

}  // namespace baker
