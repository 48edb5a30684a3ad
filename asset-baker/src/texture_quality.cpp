#include "texture_quality.h"

#include "texture_decode.h"

#include <stb/stb_image.h>

#include <cmath>
#include <limits>
#include <memory>

namespace baker {
namespace {

int compared_channels(assetlib::TextureFormat format) {
  switch (format) {
    case assetlib::TextureFormat::BC4_UNORM: return 1;
    case assetlib::TextureFormat::BC5_UNORM: return 2;
    case assetlib::TextureFormat::BC1_RGB_SRGB:
    case assetlib::TextureFormat::BC1_RGB_UNORM: return 3;
    default: return 4;
  }
}

}  // namespace

std::optional<double> texture_psnr(const assetlib::TextureInfo& info, std::span<const std::byte> baked,
                                   std::span<const std::byte> source) {
  int w = 0, h = 0, comp = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(source.data()), int(source.size()), &w, &h, &comp, 4),
      &stbi_image_free);
  if (!pixels || uint32_t(w) != info.width || uint32_t(h) != info.height) return std::nullopt;
  std::vector<uint8_t> decoded = level_to_rgba8(info, 0, baked);
  int channels = compared_channels(info.format);
  double squared = 0;
  size_t texels = size_t(w) * size_t(h);
  for (size_t i = 0; i < texels; ++i) {
    for (int c = 0; c < channels; ++c) {
      double d = double(decoded[i * 4 + size_t(c)]) - double(pixels.get()[i * 4 + size_t(c)]);
      squared += d * d;
    }
  }
  double mse = squared / double(texels * size_t(channels));
  if (mse == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / mse);
}

}  // namespace baker
