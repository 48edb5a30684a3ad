#include "import/image_import.h"

#include "import/bmp_pixel_gap.h"
#include "import/byte_view.h"
#include "import/full_palette.h"
#include "import/image_animation.h"
#include "import/image_diagnosis.h"
#include "import/image_orientation.h"
#include "import/image_preflight.h"
#include "import/jpeg_component_ids.h"
#include "import/psd_colour.h"

#include <stb/stb_image.h>

#include <algorithm>
#include <cstring>

namespace baker {
namespace {

// A patched image (patched_image.h) as stb_image reads it: the source with its edits applied,
// served through stb_image's callbacks so that the rest of the source is not copied.
class PatchedReader {
 public:
  PatchedReader(const PatchedImage& patch, std::span<const std::byte> source) {
    auto bytes = reinterpret_cast<const uint8_t*>(source.data());
    uint64_t from = 0;  // the source before each edit, the edit, ..., the rest of the source
    for (const PatchedImage::Edit& edit : patch.edits) {
      uint64_t at = std::clamp<uint64_t>(edit.at, from, source.size());
      parts_.push_back({bytes + from, size_t(at - from)});
      parts_.push_back({edit.bytes.data(), edit.bytes.size()});
      from = std::min<uint64_t>(at + edit.size, source.size());
    }
    parts_.push_back({bytes + from, size_t(source.size() - from)});
  }

  void* load(int& w, int& h, int& comp, bool sixteen_bit) {
    stbi_io_callbacks io{&PatchedReader::read, &PatchedReader::skip, &PatchedReader::eof};
    if (sixteen_bit) return stbi_load_16_from_callbacks(&io, this, &w, &h, &comp, 4);
    return stbi_load_from_callbacks(&io, this, &w, &h, &comp, 4);
  }

 private:
  uint64_t size() const {
    uint64_t total = 0;
    for (const std::span<const uint8_t>& part : parts_) total += part.size();
    return total;
  }
  static int read(void* user, char* data, int n) {
    auto* self = static_cast<PatchedReader*>(user);
    uint64_t done = 0, want = uint64_t(std::max(n, 0)), start = 0;
    for (const std::span<const uint8_t>& part : self->parts_) {
      uint64_t end = start + part.size();
      if (self->pos_ < end && done < want) {
        uint64_t chunk = std::min(want - done, end - self->pos_);
        std::memcpy(data + done, part.data() + (self->pos_ - start), chunk);
        done += chunk;
        self->pos_ += chunk;
      }
      start = end;
    }
    return int(done);
  }
  static void skip(void* user, int n) {  // n < 0 steps back (stb_image's "unget")
    auto* self = static_cast<PatchedReader*>(user);
    if (n < 0) {
      self->pos_ -= std::min(self->pos_, uint64_t(-int64_t(n)));
    } else {
      self->pos_ = std::min(self->size(), self->pos_ + uint64_t(n));
    }
  }
  static int eof(void* user) {
    auto* self = static_cast<PatchedReader*>(user);
    return self->pos_ >= self->size();
  }

  std::vector<std::span<const uint8_t>> parts_;
  uint64_t pos_ = 0;
};

// stb_image 2.27 reports the height of a top-down BMP as it is stored, negative (it decodes it
// with the absolute value): such files were refused as "13x-6 is outside the limit".
int header_height(std::span<const std::byte> source, int h) {
  bool bmp = source.size() >= 2 && source[0] == std::byte{'B'} && source[1] == std::byte{'M'};
  return bmp && h < 0 && h != INT32_MIN ? -h : h;
}

bool is_16_bit(std::span<const std::byte> source) {
  auto data = reinterpret_cast<const stbi_uc*>(source.data());
  return stbi_is_16_bit_from_memory(data, int(source.size())) || psd_is_16_bit(source);
}

void* load_pixels(std::span<const std::byte> source, ImageDepth depth, DecodedImage& out, int& w,
                  int& h, int& comp) {
  auto data = reinterpret_cast<const stbi_uc*>(source.data());
  int len = int(source.size());
  if (depth == ImageDepth::Native && stbi_is_hdr_from_memory(data, len)) {
    out.bytes_per_channel = 4;
    return stbi_loadf_from_memory(data, len, &w, &h, &comp, 4);
  }
  if (depth == ImageDepth::Native && is_16_bit(source)) {
    out.bytes_per_channel = 2;
    return stbi_load_16_from_memory(data, len, &w, &h, &comp, 4);
  }
  out.bytes_per_channel = 1;
  return stbi_load_from_memory(data, len, &w, &h, &comp, 4);
}

bool within_limit(uint32_t width, uint32_t height) {
  return width >= 1 && height >= 1 && width <= kMaxSourceDimension && height <= kMaxSourceDimension;
}

BakeStatus outside_limit(const std::string& name, uint32_t width, uint32_t height) {
  return BakeStatus::failure(BakeError::LimitExceeded, name,
                             std::to_string(width) + "x" + std::to_string(height) +
                                 " is outside the 1.." + std::to_string(kMaxSourceDimension) +
                                 " limit");
}

// stb_image's own complaint is the last format's it tried ("unknown image type" for most files it
// does not support): the feature the header declares says more.
BakeStatus unreadable(std::span<const std::byte> source, const std::string& name,
                      const std::string& stb_reason) {
  if (source.empty())
    return BakeStatus::failure(BakeError::UnreadableSource, name, "the file is empty");
  std::string feature = unsupported_image_feature(source);
  if (!feature.empty()) return BakeStatus::failure(BakeError::UnsupportedFeature, name, feature);
  if (std::string damage = png_damage(source); !damage.empty())
    return BakeStatus::failure(BakeError::InvalidSource, name, damage);
  if (auto size = declared_size(source); size && !within_limit(size->first, size->second))
    return outside_limit(name, size->first, size->second);
  return BakeStatus::failure(BakeError::UnreadableSource, name,
                             "not a readable image (" + stb_reason + ")");
}

// Apple's CgBI PNGs ("optimised" for iOS) store BGRA with alpha premultiplied; stb_image turns them
// into RGBA only when asked, and baked them swapped and premultiplied before. The flags are global
// and only ever read for CgBI files: set once, before the first decode.
void read_apple_pngs_as_rgba() {
  static const bool set = [] {
    stbi_convert_iphone_png_to_rgb(1);
    stbi_set_unpremultiply_on_load(1);
    return true;
  }();
  (void)set;
}

// A PNM whose samples run to `maxval` (below 255) has them stretched to 0..255, as every other
// reader shows it; stb_image returns them as stored (a maximum of 15 baked as near black).
// Samples above `maxval` (a damaged file) become 255.
void stretch_pnm_samples(DecodedImage& image, uint32_t maxval) {
  auto* texel = static_cast<uint8_t*>(image.pixels.get());
  for (size_t i = 0; i < size_t(image.width) * image.height; ++i, texel += 4) {
    for (int c = 0; c < 3; ++c)
      texel[c] = uint8_t(std::min<uint32_t>(255, (texel[c] * 255u + maxval / 2) / maxval));
  }
}

// What a TGA 2.0 extension area's byte 494 (the attributes type) says the alpha channel holds.
enum class TgaAttributes {
  Unstated,       // no extension area (a TGA 1.0 file), or a value the format does not define
  NotAlpha,       // 0 no alpha data, 1 undefined data to ignore, 2 undefined data to keep
  Alpha,          // 3 alpha
  Premultiplied,  // 4 alpha premultiplied into the colour
};

// A TGA 2.0 file ends in a footer naming its extension area.
TgaAttributes tga_attributes(const ByteView& b) {
  constexpr uint64_t kFooter = 26, kAttributesType = 494;
  if (b.size() < 18 + kFooter || !b.has(b.size() - 18, std::string_view("TRUEVISION-XFILE.\0", 18)))
    return TgaAttributes::Unstated;
  const uint64_t extension = b.le32(b.size() - kFooter);
  if (extension < 18 || b.le16(extension) < kAttributesType + 1 ||
      extension + kAttributesType >= b.size() - kFooter) {
    return TgaAttributes::Unstated;
  }
  switch (b.u8(extension + kAttributesType)) {
    case 0:
    case 1:
    case 2: return TgaAttributes::NotAlpha;
    case 3: return TgaAttributes::Alpha;
    case 4: return TgaAttributes::Premultiplied;
    default: return TgaAttributes::Unstated;
  }
}

// The fourth bytes of an 8-bit RGBA image: whether all are 0, and whether all are 255.
struct FourthBytes {
  bool all_zero = true, all_opaque = true;
};

FourthBytes fourth_bytes(const DecodedImage& image) {
  FourthBytes out;
  const auto* texel = static_cast<const uint8_t*>(image.pixels.get());
  for (size_t i = 0; i < size_t(image.width) * image.height; ++i) {
    out.all_zero = out.all_zero && texel[4 * i + 3] == 0;
    out.all_opaque = out.all_opaque && texel[4 * i + 3] == 255;
  }
  return out;
}

void make_opaque(DecodedImage& image) {
  auto* texel = static_cast<uint8_t*>(image.pixels.get());
  for (size_t i = 0; i < size_t(image.width) * image.height; ++i) texel[4 * i + 3] = 255;
}

// Straight alpha from premultiplied: each colour divided by its alpha, rounded (0 alpha: kept).
void unpremultiply(DecodedImage& image) {
  auto* texel = static_cast<uint8_t*>(image.pixels.get());
  for (size_t i = 0; i < size_t(image.width) * image.height; ++i, texel += 4) {
    const uint32_t a = texel[3];
    if (a == 0) continue;
    for (int c = 0; c < 3; ++c)
      texel[c] = uint8_t(std::min<uint32_t>(255, (texel[c] * 255u + a / 2) / a));
  }
}

// What a TGA holds beside its colour that stb_image reads as alpha: the fourth byte of a 32-bit
// texel or of a 32-bit colour map entry, or the second byte of a 16-bit grey texel.
struct TgaAlphaCarrier {
  std::string file;    // "a 32-bit TGA"; empty for none
  std::string values;  // what the values are called
};

TgaAlphaCarrier tga_alpha_carrier(const ByteView& b) {
  const uint32_t type = b.u8(2), depth = b.u8(16), map_entry = b.u8(7);
  if ((type == 2 || type == 10) && depth == 32) return {"a 32-bit TGA", "fourth bytes"};
  if ((type == 1 || type == 9) && map_entry == 32)
    return {"a TGA of 32-bit colour map entries", "entries' fourth bytes"};
  if ((type == 3 || type == 11) && depth == 16) return {"a 16-bit grey TGA", "second bytes"};
  return {};
}

// A TGA's descriptor gives its alpha bits per texel (bits 0-3 of byte 17), and a TGA 2.0
// extension area what they hold. stb_image reads what could be alpha (tga_alpha_carrier) as alpha
// whatever they say, and drops a 16-bit texel's alpha bit. Values the extension area says are not
// alpha are made opaque; so are zeros the descriptor declares no alpha for (they would bake fully
// transparent). Undeclared values that vary are kept as alpha, said so; premultiplied alpha is
// made straight, as every texture is baked. Returns a warning for what changed, or "".
std::string settle_tga_alpha(std::span<const std::byte> source, DecodedImage& image) {
  const ByteView b(source);
  if (!decoded_as_tga(b) || image.bytes_per_channel != 1) return {};
  const uint32_t type = b.u8(2), depth = b.u8(16), alpha_bits = b.u8(17) & 15;
  if ((type == 2 || type == 10) && depth == 16 && alpha_bits == 1)
    return "the alpha bit of a 16-bit TGA is not baked (opaque); save it as 32-bit";
  const TgaAlphaCarrier carrier = tga_alpha_carrier(b);
  if (carrier.file.empty()) return {};
  const TgaAttributes attributes = tga_attributes(b);
  if (alpha_bits == 8 && attributes == TgaAttributes::Premultiplied) {
    unpremultiply(image);
    return "a TGA of premultiplied alpha (its extension area says so): baked as straight alpha";
  }
  const FourthBytes fourth = fourth_bytes(image);
  if (fourth.all_opaque) return {};
  if (attributes == TgaAttributes::NotAlpha) {
    make_opaque(image);
    return carrier.file + " whose extension area says its " + carrier.values +
           " are not alpha: baked opaque";
  }
  if (alpha_bits != 0) return {};
  if (fourth.all_zero) {
    make_opaque(image);
    return carrier.file + " that declares no alpha and whose " + carrier.values +
           " are all 0: baked opaque";
  }
  return carrier.file + " that declares no alpha bits but whose " + carrier.values +
         " vary: read as alpha";
}

// A colour-mapped TGA pixel whose index lies past the map is baked as entry 0 by stb_image (no
// decoder agrees on such a damaged file): counted, for a warning, over the stored indices (raw, or
// the RLE packets of type 9), 8 or 16 bits each. Stops where the file ends.
std::string tga_indices_past_map(std::span<const std::byte> source, const DecodedImage& image) {
  const ByteView b(source);
  const uint32_t type = b.u8(2), index_bytes = b.u8(16) / 8;
  if (!decoded_as_tga(b) || !colour_mapped_tga(b) || (index_bytes != 1 && index_bytes != 2))
    return {};
  const uint64_t entries = uint64_t(b.le16(3)) + b.le16(5);  // the map runs to first + length
  uint64_t at = 18 + b.u8(0) + uint64_t(b.le16(5)) * ((b.u8(7) + 7) / 8);
  const uint64_t pixels = uint64_t(image.width) * image.height;
  uint64_t past = 0;
  auto index_at = [&](uint64_t where) { return index_bytes == 1 ? b.u8(where) : b.le16(where); };
  for (uint64_t done = 0; done < pixels && at + index_bytes <= source.size();) {
    uint64_t run = 1, repeat = 1;
    if (type == 9) {
      const uint32_t packet = b.u8(at++);
      (packet & 0x80 ? repeat : run) = (packet & 0x7f) + 1;
    }
    for (uint64_t k = 0; k < run && done < pixels && at + index_bytes <= source.size(); ++k) {
      const uint64_t count = std::min(repeat, pixels - done);
      past += index_at(at) >= entries ? count : 0;
      done += count;
      at += index_bytes;
    }
  }
  if (past == 0) return {};
  return std::to_string(past) + " pixel(s) index past the TGA's colour map of " +
         std::to_string(entries) + " entries: baked as entry 0 (a damaged file?)";
}

// A 32-bit BMP without bit fields (BI_RGB) leaves each pixel's fourth byte unused. stb_image reads
// it as alpha unless all are 0 (then opaque); fourth bytes that vary are kept as alpha, said so.
std::string settle_bmp_alpha(std::span<const std::byte> source, const DecodedImage& image) {
  const ByteView b(source);
  constexpr uint32_t kBiRgb = 0;
  if (!b.has(0, "BM") || b.le32(14) < 40 || b.le16(28) != 32 || b.le32(30) != kBiRgb ||
      image.bytes_per_channel != 1 || fourth_bytes(image).all_opaque) {
    return {};
  }
  return "a 32-bit BMP without an alpha mask (BI_RGB, whose fourth bytes the format leaves "
         "unused) whose fourth bytes vary: read as alpha";
}

// A GIF's first frame may cover part of its canvas. stb_image 2.27 leaves the rest transparent
// black when the background index is 0, and otherwise copies the background palette entry with
// red and blue swapped, opaque even when it is the transparent index. Browsers show the rest
// transparent (the background colour is a relic they ignore): so is it baked here, said so.
std::string settle_gif_background(const ImageAnimation& animation, DecodedImage& image) {
  const uint64_t x0 = animation.frame_x, y0 = animation.frame_y;
  const uint64_t x1 = x0 + animation.frame_width, y1 = y0 + animation.frame_height;
  if (animation.frame_width == 0 || image.bytes_per_channel != 1 ||
      (x0 == 0 && y0 == 0 && x1 >= image.width && y1 >= image.height)) {
    return {};
  }
  auto* texel = static_cast<uint8_t*>(image.pixels.get());
  for (uint64_t y = 0; y < image.height; ++y) {
    for (uint64_t x = 0; x < image.width; ++x) {
      if (x >= x0 && x < x1 && y >= y0 && y < y1) continue;
      std::fill_n(texel + 4 * (y * image.width + x), 4, uint8_t(0));
    }
  }
  return "the GIF's first frame covers " + std::to_string(animation.frame_width) + "x" +
         std::to_string(animation.frame_height) + " at (" + std::to_string(x0) + ", " +
         std::to_string(y0) + ") of its " + std::to_string(image.width) + "x" +
         std::to_string(image.height) + " canvas: the rest is baked transparent, as browsers " +
         "show it";
}

std::string frames_warning(const ImageAnimation& animation, const std::string& name) {
  if (!animation.decoded_is_frame) {
    return name + ": an APNG whose default image is none of its " +
           std::to_string(animation.frames) +
           " animation frame(s): the default image is baked, which APNG viewers do not show";
  }
  if (animation.frames <= 1) return {};
  return name + ": animated image of " + std::to_string(animation.frames) +
         " frames; only its first (default) image is baked";
}

}  // namespace

std::optional<ImageHeader> probe_image(std::span<const std::byte> source) {
  if (source.size() > size_t(INT32_MAX)) return std::nullopt;
  auto data = reinterpret_cast<const stbi_uc*>(source.data());
  int len = int(source.size()), w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(data, len, &w, &h, &comp)) return std::nullopt;
  h = header_height(source, h);
  if (w <= 0 || h <= 0) return std::nullopt;
  int depth = stbi_is_hdr_from_memory(data, len) ? 4 : is_16_bit(source) ? 2 : 1;
  if (swaps_sides(source_orientation(source))) std::swap(w, h);
  return ImageHeader{uint32_t(w), uint32_t(h), depth};
}

void PixelsFree::operator()(void* pixels) const { stbi_image_free(pixels); }

BakeStatus decode_image(std::span<const std::byte> source, const std::string& name,
                        DecodedImage& out, ImageDepth depth) {
  auto data = reinterpret_cast<const stbi_uc*>(source.data());
  if (source.size() > size_t(INT32_MAX)) {
    return BakeStatus::failure(BakeError::LimitExceeded, name, "file larger than 2 GiB");
  }
  int len = int(source.size());
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(data, len, &w, &h, &comp))
    return unreadable(source, name, stbi_failure_reason());
  h = header_height(source, h);
  if (w <= 0 || h <= 0 || !within_limit(uint32_t(w), uint32_t(h)))
    return outside_limit(name, uint32_t(std::max(w, 0)), uint32_t(std::max(h, 0)));
  if (BakeStatus s = preflight_image(source, name, uint32_t(w), uint32_t(h)); !s) return s;
  // stb_image decodes a 4-component JPEG without Adobe's marker, as other colours: asked first.
  if (jpeg_segments_start(ByteView(source))) {
    if (std::string feature = unsupported_image_feature(source); !feature.empty())
      return BakeStatus::failure(BakeError::UnsupportedFeature, name, feature);
  }
  std::optional<PatchedImage> patch;
  if (BakeStatus s = full_palette(source, name, patch); !s) return s;
  if (!patch) patch = jpeg_ycbcr_renumbered(source);
  if (!patch) patch = bmp_without_pixel_gap(source);
  if (!patch && (patch = psd_colour_only(source))) {
    out.warnings.push_back(name +
                           ": the PSD's channels past the third are not its transparency "
                           "(its layer count is not negative): baked opaque from its colour");
  }
  read_apple_pngs_as_rgba();
  void* pixels = nullptr;
  if (patch) {  // palette images have 8-bit samples; patched PSDs 8 or 16
    out.bytes_per_channel = depth == ImageDepth::Native && psd_is_16_bit(source) ? 2 : 1;
    pixels = PatchedReader(*patch, source).load(w, h, comp, out.bytes_per_channel == 2);
  } else {
    pixels = load_pixels(source, depth, out, w, h, comp);
  }
  if (!pixels) {
    std::string reason = stbi_failure_reason() ? stbi_failure_reason() : "";
    // stb_image reports running out of memory as a decoding failure: it is the machine's.
    if (reason == "outofmem")
      return BakeStatus::failure(BakeError::Internal, name, "out of memory decoding the image");
    if (std::string feature = unsupported_image_feature(source); !feature.empty())
      return BakeStatus::failure(BakeError::UnsupportedFeature, name, feature);
    return BakeStatus::failure(
        BakeError::InvalidSource, name,
        "decoding failed (" + (reason.empty() ? "corrupt data" : reason) + ")");
  }
  out.pixels.reset(pixels);
  out.channels = comp;
  out.width = uint32_t(w);
  out.height = uint32_t(h);
  if (uint32_t maxval = pnm_maxval(source); maxval > 0 && maxval < 255)
    stretch_pnm_samples(out, maxval);
  if (std::string tga = settle_tga_alpha(source, out); !tga.empty())
    out.warnings.push_back(name + ": " + tga);
  if (std::string tga = tga_indices_past_map(source, out); !tga.empty())
    out.warnings.push_back(name + ": " + tga);
  if (std::string bmp = settle_bmp_alpha(source, out); !bmp.empty())
    out.warnings.push_back(name + ": " + bmp);
  const ImageAnimation animation = image_animation(source);
  if (std::string gif = settle_gif_background(animation, out); !gif.empty())
    out.warnings.push_back(name + ": " + gif);
  bool from_exif = false;
  Orientation turn = source_orientation(source, &from_exif);
  if (!apply_orientation(out, turn))
    return BakeStatus::failure(BakeError::Internal, name, "out of memory turning the image");
  // Viewers turn the image; some modelling tools (Blender) do not, and UVs painted against the
  // stored pixels would now be turned: say that it happened.
  if (turn != Orientation::Normal && from_exif) {
    out.warnings.push_back(name + ": turned as its EXIF orientation (" + std::to_string(int(turn)) +
                           ") says, as image viewers show it");
  }
  if (std::string warning = frames_warning(animation, name); !warning.empty())
    out.warnings.push_back(warning);
  return {};
}

}  // namespace baker
