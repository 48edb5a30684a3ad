// Palette images made deterministic for stb_image.
//
// stb_image 2.27 reads a palette into a table on its stack (256 entries) and fills only the
// entries the file holds: a pixel whose index lies past them takes whatever the stack held, so the
// same file decoded to different pixels on every run (valgrind: uninitialised reads reaching the
// texture). Two formats do this:
// - BMP (1, 4 and 8 bits, Windows and OS/2 headers). stb_image counts the entries from the pixel
//   data offset, and for the OS/2 header (12 bytes, 3-byte entries) 4 too few, so even a complete
//   256-colour OS/2 file lost its last 4 colours.
// - PNG of colour type 3 with a PLTE chunk of fewer than 256 entries (libpng's badpal test files).
// GIF and TGA palettes are not affected (stb_image zero-fills or clamps them: a TGA index past its
// map is entry 0, warned about in image_import.cpp); RLE BMPs are refused
// by stb_image. A TGA whose colour map starts at a non-zero entry is patched too (its palette
// read from the wrong bytes, full_palette.cpp).
//
// The baker hands stb_image an equivalent file instead, with a full 256-entry palette: the file's
// entries, then zeros (opaque black, what libpng gives such indices). Files whose pixels stay
// within their palette decode exactly as before. The new file is the source with some bytes
// replaced (a header, a chunk), so the pixel data is read in place, not copied.
#pragma once

#include "common/bake_status.h"
#include "import/patched_image.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace baker {

// For a BMP or PNG that stb_image decodes with a palette of fewer than 256 entries (or, for a
// BMP, with any palette), `out` gets the patch that gives it a full one; for any other file it
// stays empty, and stb_image decodes (or refuses) the file as it is. A BMP with a palette format
// but no room for one entry before its pixel data is refused (InvalidSource, naming the file):
// stb_image refused it or, when the offset points into the header, read every colour from
// nowhere. `source` has passed preflight_image (its chunks and pixel data are in the file).
BakeStatus full_palette(std::span<const std::byte> source, const std::string& name,
                        std::optional<PatchedImage>& out);

}  // namespace baker
