// BMP files with bytes between their headers and their pixels.
//
// A BMP's file header gives the offset of its pixels, and writers may leave a gap before them
// (alignment, an application's data). stb_image 2.27 reads such a gap as the palette of a palette
// image (full_palette.h covers those), but refuses it in any other ("bad offset", "Corrupt BMP"):
// a legal 16-, 24- or 32-bit file that image viewers open failed the bake with a misleading reason.
#pragma once

#include "import/patched_image.h"

#include <cstddef>
#include <optional>
#include <span>

namespace baker {

// For a BMP without a palette whose pixels do not start right after its headers (and bit masks):
// the edits that drop the gap and point the offset at the pixels, so that stb_image reads the
// pixels in place. nullopt for every other file, BMP or not.
std::optional<PatchedImage> bmp_without_pixel_gap(std::span<const std::byte> source);

}  // namespace baker
