// Saves the rendered image as a .tx texture through assetlib itself, so the engine side still
// needs no image library; any assetlib reader (the test helper is one) reads it back.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <span>
#include <string>

namespace sample {

// `pixels`: tightly packed rows of `format` (R8G8B8A8_SRGB or _UNORM). Throws SampleError naming
// `path` on failure. The file is written atomically.
void save_screenshot(const std::string& path, VkFormat format, VkExtent2D extent,
                     std::span<const std::byte> pixels);

}  // namespace sample
