// How a source image asks to be turned before it is shown, beyond what stb_image applies.
//
// stb_image 2.27 honours a TGA's top-to-bottom bit but not its right-to-left bit (descriptor bit
// 4), and ignores EXIF orientation (a JPEG's APP1 segment, a PNG's eXIf chunk), which cameras and
// phones write instead of rotating the pixels: a portrait photo decoded as stored lies on its side.
// Image viewers, browsers and Pillow's exif_transpose apply both; so does the baker.
#pragma once

#include "import/image_import.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace baker {

// The EXIF orientation values (TIFF tag 0x0112): the transform that turns the stored pixels into
// the image as shown.
enum class Orientation : uint8_t {
  Normal = 1,
  MirrorX = 2,  // flipped left to right (a right-to-left TGA)
  Rotate180 = 3,
  MirrorY = 4,     // flipped top to bottom
  Transpose = 5,   // mirrored across the top-left to bottom-right diagonal
  Rotate90 = 6,    // turned 90 degrees clockwise
  Transverse = 7,  // mirrored across the top-right to bottom-left diagonal
  Rotate270 = 8,   // turned 90 degrees counter-clockwise
};

// The turn `source` still needs after stb_image has decoded it. Reads only what the file holds
// (bounded walks over JPEG segments, PNG chunks and one TIFF directory); an unreadable or out-of-
// range orientation is Normal. `from_exif`, when given, tells whether it came from EXIF metadata
// (rather than from a TGA's row order).
Orientation source_orientation(std::span<const std::byte> source, bool* from_exif = nullptr);

// True when the orientation exchanges width and height.
bool swaps_sides(Orientation orientation);

// Turns `image` (4 channels of image.bytes_per_channel bytes) in place: new pixels, new width and
// height. False when the new pixel buffer cannot be allocated (the image is unchanged).
bool apply_orientation(DecodedImage& image, Orientation orientation);

}  // namespace baker
