// Checks an image file's container before stb_image decodes it.
//
// stb_image 2.27 trusts headers: a file that stops after its header is decoded as zeros (BMP, TGA,
// PSD, PNM, HDR, GIF), a PNG chunk claiming 2 GiB makes it allocate 2 GiB, and a truncated RLE
// scanline in an HDR file makes it loop for ever; a 16-bit PNM makes it read past its buffer. This
// walks the file's structure (without decoding pixels) and refuses a file that cannot hold the
// pixels its header announces, so that what the baker allocates is justified by the file
// (docs/robustness.md, "Baker").
#pragma once

#include "common/bake_status.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace baker {

// Most decoded pixels one byte of a compressed container may stand for. PNG: deflate expands at
// most 1032 x and a byte of 1-bit pixels holds 8. Other compressed formats (JPEG, GIF, PIC): a
// policy, far above what real images reach, that refuses forged headers and degenerate files.
inline constexpr uint64_t kMaxPngPixelsPerByte = 1032 * 8;
inline constexpr uint64_t kMaxPixelsPerByte = 4096;

// `source` is the whole file at `name`; `width` x `height` is what stb_image's header reader
// announced. Refuses (InvalidSource, LimitExceeded or UnsupportedFeature, naming the file and
// what is missing) a file that cannot hold that image.
BakeStatus preflight_image(std::span<const std::byte> source, const std::string& name,
                           uint32_t width, uint32_t height);

// What is wrong with the structure of the PNG file `source`, as a sentence: a chunk longer than
// the file, a chunk that shapes the pixels failing its CRC, an IHDR outside the specification, no
// image data, a signature that differs in one or two of its 8 bytes or whose line-end bytes were
// changed. Empty when its chunks are sound, or when `source` is not a PNG. For
// the message of a PNG stb_image cannot read (it says "unknown image type"); reads only within
// `source`.
std::string png_damage(std::span<const std::byte> source);

// The maximum sample value a binary PNM (P5, P6) header declares, or 0 when `source` is not one.
// stb_image returns PNM samples as stored: below 255, they are not yet 0..255.
uint32_t pnm_maxval(std::span<const std::byte> source);

}  // namespace baker
