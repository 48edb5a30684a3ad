#include "texture/bake_texture.h"

#include "common/half_float.h"
#include "import/image_colour_space.h"
#include "import/image_import.h"
#include "texture/block_compress.h"
#include "texture/mip_chain.h"
#include "texture/texture_role.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace baker {
namespace {

using assetlib::TextureFormat;
using assetlib::TextureInfo;

// The uncompressed format the mip chain is built in (and stored in, unless block-compressed).
TextureFormat storage_format(const DecodedImage& image, TextureRole role, const std::string& name,
                             std::vector<std::string>& warnings) {
  bool colour = role == TextureRole::Color || role == TextureRole::Ui;
  if (image.bytes_per_channel == 4) return TextureFormat::RGBA16_SFLOAT;
  if (image.bytes_per_channel == 2) {
    if (!colour) return TextureFormat::RGBA16_UNORM;
    // Vulkan has no 16-bit sRGB format; 8-bit sRGB keeps colour precision where the eye needs it.
    warnings.push_back(name +
                       ": 16-bit colour image stored as 8-bit sRGB (set texture_role to "
                       "\"data\" to keep 16 bits)");
  }
  return colour ? TextureFormat::RGBA8_SRGB : TextureFormat::RGBA8_UNORM;
}

// Half floats end at 65504; meshopt_quantizeHalf turns anything above into infinity, which
// shading turns into NaN. A Radiance HDR easily holds more (the sun). Clamped, said so.
void clamp_to_half_range(DecodedImage& image, const std::string& name,
                         std::vector<std::string>& warnings) {
  auto p = static_cast<float*>(image.pixels.get());
  uint64_t clamped = 0;
  float largest = 0;
  for (size_t i = 0; i < size_t(image.width) * image.height * 4; ++i) {
    if (!(std::fabs(p[i]) > kMaxHalf)) continue;
    largest = std::max(largest, std::fabs(p[i]));
    p[i] = std::copysign(kMaxHalf, p[i]);
    ++clamped;
  }
  if (clamped == 0) return;
  char largest_text[32];
  std::snprintf(largest_text, sizeof largest_text, "%g", double(largest));
  warnings.push_back(name + ": " + std::to_string(clamped) +
                     " value(s) beyond 65504, the largest half float (up to " + largest_text +
                     "): clamped to 65504");
}

bool has_alpha(const DecodedImage& image) {
  if (image.channels != 2 && image.channels != 4) return false;
  auto p = static_cast<const uint8_t*>(image.pixels.get());
  for (size_t i = 3; i < size_t(image.width) * image.height * 4; i += 4) {
    if (p[i] != 255) return true;
  }
  return false;
}

// Channels of a grey texel may differ by this much: a grey image saved as an RGB JPEG comes back
// with R, G and B a level or two apart (chroma subsampling and rounding). BC1 itself moves
// colours by more (5:6:5 endpoints).
constexpr int kGreyTolerance = 3;

// True when every texel has R = G = B, within kGreyTolerance: grey data saved as RGB (an
// occlusion map exported as a colour image) is one channel, and BC4 keeps it at half BC1's size
// and twice its precision.
bool is_grey(const DecodedImage& image) {
  if (image.channels <= 2) return true;
  auto p = static_cast<const uint8_t*>(image.pixels.get());
  for (size_t i = 0; i < size_t(image.width) * image.height * 4; i += 4) {
    if (std::abs(p[i] - p[i + 1]) > kGreyTolerance || std::abs(p[i] - p[i + 2]) > kGreyTolerance)
      return false;
  }
  return true;
}

// What the GPU should sample: BC1 opaque colour, BC3 colour with alpha, BC4 one-channel data,
// BC5 normal maps (X/Y; the shader rebuilds Z). UI and 16-bit/HDR stay uncompressed.
TextureFormat block_format(const DecodedImage& image, TextureRole role, TextureFormat storage) {
  if (role == TextureRole::Ui || image.bytes_per_channel != 1) return storage;
  bool srgb = storage == TextureFormat::RGBA8_SRGB;
  if (role == TextureRole::Normal) return TextureFormat::BC5_UNORM;
  bool alpha = has_alpha(image);
  if (role == TextureRole::Data && !alpha && is_grey(image)) return TextureFormat::BC4_UNORM;
  if (alpha) return srgb ? TextureFormat::BC3_SRGB : TextureFormat::BC3_UNORM;
  return srgb ? TextureFormat::BC1_RGB_SRGB : TextureFormat::BC1_RGB_UNORM;
}

}  // namespace

BakeStatus bake_texture(std::span<const std::byte> source, const std::string& relative_path,
                        const BakeSettings& settings, assetlib::AssetFile& out,
                        std::vector<std::string>& warnings, unsigned threads) {
  DecodedImage image;
  if (BakeStatus s = decode_image(source, relative_path, image); !s) return s;
  warnings.insert(warnings.end(), image.warnings.begin(), image.warnings.end());
  TextureRole role = settings.texture.role == TextureRole::Auto ? role_from_name(relative_path)
                                                                : settings.texture.role;
  TextureFormat format = storage_format(image, role, relative_path, warnings);
  if (format == TextureFormat::RGBA16_SFLOAT) {
    // Radiance files may say their pixels were scaled; renderers read the stored values.
    if (std::string exposure = declared_exposure(source); !exposure.empty()) {
      warnings.push_back(relative_path + ": declares " + exposure +
                         " (its pixels were multiplied by that); baked as stored");
    }
    if (std::string declared = declared_hdr_colour(source); !declared.empty()) {
      warnings.push_back(relative_path + ": declares " + declared +
                         "; baked as stored, without colour conversion");
    }
    clamp_to_half_range(image, relative_path, warnings);
  }
  // A tangent-space normal map is bluish (X and Y about 0.5, Z near 1); a grey one is a height
  // (bump) map, which `.mtl` files often name with `bump`: lit as a normal map, it tilts every
  // normal the same way. Baked as given, said so.
  const bool grey =
      image.channels <= 2 || (image.bytes_per_channel == 1 && is_grey(image));  // any depth
  if (role == TextureRole::Normal && grey) {
    warnings.push_back(relative_path +
                       ": a grey image used as a normal map (a height or bump map?); normal maps "
                       "hold X, Y and Z in R, G and B: baked as given, it will light wrongly");
  }
  // Colour is stored as sRGB, converted from nothing: a source that declares another colour space
  // says so (data roles are not colour, whatever their file declares).
  if (format == TextureFormat::RGBA8_SRGB) {
    if (std::string declared = declared_colour_space(source); !declared.empty()) {
      warnings.push_back(relative_path + ": declares " + declared +
                         "; baked as sRGB without colour conversion");
    }
  }
  TextureFormat final_format =
      settings.texture.block_compression ? block_format(image, role, format) : format;
  uint32_t width = image.width, height = image.height;
  uint32_t max_size = settings.texture.max_size;
  if (max_size > 0 && std::max(width, height) > max_size) {
    double scale = double(max_size) / double(std::max(width, height));
    width = std::max(1u, uint32_t(std::lround(width * scale)));
    height = std::max(1u, uint32_t(std::lround(height * scale)));
  }
  bool mips = settings.texture.mips && role != TextureRole::Ui;
  TextureInfo info = assetlib::make_texture_info(
      format, width, height, mips ? assetlib::texture_full_mip_count(width, height) : 1);
  info.original_file = relative_path;

  std::vector<std::byte> chain = build_mip_chain(image, info, role, settings.texture.sampling);
  if (final_format != format) {
    TextureInfo blocks =
        assetlib::make_texture_info(final_format, width, height, uint32_t(info.mips.size()));
    blocks.original_file = relative_path;
    std::vector<std::byte> encoded(blocks.total_size);
    for (size_t i = 0; i < info.mips.size(); ++i) {
      compress_level(
          final_format, reinterpret_cast<const uint8_t*>(chain.data() + info.mips[i].offset),
          info.mips[i].width, info.mips[i].height, encoded.data() + blocks.mips[i].offset, threads);
    }
    return BakeStatus::from_memory_call(
        assetlib::pack_texture(blocks, encoded.data(), encoded.size(), out, settings.pack),
        BakeError::InvalidSource, relative_path);
  }
  return BakeStatus::from_memory_call(
      assetlib::pack_texture(info, chain.data(), chain.size(), out, settings.pack),
      BakeError::InvalidSource, relative_path);
}

}  // namespace baker
