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

// For an 8-bit RGB PSD whose channels past the third are not transparency: the patch that makes
// stb_image read the three colour channels alone (the header's channel count set to 3 and, for RLE
// data, the other channels' row counts dropped), opaque. Empty for any other file. `source` has
// passed preflight_image (its sections and row table are in the file).
std::optional<PatchedImage> psd_colour_only(std::span<const std::byte> source);

}  // namespace baker
