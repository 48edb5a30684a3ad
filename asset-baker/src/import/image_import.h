// Source images in, decoded pixels out: stb_image, wrapped once. Every caller (the texture bake,
// PSNR against the source) goes through here, so the limits and the container preflight
// (image_preflight.h) apply to every decode.
#pragma once

#include "common/bake_status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace baker {

// Largest width or height accepted from a source image (checked before decoding).
inline constexpr uint32_t kMaxSourceDimension = 16384;

struct PixelsFree {
  void operator()(void* pixels) const;
};

// A decoded image, always 4 channels of 8-bit, 16-bit or float values.
struct DecodedImage {
  uint32_t width = 0, height = 0;
  int channels = 4;           // in the source file: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  int bytes_per_channel = 1;  // 1, 2 or 4 (float)
  std::unique_ptr<void, PixelsFree> pixels;
  std::vector<std::string> warnings;  // what the decode left out or changed (animation, EXIF turn)
};

// Native keeps 16-bit and float sources as they are; EightBit converts everything to 8 bits.
enum class ImageDepth { Native, EightBit };

// What the header of an image announces, read without decoding it (width and height as shown,
// after its orientation).
struct ImageHeader {
  uint32_t width = 0, height = 0;
  int bytes_per_channel = 1;  // as decode_image(Native) would give: 1, 2 or 4
};

// The header of `source`; nullopt when it is not an image stb_image reads.
std::optional<ImageHeader> probe_image(std::span<const std::byte> source);

// Decodes `source` (the whole file `name`, for messages) into the image as it is meant to be shown:
// turned as its TGA origin or EXIF orientation says (image_orientation.h). Refuses, before
// allocating, an image outside 1..kMaxSourceDimension on a side or a container that cannot hold
// the pixels its header announces; names the unsupported format or feature of a file stb_image
// cannot read (image_diagnosis.h). Errors name the file and the reason.
BakeStatus decode_image(std::span<const std::byte> source, const std::string& name,
                        DecodedImage& out, ImageDepth depth = ImageDepth::Native);

}  // namespace baker
