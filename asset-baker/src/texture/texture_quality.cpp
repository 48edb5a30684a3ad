#include "texture/texture_quality.h"

#include "import/image_import.h"
#include "texture/texture_readback.h"

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

std::optional<double> texture_psnr(const assetlib::TextureInfo& info,
                                   std::span<const std::byte> baked,
                                   std::span<const std::byte> source) {
  DecodedImage image;
  if (!decode_image(source, info.original_file, image, ImageDepth::EightBit) ||
      image.width != info.width || image.height != info.height) {
    return std::nullopt;
  }
  auto pixels = static_cast<const uint8_t*>(image.pixels.get());
  size_t w = image.width, h = image.height;
  std::vector<uint8_t> decoded = level_to_rgba8(info, 0, baked);
  int channels = compared_channels(info.format);
  double squared = 0;
  size_t texels = w * h;
  for (size_t i = 0; i < texels; ++i) {
    for (int c = 0; c < channels; ++c) {
      double d = double(decoded[i * 4 + size_t(c)]) - double(pixels[i * 4 + size_t(c)]);
      squared += d * d;
    }
  }
  double mse = squared / double(texels * size_t(channels));
  if (mse == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / mse);
}

}  // namespace baker
