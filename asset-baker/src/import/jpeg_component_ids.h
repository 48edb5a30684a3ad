// JPEG colour transforms read as libjpeg reads them.
//
// A 3-component JPEG holds YCbCr or RGB, and the file says which in one of three ways. libjpeg
// (jdapimin.c; what viewers and browsers decode with) ranks them: a JFIF marker means YCbCr; else
// an Adobe APP14 marker's transform (0 RGB, 1 YCbCr); else components numbered 'R', 'G', 'B' mean
// RGB. stb_image 2.27 takes the numbering first: a JFIF file (or Adobe transform 1) whose
// components are numbered 'R', 'G', 'B' decoded as RGB, its colours shifted (a red of c04020 baked
// as 635ac3) with no word said.
#pragma once

#include "import/patched_image.h"

#include <cstddef>
#include <optional>
#include <span>

namespace baker {

// For such a file: the edits that renumber its components 1, 2, 3 in the frame header and in every
// scan header, so that stb_image reads the markers as libjpeg does (the numbers only pair scans
// with frame components). nullopt for every other file, JPEG or not.
std::optional<PatchedImage> jpeg_ycbcr_renumbered(std::span<const std::byte> source);

}  // namespace baker
