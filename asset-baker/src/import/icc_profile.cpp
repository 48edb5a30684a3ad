#include "import/icc_profile.h"

#include "import/byte_view.h"

#include <array>
#include <cmath>
#include <string_view>

namespace baker {
namespace {

// sRGB's colorants adapted to the profile connection space's D50 white (as sRGB profiles store
// them), and its curve at two inputs.
constexpr std::array<std::array<double, 3>, 3> kSrgbColorants = {
    {{0.4361, 0.2225, 0.0139}, {0.3851, 0.7169, 0.0971}, {0.1431, 0.0606, 0.7141}}};
constexpr double kColorantTolerance = 0.01;
constexpr std::array<std::pair<double, double>, 2> kSrgbCurve = {{{0.5, 0.2140}, {0.2, 0.0331}}};
constexpr double kCurveTolerance = 0.01;

// One tag of the profile: where its data lies.
struct Tag {
  uint64_t at = 0, size = 0;
};

class Profile {
 public:
  explicit Profile(std::span<const std::byte> bytes) : b_(bytes) {}

  bool valid() const {
    return b_.size() >= 132 && b_.has(36, "acsp") && 132 + 12 * uint64_t(b_.be32(128)) <= b_.size();
  }
  bool is_grey() const { return b_.has(16, "GRAY"); }

  std::optional<Tag> tag(std::string_view signature) const {
    const uint64_t count = b_.be32(128);
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t entry = 132 + 12 * i;
      if (!b_.has(entry, signature)) continue;
      Tag t{b_.be32(entry + 4), b_.be32(entry + 8)};
      if (t.at > b_.size() || t.size > b_.size() - t.at) return std::nullopt;
      return t;
    }
    return std::nullopt;
  }

  double s15(uint64_t at) const { return double(int32_t(b_.be32(at))) / 65536.0; }

  // An XYZ tag's value.
  std::optional<std::array<double, 3>> xyz(std::string_view signature) const {
    std::optional<Tag> t = tag(signature);
    if (!t || t->size < 20 || !b_.has(t->at, "XYZ ")) return std::nullopt;
    return std::array<double, 3>{s15(t->at + 8), s15(t->at + 12), s15(t->at + 16)};
  }

  // A tone curve (curv or para) at `x` in 0..1; nullopt for another type.
  std::optional<double> curve(std::string_view signature, double x) const {
    std::optional<Tag> t = tag(signature);
    if (!t || t->size < 12) return std::nullopt;
    if (b_.has(t->at, "curv")) {
      const uint64_t count = b_.be32(t->at + 8);
      if (t->size < 12 + 2 * count) return std::nullopt;
      if (count == 0) return x;                                         // identity
      if (count == 1) return std::pow(x, b_.be16(t->at + 12) / 256.0);  // a gamma
      const double at = x * double(count - 1);
      const uint64_t i = std::min<uint64_t>(uint64_t(at), count - 2);
      const double v0 = b_.be16(t->at + 12 + 2 * i) / 65535.0;
      const double v1 = b_.be16(t->at + 14 + 2 * i) / 65535.0;
      return v0 + (v1 - v0) * (at - double(i));
    }
    if (!b_.has(t->at, "para")) return std::nullopt;
    static constexpr int kParameters[5] = {1, 3, 4, 5, 7};
    const uint32_t type = b_.be16(t->at + 8);
    if (type > 4 || t->size < 12 + 4 * uint64_t(kParameters[type])) return std::nullopt;
    double p[7] = {0, 1, 0, 0, 0, 0, 0};  // g a b c d e f
    for (int k = 0; k < kParameters[type]; ++k) p[k] = s15(t->at + 12 + 4 * uint64_t(k));
    const double g = p[0], a = p[1], b = p[2], c = p[3], d = p[4], e = p[5], f = p[6];
    auto power = [&](double base) { return base > 0 ? std::pow(base, g) : 0.0; };
    const double start = a != 0 ? -b / a : 0;  // where types 1 and 2 leave their constant
    switch (type) {
      case 0: return power(x);
      case 1: return x >= start ? power(a * x + b) : 0.0;
      case 2: return x >= start ? power(a * x + b) + c : c;
      case 3: return x >= d ? power(a * x + b) : c * x;
      default: return x >= d ? power(a * x + b) + e : c * x + f;
    }
  }

  bool srgb_curve(std::string_view signature) const {
    for (const auto& [x, y] : kSrgbCurve) {
      std::optional<double> v = curve(signature, x);
      if (!v || !(std::fabs(*v - y) <= kCurveTolerance)) return false;
    }
    return true;
  }

  // The description: a `desc` tag's ASCII text, or the first record of an `mluc` tag (UTF-16).
  std::string description() const {
    std::optional<Tag> t = tag("desc");
    std::string text;
    if (!t || t->size < 12) return text;
    auto put = [&](uint32_t c) {
      if (c != 0) text += c >= ' ' && c <= '~' ? char(c) : '?';
    };
    if (b_.has(t->at, "desc")) {
      const uint64_t count = std::min<uint64_t>(b_.be32(t->at + 8), t->size - 12);
      for (uint64_t k = 0; k < count && k < 256; ++k) put(b_.u8(t->at + 12 + k));
    } else if (b_.has(t->at, "mluc") && t->size >= 28 && b_.be32(t->at + 8) > 0) {
      const uint64_t length = b_.be32(t->at + 20), offset = b_.be32(t->at + 24);
      if (offset <= t->size && length <= t->size - offset) {
        for (uint64_t k = 0; k + 1 < length && k < 512; k += 2) put(b_.be16(t->at + offset + k));
      }
    }
    return text;
  }

 private:
  ByteView b_;
};

}  // namespace

std::optional<IccProfile> read_icc_profile(std::span<const std::byte> bytes) {
  const Profile p(bytes);
  if (!p.valid()) return std::nullopt;
  IccProfile out;
  out.description = p.description();
  if (p.is_grey() && p.tag("kTRC")) {
    out.srgb = p.srgb_curve("kTRC");
    return out;
  }
  const char* colorants[3] = {"rXYZ", "gXYZ", "bXYZ"};
  const char* curves[3] = {"rTRC", "gTRC", "bTRC"};
  bool matrix = true, srgb = true;
  for (int c = 0; c < 3; ++c) {
    std::optional<std::array<double, 3>> xyz = p.xyz(colorants[c]);
    matrix = matrix && xyz && p.tag(curves[c]);
    if (!matrix) break;
    for (int k = 0; k < 3; ++k)
      srgb = srgb && std::fabs((*xyz)[size_t(k)] - kSrgbColorants[size_t(c)][size_t(k)]) <=
                         kColorantTolerance;
    srgb = srgb && p.srgb_curve(curves[c]);
  }
  // Table-based profiles (no colorant matrix): what they call themselves.
  out.srgb = matrix ? srgb : out.description.find("sRGB") != std::string::npos;
  return out;
}

}  // namespace baker
