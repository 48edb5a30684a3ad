// A source file as stb_image should read it: the file with some byte ranges replaced (a header, a
// palette chunk, a row table, component numbers) or dropped (a gap), so that the pixel data is
// read in place, not copied. Made by full_palette.h, psd_colour.h, jpeg_component_ids.h and
// bmp_pixel_gap.h; read by image_import.cpp.
#pragma once

#include <cstdint>
#include <vector>

namespace baker {

struct PatchedImage {
  // [at, at + size) of the source replaced by `bytes`.
  struct Edit {
    uint64_t at = 0, size = 0;
    std::vector<uint8_t> bytes;
  };
  std::vector<Edit> edits;  // in file order, not overlapping
};

}  // namespace baker
