// A PSD's extra channels kept out of its pixels.
//
// A PSD's merged image holds its colour channels, then any others. A fourth channel of an RGB file
// is the merged transparency only when the layer count in the layer section is negative (Adobe's
// Photoshop file format, "Layer info"); otherwise it is a saved selection or a spot channel.
// stb_image 2.27 reads a fourth channel as alpha whenever there is one, and "un-mattes" the colour
// against white by it: a file with a saved selection baked with changed colours and the selection
// as its transparency, exit 0.
#pragma once

#include "import/patched_image.h"

#include <cstddef>
#include <optional>
#include <span>

namespace baker {

// For an RGB PSD (8-bit, or 16-bit uncompressed: the 16-bit RLE files preflight_image refuses)
// whose channels past the third are not transparency: the patch that makes stb_image read the
// three colour channels alone (the header's channel count set to 3 and, for RLE data, the other
// channels' row counts dropped), opaque. Empty for any other file. `source` has passed
// preflight_image (its sections and row table are in the file).
std::optional<PatchedImage> psd_colour_only(std::span<const std::byte> source);

// Whether `source` is a PSD of 16 bits per channel. stb_image 2.27 never says so
// (stbi_is_16_bit): its PSD test skips the height and width inside STBI_NOTUSED, an unevaluated
// sizeof, and reads the height's upper half as the depth. Such files baked cut to 8 bits, exit 0.
bool psd_is_16_bit(std::span<const std::byte> source);

}  // namespace baker
