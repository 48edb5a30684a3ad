#include "import/image_diagnosis.h"

#include "import/byte_view.h"
#include "import/jpeg_segments.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>

namespace baker {
namespace {

constexpr const char* kConvert = " (convert it to PNG, JPEG, TGA or BMP)";

std::string not_supported(const std::string& what) { return what + " is not supported" + kConvert; }

// Whether the file is an SVG: "<svg" after what may come before it in an XML file (a byte-order
// mark, blanks, the XML declaration that Inkscape writes, comments, a doctype), within 4 KiB.
bool is_svg(const ByteView& h) {
  const uint64_t end = std::min<uint64_t>(h.size(), uint64_t(4) << 10);
  for (uint64_t at = h.has(0, "\xef\xbb\xbf") ? 3 : 0; at < end;) {
    const uint32_t c = h.u8(at);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++at;
      continue;
    }
    if (h.has(at, "<svg")) return true;
    const std::string_view close = h.has(at, "<?")     ? "?>"
                                   : h.has(at, "<!--") ? "-->"
                                   : h.has(at, "<!")   ? ">"
                                                       : "";
    if (close.empty()) return false;
    for (at += 2; at < end && !h.has(at, close); ++at) {
      // A doctype's internal subset ("<!DOCTYPE svg [ <!ENTITY ...> ]>", Illustrator's) holds '>'.
      if (close == ">" && h.u8(at) == '[') {
        while (at < end && h.u8(at) != ']') ++at;
      }
    }
    at += close.size();
  }
  return false;
}

// Formats the baker has no decoder for, by their signatures.
std::string other_format(const ByteView& h) {
  using namespace std::string_view_literals;
  struct Signature {
    uint64_t at;
    std::string_view magic;
    const char* name;
  };
  static constexpr Signature kSignatures[] = {
      {0, "II*\0"sv, "TIFF"},
      {0, "MM\0*"sv, "TIFF"},
      {0, "DDS "sv, "DDS (an already GPU-compressed texture)"},
      {0, "\x8aMNG\r\n\x1a\n"sv, "MNG"},
      {0, "\x8bJNG\r\n\x1a\n"sv, "JNG"},
      {0, "\xabKTX 11\xbb"sv, "KTX"},
      {0, "\xabKTX 20\xbb"sv, "KTX2"},
      {0, "\x76\x2f\x31\x01"sv, "OpenEXR"},
      {0, "\0\0\0\x0cjP  \r\n\x87\n"sv, "JPEG 2000"},
      {0, "\xff\x4f\xff\x51"sv, "JPEG 2000"},
      {0, "\xff\x0a"sv, "JPEG XL"},
      {0, "\0\0\0\x0cJXL \r\n\x87\n"sv, "JPEG XL"},
      {4, "ftypavif"sv, "AVIF"},
      {4, "ftypavis"sv, "AVIF"},
      {4, "ftypheic"sv, "HEIF"},
      {4, "ftypheix"sv, "HEIF"},
      {4, "ftypmif1"sv, "HEIF"},
      {4, "ftypmsf1"sv, "HEIF"},
      {4, "ftyp"sv, "an ISO media file (HEIF, AVIF or MP4)"},
      {0, "qoif"sv, "QOI"},
      {0, "gimp xcf"sv, "GIMP XCF"},
      {0, "farbfeld"sv, "farbfeld"},
      {0, "\0\0\1\0"sv, "ICO"},
      {0, "P7"sv, "PAM (P7) PNM"},
      {0, "PF"sv, "PFM (float) PNM"},
      {0, "Pf"sv, "PFM (float) PNM"},
  };
  if (h.has(0, "RIFF") && h.has(8, "WEBP")) return not_supported("WebP");
  if (is_svg(h)) return not_supported("SVG (a vector image)");
  for (const Signature& s : kSignatures) {
    if (h.has(s.at, s.magic)) return not_supported(s.name);
  }
  for (char kind : {'1', '2', '3', '4'}) {
    if (h.has(0, std::string("P") + kind))
      return not_supported(std::string("text or 1-bit PNM (P") + kind +
                           "; binary P5 and P6 are read)");
  }
  return {};
}

// The frame header (SOFn) says how the image was coded; stb_image decodes 8-bit baseline,
// extended and progressive Huffman JPEGs with 1, 3 or 4 components.
std::string jpeg_feature(const ByteView& h, uint64_t segments) {
  uint32_t components = 0;  // of the frame, once its header is read
  bool adobe = false;       // an APP14 "Adobe" segment, which says how 4 components are coded
  JpegSegments walk(h, segments);
  for (JpegSegment s; walk.next(s);) {
    const uint32_t marker = s.marker;
    adobe = adobe || (marker == 0xee && h.has(s.data(), "Adobe"));
    if (s.is_frame_header() && components == 0) {
      if (marker == 0xc3) return not_supported("lossless JPEG");
      if (marker >= 0xc9 && marker <= 0xcb) return not_supported("arithmetic-coded JPEG");
      if (marker >= 0xc5) return not_supported("hierarchical (differential) JPEG");
      uint32_t precision = h.u8(s.data());
      if (precision != 8) return not_supported(std::to_string(precision) + "-bit JPEG");
      components = h.u8(s.data() + 5);
      if (components != 1 && components != 3 && components != 4)
        return not_supported("a JPEG of " + std::to_string(components) + " components");
    }
  }
  // Without Adobe's marker, libjpeg reads 4 components as CMYK; stb_image reads them as YCbCr
  // and drops the fourth: other colours, with exit 0.
  if (components == 4 && !adobe)
    return not_supported("a 4-component (CMYK) JPEG without an Adobe APP14 marker");
  return {};
}

std::string bmp_feature(const ByteView& h) {
  uint32_t header_size = h.le32(14);
  if (header_size != 12 && header_size != 40 && header_size != 56 && header_size != 108 &&
      header_size != 124)
    return not_supported("a BMP with a " + std::to_string(header_size) +
                         "-byte info header (OS/2 2.x or unknown)");
  uint32_t bits = header_size == 12 ? h.le16(24) : h.le16(28);
  uint32_t compression = header_size == 12 ? 0 : h.le32(30);
  switch (compression) {
    case 1: return not_supported("RLE8-compressed BMP");
    case 2: return not_supported("RLE4-compressed BMP");
    case 4: return not_supported("a BMP holding a JPEG (BI_JPEG)");
    case 5: return not_supported("a BMP holding a PNG (BI_PNG)");
    case 6: return not_supported("a BMP with alpha bit fields (BI_ALPHABITFIELDS)");
    default: break;
  }
  if (compression > 6) return not_supported("BMP compression " + std::to_string(compression));
  if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32)
    return not_supported(std::to_string(bits) + "-bit BMP");
  if (compression == 3 && bits != 16 && bits != 32)
    return not_supported("a " + std::to_string(bits) + "-bit BMP with bit fields");
  if (compression == 3) {
    // Where stb_image 2.27 reads the masks: after the 40-byte part of the header (V4 and V5 with
    // alpha's); after the whole 56-byte (V3) header, whose own four it skips.
    const uint64_t at = header_size == 56 ? 70 : 54;
    const int masks = header_size >= 108 ? 4 : 3;
    for (int k = 0; k < masks; ++k) {
      if (std::popcount(h.le32(at + 4 * uint64_t(k))) > 8)
        return not_supported("a BMP with bit fields wider than 8 bits (10-10-10 and the like)");
    }
  }
  return {};
}

std::string psd_feature(const ByteView& h) {
  static constexpr const char* kModes[] = {"bitmap", "greyscale", "indexed",      "RGB",     "CMYK",
                                           "mode 5", "mode 6",    "multichannel", "duotone", "Lab"};
  if (h.be16(4) == 2) return not_supported("PSB (Photoshop large document)");
  uint32_t depth = h.be16(22), mode = h.be16(24);
  if (mode != 3) {
    std::string name = mode < std::size(kModes) ? kModes[mode] : "mode " + std::to_string(mode);
    return not_supported("a PSD in " + name + " colour mode (only RGB is read)");
  }
  if (depth != 8 && depth != 16) return not_supported(std::to_string(depth) + "-bit PSD");
  return {};
}

std::string hdr_feature(const ByteView& h) {
  bool format_line = false;
  for (uint64_t at = 0; at + 6 < h.size() && at < 4096; ++at) {
    if (h.has(at, "FORMAT=32-bit_rle_xyze")) return not_supported("a Radiance HDR in XYZE");
    format_line = format_line || h.has(at, "\nFORMAT=");
    if (!h.has(at, "\n\n")) continue;
    // Radiance takes a header without one as RGBE; stb_image refuses it.
    if (!format_line) {
      return not_supported(
          "a Radiance HDR without a FORMAT line (add 'FORMAT=32-bit_rle_rgbe' to its header)");
    }
    // The header ends at an empty line; the resolution line follows. stb_image reads only
    // "-Y h +X w" (rows top to bottom, left to right); the other seven layouts are valid files.
    const uint64_t line = at + 2;
    uint64_t after_height = line + 3;
    while (h.u8(after_height) >= '0' && h.u8(after_height) <= '9') ++after_height;
    const bool standard = h.has(line, "-Y ") && h.has(after_height, " +X ");
    const bool layout_line =
        h.has(line, "-Y ") || h.has(line, "+Y ") || h.has(line, "-X ") || h.has(line, "+X ");
    if (layout_line && !standard) {
      std::string layout;
      for (uint64_t k = line; k < h.size() && k < line + 5; ++k) layout += char(h.u8(k));
      return not_supported("a Radiance HDR laid out '" + layout +
                           "...' (only '-Y h +X w', rows top to bottom, is read)");
    }
    break;
  }
  return {};
}

// The TGA image types stb_image reads: colour-mapped, true-colour and grey, raw or RLE.
bool stb_reads_tga_type(uint32_t type) {
  return type == 1 || type == 2 || type == 3 || type == 9 || type == 10 || type == 11;
}

// TGA has no signature: only a file no other format claimed is read as one.
std::string tga_feature(const ByteView& h) {
  uint32_t colour_map = h.u8(1), type = h.u8(2), bits = h.u8(16);
  // Only a plausible header is blamed as a TGA: a colour map type of 0 or 1, and a size.
  if (colour_map > 1 || h.size() < 18 || h.le16(12) == 0 || h.le16(14) == 0) return {};
  if (type == 32 || type == 33) return not_supported("a Huffman-compressed TGA (type 32/33)");
  if (type == 0) return "the TGA holds no image data (type 0)";
  if (!stb_reads_tga_type(type)) return {};
  const bool mapped_type = type == 1 || type == 9;
  // The format lets a true-colour or grey image carry a colour map it does not use; stb_image
  // reads a colour map only with a colour-mapped type.
  if (colour_map == 1 && !mapped_type)
    return not_supported("a true-colour or grey TGA carrying a colour map");
  if (colour_map == 1 && bits != 8 && bits != 16)
    return not_supported("a colour-mapped TGA with " + std::to_string(bits) + "-bit indices");
  if (colour_map == 0 && bits != 8 && bits != 15 && bits != 16 && bits != 24 && bits != 32)
    return not_supported(std::to_string(bits) + "-bit TGA");
  return {};
}

}  // namespace

std::optional<std::pair<uint32_t, uint32_t>> declared_size(std::span<const std::byte> source) {
  ByteView h(source);
  if (h.has(0, kPngSignature) && h.has(12, "IHDR")) return std::pair(h.be32(16), h.be32(20));
  // A TGA header of a type stb_image reads (tga_feature's plausible header, any size).
  if (decoded_as_tga(h) && other_format(h).empty() && h.u8(1) <= 1 && stb_reads_tga_type(h.u8(2)) &&
      h.size() >= 18) {
    return std::pair(h.le16(12), h.le16(14));
  }
  return std::nullopt;
}

std::string unsupported_image_feature(std::span<const std::byte> source) {
  ByteView h(source);
  if (uint64_t segments = jpeg_segments_start(h)) return jpeg_feature(h, segments);
  if (h.has(0, "BM")) return bmp_feature(h);
  if (h.has(0, "8BPS")) return psd_feature(h);
  if (h.has(0, "#?RADIANCE") || h.has(0, "#?RGBE")) return hdr_feature(h);
  if (h.has(0, "\x89PNG") || h.has(0, "GIF8")) return {};
  if (std::string other = other_format(h); !other.empty()) return other;
  return tga_feature(h);
}

}  // namespace baker
