// A source file as stb_image should read it: the file with some byte ranges replaced (a header, a
// palette chunk, a row table), so that the pixel data is read in place, not copied. Made by
// full_palette.h and psd_colour.h; read by image_import.cpp.
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
