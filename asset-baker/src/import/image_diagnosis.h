// Naming what stb_image cannot read. stb_image tries its formats in turn and reports the last
// one's complaint, so a valid file it does not support (an RLE8 BMP, a 12-bit or arithmetic-coded
// JPEG, a TIFF) came out as "unknown image type". This reads the header itself and names the
// format or the feature, so the user knows what to convert.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

namespace baker {

// The unsupported format or feature `source` declares, as a sentence ("RLE8-compressed BMP is not
// supported"), or empty when its header declares nothing the decoder lacks (then the file is
// damaged, not an image, or empty). Reads only the file's first headers, within its bytes.
std::string unsupported_image_feature(std::span<const std::byte> source);

// The width and height a PNG's IHDR or a plausible TGA header declares, whatever they are
// (stb_image refuses a zero side or one past 2^24 as "unknown image type"); nullopt for other
// files.
std::optional<std::pair<uint32_t, uint32_t>> declared_size(std::span<const std::byte> source);

}  // namespace baker
