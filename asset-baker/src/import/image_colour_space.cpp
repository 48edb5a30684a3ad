#include "import/image_colour_space.h"

#include "import/byte_view.h"
#include "import/png_chunks.h"

#include <stb_image.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace baker {
namespace {

// PNG gAMA holds the file gamma times 100000: 45455 for sRGB's 1/2.2.
constexpr double kSrgbGamma = 45455;
constexpr double kGammaTolerance = 0.05;

// The profile name of an iCCP chunk: Latin-1 text up to a NUL, 1 to 79 bytes.
std::string profile_name(const ByteView& s, uint64_t at, uint64_t length) {
  std::string name;
  for (uint64_t k = 0; k < length && k < 79 && s.u8(at + k) != 0; ++k) {
    const char c = char(s.u8(at + k));
    name += (c >= ' ' && c <= '~') ? c : '?';
  }
  return name;
}

// Most compressed bytes of an ICC profile inflated to look at (deflate expands at most 1032 x):
// real profiles are a few KB; a larger one is named without a look.
constexpr uint64_t kMaxProfileBytes = 16 << 10;

bool contains(std::string_view text, std::string_view what) {
  return text.find(what) != std::string_view::npos;
}

// Whether the iCCP chunk's profile is an sRGB one, as most exporters embed under a generic name
// ("ICC profile"): its description says "sRGB", in ASCII (desc) or UTF-16 (mluc).
bool is_srgb_profile(std::span<const std::byte> chunk) {
  const auto* bytes = reinterpret_cast<const char*>(chunk.data());
  const std::string_view all(bytes, chunk.size());
  const size_t name_end = all.find('\0');
  if (name_end == std::string_view::npos || name_end + 2 > all.size()) return false;
  const std::string_view packed = all.substr(name_end + 2);  // after the compression method
  if (packed.empty() || packed.size() > kMaxProfileBytes) return false;
  int size = 0;
  char* profile = stbi_zlib_decode_malloc(packed.data(), int(packed.size()), &size);
  if (!profile) return false;
  const std::string_view text(profile, size_t(size));
  const bool srgb = contains(text, "sRGB") || contains(text, std::string_view("s\0R\0G\0B", 7));
  std::free(profile);
  return srgb;
}

}  // namespace

std::string declared_colour_space(std::span<const std::byte> source) {
  const ByteView s(source);
  if (!s.has(0, kPngSignature)) return {};
  std::string declared;
  PngChunks chunks(s);
  for (PngChunk chunk; chunks.next_before_image_data(chunk);) {
    const uint64_t length = chunk.length, data = chunk.data();
    if (chunk.is("sRGB")) return {};
    if (chunk.is("iCCP")) {
      if (data + length > s.size() || is_srgb_profile(source.subspan(data, length))) return {};
      declared = "an ICC profile '" + profile_name(s, data, length) + "'";
    } else if (chunk.is("gAMA") && declared.empty() && length == 4) {
      const double gamma = s.be32(data);
      if (gamma > 0 && std::fabs(gamma / kSrgbGamma - 1) > kGammaTolerance) {
        char text[48];
        std::snprintf(text, sizeof(text), "a gamma of 1/%.2f", 100000.0 / gamma);
        declared = text;
      }
    }
  }
  return declared;
}

}  // namespace baker
