#include "bake_texture.h"

#include "block_compress.h"
#include "image_preflight.h"

#include <meshoptimizer.h>
#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>

namespace baker {
namespace {

using assetlib::ErrorCode;
using assetlib::Status;
using assetlib::TextureFormat;
using assetlib::TextureInfo;

struct StbiFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

// A decoded image, always 4 channels: 8-bit, 16-bit or float per channel.
struct DecodedImage {
  uint32_t width = 0, height = 0;
  int channels = 4;           // in the source file: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  int bytes_per_channel = 1;  // 1, 2 or 4 (float)
  std::unique_ptr<void, StbiFree> pixels;
};

std::string stem_of(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

Status decode(std::span<const std::byte> source, const std::string& name, DecodedImage& out) {
  auto data = reinterpret_cast<const stbi_uc*>(source.data());
  if (source.size() > size_t(INT32_MAX)) {
    return Status::error(ErrorCode::InvalidValue, name + ": file larger than 2 GiB");
  }
  int len = int(source.size());
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(data, len, &w, &h, &comp)) {
    return Status::error(ErrorCode::InvalidValue, name + ": not a readable image (" +
                                                      std::string(stbi_failure_reason()) + ")");
  }
  if (w <= 0 || h <= 0 || uint32_t(w) > kMaxSourceDimension || uint32_t(h) > kMaxSourceDimension) {
    return Status::error(ErrorCode::InvalidValue,
                         name + ": " + std::to_string(w) + "x" + std::to_string(h) +
                             " is outside the 1.." + std::to_string(kMaxSourceDimension) + " limit");
  }
  if (Status s = preflight_image(source, name, uint32_t(w), uint32_t(h)); !s) return s;
  void* pixels = nullptr;
  if (stbi_is_hdr_from_memory(data, len)) {
    out.bytes_per_channel = 4;
    pixels = stbi_loadf_from_memory(data, len, &w, &h, &comp, 4);
  } else if (stbi_is_16_bit_from_memory(data, len)) {
    out.bytes_per_channel = 2;
    pixels = stbi_load_16_from_memory(data, len, &w, &h, &comp, 4);
  } else {
    out.bytes_per_channel = 1;
    pixels = stbi_load_from_memory(data, len, &w, &h, &comp, 4);
  }
  if (!pixels) {
    const char* reason = stbi_failure_reason();
    return Status::error(ErrorCode::InvalidValue, name + ": decoding failed (" +
                                                      std::string(reason && *reason ? reason : "corrupt data") + ")");
  }
  out.pixels.reset(pixels);
  out.channels = comp;
  out.width = uint32_t(w);
  out.height = uint32_t(h);
  return {};
}

// The uncompressed format the mip chain is built in (and stored in, unless block-compressed).
TextureFormat storage_format(const DecodedImage& image, TextureRole role, const std::string& name,
                             std::vector<std::string>& warnings) {
  bool colour = role == TextureRole::Color || role == TextureRole::Ui;
  if (image.bytes_per_channel == 4) return TextureFormat::RGBA16_SFLOAT;
  if (image.bytes_per_channel == 2) {
    if (!colour) return TextureFormat::RGBA16_UNORM;
    // Vulkan has no 16-bit sRGB format; 8-bit sRGB keeps colour precision where the eye needs it.
    warnings.push_back(name + ": 16-bit colour image stored as 8-bit sRGB (set texture_role to "
                              "\"data\" to keep 16 bits)");
  }
  return colour ? TextureFormat::RGBA8_SRGB : TextureFormat::RGBA8_UNORM;
}

// Converts the decoded pixels to the storage type of `format` (8-bit, 16-bit or float channels)
// in `dst`, which holds width * height texels.
bool has_alpha(const DecodedImage& image) {
  if (image.channels != 2 && image.channels != 4) return false;
  auto p = static_cast<const uint8_t*>(image.pixels.get());
  for (size_t i = 3; i < size_t(image.width) * image.height * 4; i += 4) {
    if (p[i] != 255) return true;
  }
  return false;
}

// What the GPU should sample: BC1 opaque colour, BC3 colour with alpha, BC4 one-channel data,
// BC5 normal maps (X/Y; the shader rebuilds Z). UI and 16-bit/HDR stay uncompressed.
TextureFormat block_format(const DecodedImage& image, TextureRole role, TextureFormat storage) {
  if (role == TextureRole::Ui || image.bytes_per_channel != 1) return storage;
  bool srgb = storage == TextureFormat::RGBA8_SRGB;
  if (role == TextureRole::Normal) return TextureFormat::BC5_UNORM;
  bool alpha = has_alpha(image);
  if (role == TextureRole::Data && image.channels <= 2 && !alpha) return TextureFormat::BC4_UNORM;
  if (alpha) return srgb ? TextureFormat::BC3_SRGB : TextureFormat::BC3_UNORM;
  return srgb ? TextureFormat::BC1_RGB_SRGB : TextureFormat::BC1_RGB_UNORM;
}

void convert_level0(const DecodedImage& image, TextureFormat format, std::byte* dst) {
  size_t channels = size_t(image.width) * image.height * 4;
  if (format == TextureFormat::RGBA16_SFLOAT || format == TextureFormat::RGBA16_UNORM) {
    if (image.bytes_per_channel == 2 || image.bytes_per_channel == 4) {
      std::memcpy(dst, image.pixels.get(), channels * size_t(image.bytes_per_channel));
      return;
    }
  }
  if (image.bytes_per_channel == 2) {
    // 16-bit colour -> 8-bit: round, do not truncate.
    auto src = static_cast<const uint16_t*>(image.pixels.get());
    for (size_t i = 0; i < channels; ++i) dst[i] = std::byte(uint8_t((src[i] + 128u) / 257u));
    return;
  }
  std::memcpy(dst, image.pixels.get(), channels);
}

void resize_level(TextureFormat format, const std::byte* src, uint32_t sw,
                  uint32_t sh, std::byte* dst, uint32_t dw, uint32_t dh) {
  int w = int(sw), h = int(sh), w2 = int(dw), h2 = int(dh);
  switch (format) {
    case TextureFormat::RGBA8_SRGB:
      // Gamma-correct, and alpha-weighted so transparent texels do not bleed their colour.
      stbir_resize_uint8_srgb(reinterpret_cast<const unsigned char*>(src), w, h, 0,
                              reinterpret_cast<unsigned char*>(dst), w2, h2, 0, 4, 3, 0);
      break;
    case TextureFormat::RGBA8_UNORM:
      stbir_resize_uint8_generic(reinterpret_cast<const unsigned char*>(src), w, h, 0,
                                 reinterpret_cast<unsigned char*>(dst), w2, h2, 0, 4,
                                 STBIR_ALPHA_CHANNEL_NONE, 0, STBIR_EDGE_CLAMP, STBIR_FILTER_DEFAULT,
                                 STBIR_COLORSPACE_LINEAR, nullptr);
      break;
    case TextureFormat::RGBA16_UNORM:
      stbir_resize_uint16_generic(reinterpret_cast<const uint16_t*>(src), w, h, 0,
                                  reinterpret_cast<uint16_t*>(dst), w2, h2, 0, 4,
                                  STBIR_ALPHA_CHANNEL_NONE, 0, STBIR_EDGE_CLAMP, STBIR_FILTER_DEFAULT,
                                  STBIR_COLORSPACE_LINEAR, nullptr);
      break;
    default:
      stbir_resize_float(reinterpret_cast<const float*>(src), w, h, 0, reinterpret_cast<float*>(dst),
                         w2, h2, 0, 4);
      break;
  }
}

// Filtering shortens normals; give every texel of a downsampled normal map unit length again.
void renormalize(std::byte* texels, uint64_t count) {
  auto p = reinterpret_cast<uint8_t*>(texels);
  for (uint64_t i = 0; i < count; ++i, p += 4) {
    float v[3];
    for (int k = 0; k < 3; ++k) v[k] = float(p[k]) / 127.5f - 1.0f;
    float len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len < 1e-6f) continue;
    for (int k = 0; k < 3; ++k) p[k] = uint8_t(std::lround((v[k] / len + 1.0f) * 127.5f));
  }
}

// Float pixels are resized as float, then stored as half floats.
void floats_to_halves(std::vector<std::byte>& chain, const TextureInfo& info,
                      std::vector<std::byte>& halves) {
  halves.resize(info.total_size);
  auto out = reinterpret_cast<uint16_t*>(halves.data());
  auto in = reinterpret_cast<const float*>(chain.data());
  for (uint64_t i = 0; i < info.total_size / 2; ++i) out[i] = meshopt_quantizeHalf(in[i]);
}

}  // namespace

TextureRole role_from_name(const std::string& relative_path) {
  std::string path = lower(relative_path);
  if (path.rfind("ui/", 0) == 0 || path.find("/ui/") != std::string::npos) return TextureRole::Ui;
  std::string stem = stem_of(path);
  size_t cut = stem.find_last_of("_.-");
  std::string token = cut == std::string::npos ? stem : stem.substr(cut + 1);
  // Short tokens must match whole ("wall_n"); long words may be part of a token ("metalRoughness").
  auto is_any = [&](std::initializer_list<const char*> whole, std::initializer_list<const char*> within) {
    for (const char* t : whole) {
      if (token == t) return true;
    }
    for (const char* t : within) {
      if (token.find(t) != std::string::npos) return true;
    }
    return false;
  };
  if (is_any({"n", "nrm", "norm"}, {"normal"})) return TextureRole::Normal;
  if (is_any({"r", "m", "h", "ao", "mr", "orm", "mask", "spec", "disp", "bump", "depth"},
             {"rough", "metal", "occlusion", "height", "displacement", "specular", "gloss"})) {
    return TextureRole::Data;
  }
  return TextureRole::Color;
}

Status bake_texture(std::span<const std::byte> source, const std::string& relative_path,
                    const BakeSettings& settings, assetlib::AssetFile& out,
                    std::vector<std::string>& warnings, unsigned threads) {
  DecodedImage image;
  if (Status s = decode(source, relative_path, image); !s) return s;
  TextureRole role = settings.texture.role == TextureRole::Auto ? role_from_name(relative_path)
                                                                : settings.texture.role;
  TextureFormat format = storage_format(image, role, relative_path, warnings);
  TextureFormat final_format = settings.texture.block_compression ? block_format(image, role, format) : format;
  // Resizing works on float for HDR; the chain is converted to halves at the end.
  TextureFormat work_format = format == TextureFormat::RGBA16_SFLOAT ? TextureFormat::Unknown : format;
  size_t texel_bytes = format == TextureFormat::RGBA16_SFLOAT ? 16 : assetlib::texture_level_size(format, 1, 1);

  uint32_t width = image.width, height = image.height;
  uint32_t max_size = settings.texture.max_size;
  if (max_size > 0 && std::max(width, height) > max_size) {
    double scale = double(max_size) / double(std::max(width, height));
    width = std::max(1u, uint32_t(std::lround(width * scale)));
    height = std::max(1u, uint32_t(std::lround(height * scale)));
  }
  bool mips = settings.texture.mips && role != TextureRole::Ui;
  TextureInfo info = assetlib::make_texture_info(format, width, height,
                                                 mips ? assetlib::texture_full_mip_count(width, height) : 1);
  info.original_file = relative_path;

  // The chain in working precision: level 0 first, each level resized from the one before.
  std::vector<uint64_t> offsets;
  uint64_t chain_size = 0;
  for (const auto& mip : info.mips) {
    offsets.push_back(chain_size);
    chain_size += uint64_t(mip.width) * mip.height * texel_bytes;
  }
  std::vector<std::byte> chain(chain_size);
  if (width == image.width && height == image.height) {
    convert_level0(image, format, chain.data());
  } else {
    std::vector<std::byte> full(size_t(image.width) * image.height * texel_bytes);
    convert_level0(image, format, full.data());
    resize_level(work_format, full.data(), image.width, image.height, chain.data(), width, height);
  }
  image.pixels.reset();
  for (size_t i = 1; i < info.mips.size(); ++i) {
    const auto& prev = info.mips[i - 1];
    const auto& mip = info.mips[i];
    resize_level(work_format, chain.data() + offsets[i - 1], prev.width, prev.height,
                 chain.data() + offsets[i], mip.width, mip.height);
    if (role == TextureRole::Normal && format == TextureFormat::RGBA8_UNORM) {
      renormalize(chain.data() + offsets[i], uint64_t(mip.width) * mip.height);
    }
  }
  if (format == TextureFormat::RGBA16_SFLOAT) {
    std::vector<std::byte> halves;
    floats_to_halves(chain, info, halves);
    chain.swap(halves);
  }
  if (final_format != format) {
    TextureInfo blocks = assetlib::make_texture_info(final_format, width, height, uint32_t(info.mips.size()));
    blocks.original_file = relative_path;
    std::vector<std::byte> encoded(blocks.total_size);
    for (size_t i = 0; i < info.mips.size(); ++i) {
      compress_level(final_format, reinterpret_cast<const uint8_t*>(chain.data() + info.mips[i].offset),
                     info.mips[i].width, info.mips[i].height, encoded.data() + blocks.mips[i].offset, threads);
    }
    return assetlib::pack_texture(blocks, encoded.data(), encoded.size(), out, settings.pack);
  }
  return assetlib::pack_texture(info, chain.data(), chain.size(), out, settings.pack);
}

}  // namespace baker
