// Animated sources: stb_image decodes one picture of an animated PNG (APNG) or GIF, and a texture
// holds one picture, so the baker bakes that one and says so (a warning naming the file and the
// frame count) instead of dropping the animation silently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace baker {

struct ImageAnimation {
  uint32_t frames = 1;  // what the file animates through; 1 for a still image
  // Whether the picture stb_image decodes (an APNG's IDAT image, a GIF's first frame) is one of
  // the frames: an APNG whose first fcTL comes after its IDAT shows it only to viewers that do not
  // animate.
  bool decoded_is_frame = true;
  // Where a GIF's first frame lies on its canvas (image descriptor: left, top, width, height);
  // the canvas outside it is the background. All 0 for other formats.
  uint32_t frame_x = 0, frame_y = 0, frame_width = 0, frame_height = 0;
};

// How `source` animates: the acTL and fcTL chunks of an APNG, the image descriptors of a GIF; a
// still image for any other format. Walks only what the file holds.
ImageAnimation image_animation(std::span<const std::byte> source);

}  // namespace baker
