// Animated sources: stb_image decodes one picture of an animated PNG (APNG) or GIF, and a texture
// holds one picture, so the baker bakes that one and says so (a warning naming the file and the
// frame count) instead of dropping the animation silently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace baker {

// The number of frames `source` animates through: the acTL chunk of an APNG, the image
// descriptors of a GIF; 1 for a still image or any other format. Walks only what the file holds.
uint32_t animation_frames(std::span<const std::byte> source);

}  // namespace baker
