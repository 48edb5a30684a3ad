#include "import/image_colour_space.h"

#include "import/byte_view.h"
#include "import/icc_profile.h"
#include "import/jpeg_segments.h"
#include "import/png_chunks.h"
#include "import/psd_resources.h"

#include <stb_image.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

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
// Most bytes of a JPEG's ICC profile put together from its APP2 segments.
constexpr uint64_t kMaxJpegProfileBytes = 1 << 20;

// sRGB's chromaticities (PNG cHRM order: white x, y, red x, y, green x, y, blue x, y).
constexpr double kSrgbChromaticities[8] = {0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06};
constexpr double kChromaticityTolerance = 0.01;

// Whether the iCCP chunk's profile is an sRGB one (icc_profile.h); nullopt when it cannot be
// judged: larger than kMaxProfileBytes compressed, or it does not inflate or parse.
std::optional<bool> is_srgb_profile(std::span<const std::byte> chunk) {
  const auto* bytes = reinterpret_cast<const char*>(chunk.data());
  const std::string_view all(bytes, chunk.size());
  const size_t name_end = all.find('\0');
  if (name_end == std::string_view::npos || name_end + 2 > all.size()) return std::nullopt;
  const std::string_view packed = all.substr(name_end + 2);  // after the compression method
  if (packed.empty() || packed.size() > kMaxProfileBytes) return std::nullopt;
  int size = 0;
  char* profile = stbi_zlib_decode_malloc(packed.data(), int(packed.size()), &size);
  if (!profile) return std::nullopt;
  std::optional<IccProfile> read = read_icc_profile(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(profile), size_t(size)));
  std::free(profile);
  if (!read) return std::nullopt;
  return read->srgb;
}

// "chromaticities other than sRGB's (...)" for a cHRM chunk that differs from sRGB's, else "".
std::string chromaticities(const ByteView& s, uint64_t data) {
  double values[8];
  bool srgb = true;
  for (uint64_t k = 0; k < 8; ++k) {
    values[k] = s.be32(data + 4 * k) / 100000.0;
    srgb = srgb && std::fabs(values[k] - kSrgbChromaticities[k]) <= kChromaticityTolerance;
  }
  if (srgb) return {};
  char text[160];
  std::snprintf(text, sizeof text,
                "chromaticities other than sRGB's (red %.3f %.3f, green %.3f %.3f, blue %.3f "
                "%.3f, white %.4f %.4f)",
                values[2], values[3], values[4], values[5], values[6], values[7], values[0],
                values[1]);
  return text;
}

// A cICP chunk (coding-independent code points, ITU-T H.273): primaries, transfer function,
// matrix, full range. "" for sRGB's (BT.709 primaries, the sRGB curve, RGB), else a phrase.
std::string coding_points(const ByteView& s, uint64_t data) {
  const uint32_t primaries = s.u8(data), transfer = s.u8(data + 1), full_range = s.u8(data + 3);
  if (primaries == 1 && transfer == 13 && full_range == 1) return {};
  auto named = [](uint32_t code, std::initializer_list<std::pair<uint32_t, const char*>> names) {
    for (const auto& [value, name] : names) {
      if (value == code) return std::string(name);
    }
    return "code " + std::to_string(code);
  };
  return "colour coding points (cICP) of primaries " +
         named(primaries, {{1, "BT.709"}, {9, "BT.2020"}, {11, "DCI-P3"}, {12, "Display P3"}}) +
         " and transfer " +
         named(transfer, {{1, "BT.709"}, {8, "linear"}, {13, "sRGB"}, {16, "PQ"}, {18, "HLG"}}) +
         (full_range == 1 ? "" : ", narrow (video) range");
}

// PNG's chunks in the order the specification (third edition) ranks them: cICP, then iCCP,
// then sRGB, then cHRM and gAMA.
std::string png_colour_space(const ByteView& s, std::span<const std::byte> source) {
  std::string cicp, iccp, chrm_or_gamma;
  bool has_cicp = false, has_iccp = false, has_srgb = false, iccp_judged = true;
  PngChunks chunks(s);
  for (PngChunk chunk; chunks.next_before_image_data(chunk);) {
    const uint64_t length = chunk.length, data = chunk.data();
    if (chunk.is("cICP") && length == 4 && !has_cicp) {
      has_cicp = true;
      cicp = coding_points(s, data);
    } else if (chunk.is("sRGB")) {
      has_srgb = true;
    } else if (chunk.is("iCCP") && !has_iccp) {
      has_iccp = true;
      std::optional<bool> srgb;
      if (data + length <= s.size()) srgb = is_srgb_profile(source.subspan(data, length));
      iccp_judged = srgb.has_value();
      if (!srgb.value_or(false)) iccp = "an ICC profile '" + profile_name(s, data, length) + "'";
    } else if (chunk.is("cHRM") && chrm_or_gamma.empty() && length == 32) {
      chrm_or_gamma = chromaticities(s, data);
    } else if (chunk.is("gAMA") && chrm_or_gamma.empty() && length == 4) {
      const double gamma = s.be32(data);
      if (gamma > 0 && std::fabs(gamma / kSrgbGamma - 1) > kGammaTolerance) {
        char text[48];
        std::snprintf(text, sizeof(text), "a gamma of 1/%.2f", 100000.0 / gamma);
        chrm_or_gamma = text;
      }
    }
  }
  if (has_cicp) return cicp;
  // A profile too large to judge beside an sRGB chunk: the chunk is taken at its word.
  if (has_iccp && !(has_srgb && !iccp_judged)) return iccp;
  return has_srgb ? std::string() : chrm_or_gamma;
}

// A BMP's colour space (BITMAPV4HEADER and BITMAPV5HEADER, 108 and 124 bytes): bV4CSType, then
// for an embedded profile (V5) its offset and size from the header's start.
std::string bmp_colour_space(const ByteView& s, std::span<const std::byte> source) {
  constexpr uint64_t kInfo = 14;  // BITMAPFILEHEADER
  const uint32_t header_size = s.le32(kInfo);
  if (header_size < 108) return {};
  constexpr uint32_t kCalibrated = 0, kSrgb = 0x73524742, kWindows = 0x57696e20,
                     kLinked = 0x4c494e4b, kEmbedded = 0x4d424544;
  // Windows writes the tags as little-endian numbers ('sRGB' as "BGRs"); some writers put their
  // characters in reading order: both are taken.
  uint32_t type = s.le32(kInfo + 56);
  const uint32_t swapped = s.be32(kInfo + 56);
  for (uint32_t tag : {kSrgb, kWindows, kLinked, kEmbedded}) {
    if (swapped == tag) type = tag;
  }
  if (type == kSrgb || type == kWindows) return {};
  if (type == kCalibrated) {
    // Endpoints (36 bytes) and gamma (12) all zero: writers that fill in nothing, no declaration.
    bool any = false;
    for (uint64_t k = kInfo + 60; k < kInfo + 108; ++k) any = any || s.u8(k) != 0;
    return any ? "calibrated RGB endpoints and gamma (a BMP colour space)" : "";
  }
  if (type == kLinked) return "an ICC profile in another file (a linked BMP profile)";
  if (type != kEmbedded || header_size < 124) return "an unknown BMP colour space";
  const uint64_t at = kInfo + s.le32(kInfo + 112), size = s.le32(kInfo + 116);
  if (size == 0 || at + size > s.size())
    return "an ICC profile that cannot be read (outside the file)";
  std::optional<IccProfile> profile = read_icc_profile(source.subspan(at, size));
  if (profile && profile->srgb) return {};
  return "an ICC profile '" +
         (profile && !profile->description.empty() ? profile->description : "ICC profile") + "'";
}

// A JPEG's ICC profile, from its APP2 "ICC_PROFILE" segments (each: sequence number, count, a
// piece), put together in sequence order; nullopt when there is none, empty when the pieces do
// not make one (missing, numbered out of their count, more than kMaxJpegProfileBytes).
std::optional<std::vector<std::byte>> jpeg_icc_profile(const ByteView& s, uint64_t start) {
  std::vector<std::vector<std::byte>> pieces;
  bool declared = false;
  uint64_t total = 0;
  JpegSegments segments(s, start);
  for (JpegSegment segment; segments.next(segment);) {
    if (segment.marker != 0xe2 || segment.length < 16 ||
        !s.has(segment.data(), std::string_view("ICC_PROFILE\0", 12)))
      continue;
    declared = true;
    const uint32_t sequence = s.u8(segment.data() + 12), count = s.u8(segment.data() + 13);
    if (pieces.empty()) pieces.resize(count);
    total += segment.length - 16;
    if (count != pieces.size() || sequence == 0 || sequence > count || total > kMaxJpegProfileBytes)
      return std::vector<std::byte>();  // declared, but not whole
    std::vector<std::byte>& piece = pieces[sequence - 1];
    for (uint64_t k = segment.data() + 14; k < segment.end() && k < s.size(); ++k)
      piece.push_back(std::byte(s.u8(k)));
  }
  if (!declared) return std::nullopt;
  std::vector<std::byte> profile;
  for (const std::vector<std::byte>& piece : pieces) {
    if (piece.empty()) return std::vector<std::byte>();
    profile.insert(profile.end(), piece.begin(), piece.end());
  }
  return profile;
}

std::string jpeg_colour_space(const ByteView& s, uint64_t segments) {
  std::optional<std::vector<std::byte>> bytes = jpeg_icc_profile(s, segments);
  if (!bytes) return {};
  if (bytes->empty()) return "an ICC profile that cannot be read (incomplete, or over 1 MiB)";
  std::optional<IccProfile> profile = read_icc_profile(*bytes);
  if (profile && profile->srgb) return {};
  const std::string name =
      profile && !profile->description.empty() ? profile->description : std::string("ICC profile");
  return "an ICC profile '" + name + "'";
}

// A PSD's ICC profile: image resource 1039.
std::string psd_colour_space(const ByteView& s, std::span<const std::byte> source) {
  constexpr uint32_t kIccProfile = 1039;
  const std::optional<PsdResource> icc = psd_resource(s, kIccProfile);
  if (!icc) return {};
  if (icc->data + icc->size > s.size())
    return "an ICC profile that cannot be read (outside the file)";
  std::optional<IccProfile> profile = read_icc_profile(source.subspan(icc->data, icc->size));
  if (profile && profile->srgb) return {};
  return "an ICC profile '" +
         (profile && !profile->description.empty() ? profile->description : "ICC profile") + "'";
}

}  // namespace

namespace {

// Calls `line(key, value)` for each "KEY=value" line of a Radiance header (up to its empty line,
// within the first 4 KiB).
template <typename Line>
void hdr_header_lines(std::span<const std::byte> source, Line line) {
  const ByteView s(source);
  if (!s.has(0, "#?")) return;
  constexpr uint64_t kHeaderScan = 4096;
  for (uint64_t start = 0; start < s.size() && start < kHeaderScan;) {
    uint64_t end = start;
    while (end < s.size() && end < kHeaderScan && s.u8(end) != '\n') ++end;
    if (end == start) break;  // the empty line ends the header
    std::string text;
    for (uint64_t k = start; k < end; ++k) text += char(s.u8(k));
    if (size_t equals = text.find('='); equals != std::string::npos)
      line(text.substr(0, equals), text.substr(equals + 1));
    start = end + 1;
  }
}

// The numbers of a header value ("0.64 0.33 ..."), as many as parse.
std::vector<double> numbers(const std::string& value) {
  std::vector<double> out;
  const char* at = value.c_str();
  for (char* end = nullptr;; at = end) {
    const double v = std::strtod(at, &end);
    if (end == at || !std::isfinite(v)) return out;
    out.push_back(v);
  }
}

// Radiance's standard primaries (red, green, blue, white x y), assumed when a file states none.
constexpr double kRadiancePrimaries[8] = {0.640, 0.330, 0.290, 0.600, 0.150, 0.060, 0.333, 0.333};

}  // namespace

std::string declared_exposure(std::span<const std::byte> source) {
  double product = 1;
  hdr_header_lines(source, [&](const std::string& key, const std::string& value) {
    const std::vector<double> factor = numbers(value);
    if (key == "EXPOSURE" && !factor.empty() && factor[0] > 0) product *= factor[0];
  });
  if (std::fabs(product - 1) < 1e-6) return {};
  char text[48];
  std::snprintf(text, sizeof text, "EXPOSURE=%g", product);
  return text;
}

std::string declared_hdr_colour(std::span<const std::byte> source) {
  std::string declared;
  hdr_header_lines(source, [&](const std::string& key, const std::string& value) {
    const std::vector<double> v = numbers(value);
    bool standard = true;
    if (key == "PRIMARIES") {
      for (size_t k = 0; k < 8; ++k)
        standard = standard && k < v.size() && std::fabs(v[k] - kRadiancePrimaries[k]) <= 0.01;
    } else if (key == "COLORCORR") {
      for (size_t k = 0; k < 3; ++k) standard = standard && k < v.size() && v[k] == 1;
    }
    if (!standard && declared.empty()) declared = key + "=" + value;
  });
  return declared;
}

std::string declared_colour_space(std::span<const std::byte> source) {
  const ByteView s(source);
  if (s.has(0, kPngSignature)) return png_colour_space(s, source);
  if (uint64_t segments = jpeg_segments_start(s)) return jpeg_colour_space(s, segments);
  if (s.has(0, "BM")) return bmp_colour_space(s, source);
  if (s.has(0, "8BPS")) return psd_colour_space(s, source);
  return {};
}

}  // namespace baker
