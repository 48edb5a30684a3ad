#include "import/image_preflight.h"

#include "import/byte_view.h"
#include "import/png_chunks.h"
#include "import/psd_resources.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string_view>

namespace baker {
namespace {

// Reads the way stb_image does: past the end, bytes read as 0. `overran()` tells it happened.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes, uint64_t at = 0) : bytes_(bytes), pos_(at) {}

  uint8_t u8() {
    uint64_t at = pos_++;
    return at < bytes_.size() ? uint8_t(bytes_[at]) : 0;
  }
  uint32_t be16() {
    uint32_t hi = u8();
    return hi << 8 | u8();
  }
  uint32_t be32() {
    uint32_t hi = be16();
    return hi << 16 | be16();
  }
  uint32_t le16() {
    uint32_t lo = u8();
    return lo | uint32_t(u8()) << 8;
  }
  uint32_t le32() {
    uint32_t lo = le16();
    return lo | le16() << 16;
  }
  void skip(uint64_t n) { pos_ += n; }
  uint64_t pos() const { return pos_; }
  uint64_t left() const { return pos_ < bytes_.size() ? bytes_.size() - pos_ : 0; }
  bool overran() const { return pos_ > bytes_.size(); }

 private:
  std::span<const std::byte> bytes_;
  uint64_t pos_;
};

BakeStatus refuse(const std::string& name, const std::string& why,
                  BakeError code = BakeError::InvalidSource) {
  return BakeStatus::failure(code, name, why);
}

BakeStatus truncated(const std::string& name, const char* what, uint64_t needed, uint64_t held) {
  return refuse(name, "truncated: " + std::to_string(needed) + " bytes needed for " + what +
                          ", the file holds " + std::to_string(held));
}

bool starts_with(std::span<const std::byte> source, std::string_view magic) {
  return source.size() >= magic.size() &&
         std::memcmp(source.data(), magic.data(), magic.size()) == 0;
}

BakeStatus check_ratio(const std::string& name, uint64_t pixels, uint64_t bytes,
                       uint64_t max_per_byte) {
  if (pixels <= bytes * max_per_byte) return {};
  return refuse(name,
                std::to_string(pixels) + " pixels from " + std::to_string(bytes) +
                    " bytes of compressed data is more than " + std::to_string(max_per_byte) +
                    " pixels per byte (a forged header or a truncated file)",
                BakeError::LimitExceeded);
}

// Whether a chunk's CRC is checked: the critical chunks, which libpng also refuses to read damaged,
// and the ancillary chunks that change the baked pixels: tRNS (transparency) and eXIf (the
// orientation the baker applies). The others at most give a warning here.
bool crc_checked(const PngChunk& chunk) {
  return chunk.critical() || chunk.is("tRNS") || chunk.is("eXIf");
}

// An IHDR payload against the specification (PNG 11.2.2): the bit depths each colour type allows,
// compression and filter method 0, interlace method 0 or 1. stb_image decodes some combinations
// the specification forbids (RGB of 4 bits), which no PNG writer produces: a damaged header.
std::string ihdr_problem(const ByteView& b, const PngChunk& ihdr) {
  if (ihdr.length != 13)
    return "the PNG header (IHDR) is " + std::to_string(ihdr.length) + " bytes, not 13";
  const uint64_t at = ihdr.data();
  uint32_t width = b.be32(at), height = b.be32(at + 4);
  uint32_t depth = b.u8(at + 8), colour = b.u8(at + 9);
  uint32_t compression = b.u8(at + 10), filter = b.u8(at + 11), interlace = b.u8(at + 12);
  if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu)
    return "the PNG header declares a size of " + std::to_string(width) + "x" +
           std::to_string(height) + " (PNG sides are 1 to 2^31 - 1)";
  // Bit i set: samples of 2^i bits allowed, per colour type 0..6.
  static constexpr uint32_t kDepths[7] = {0b11111, 0, 0b11000, 0b01111, 0b11000, 0, 0b11000};
  if (colour >= 7 || kDepths[colour] == 0) {
    return "the PNG header declares colour type " + std::to_string(colour) +
           ", which PNG does not define";
  }
  if (!std::has_single_bit(depth) || depth > 16 ||
      ((kDepths[colour] >> std::countr_zero(depth)) & 1) == 0) {
    return "the PNG header declares " + std::to_string(depth) + "-bit samples for colour type " +
           std::to_string(colour) + ", which PNG does not allow";
  }
  if (compression != 0 || filter != 0 || interlace > 1) {
    return "the PNG header declares compression method " + std::to_string(compression) +
           ", filter method " + std::to_string(filter) + " and interlace method " +
           std::to_string(interlace) + " (PNG defines 0, 0 and 0 or 1)";
  }
  return {};
}

// Walks the chunks of a PNG: every chunk must fit in the file (stb_image grows its buffer to the
// length a chunk claims), the chunks of crc_checked must match their CRC (stb_image never checks
// it, so a damaged file baked as whatever its bytes decode to, with exit 0) and the header must be
// one PNG defines. `idat` gets the image data's bytes. Returns what is wrong, or "".
std::string walk_png(std::span<const std::byte> source, uint64_t& idat) {
  const ByteView b(source);
  PngChunks chunks(b);
  idat = 0;
  uint32_t colour_type = 0, palettes = 0;
  bool image_data = false, palette_first = false;  // an IDAT seen; a PLTE before the first
  bool ended = false;                              // at IEND
  for (PngChunk chunk; chunks.next(chunk);) {
    const uint64_t after_type = source.size() - chunk.data();
    if (chunk.length > 0x7fffffffu || uint64_t(chunk.length) + 4 > after_type) {
      return std::string("PNG chunk '") + chunk.type + "' claims " + std::to_string(chunk.length) +
             " bytes, the file holds " + std::to_string(after_type >= 4 ? after_type - 4 : 0) +
             " more (truncated or corrupt)";
    }
    if (crc_checked(chunk)) {
      const auto* covered = reinterpret_cast<const Bytef*>(source.data() + chunk.at + 4);
      uLong crc = crc32(crc32(0L, Z_NULL, 0), covered, uInt(chunk.length) + 4);
      if (b.be32(chunk.crc_at()) != uint32_t(crc))
        return std::string("PNG chunk '") + chunk.type +
               "' does not match its CRC (a damaged file)";
    }
    // Read with its CRC checked first: bytes a writer really wrote, not a flipped bit.
    if (chunk.is("IHDR")) {
      if (std::string why = ihdr_problem(b, chunk); !why.empty()) return why;
      colour_type = b.u8(chunk.data() + 9);
    }
    if (chunk.is("PLTE")) palette_first = palette_first || !image_data, ++palettes;
    if (chunk.is("IDAT")) idat += chunk.length, image_data = true;
    if (chunk.is("IEND")) {
      ended = true;
      break;
    }
  }
  if (idat == 0 && !ended && chunks.bytes_left() > 0) {
    return "truncated: the PNG ends " + std::to_string(chunks.bytes_left()) +
           " byte(s) into a chunk's 8-byte header, before any image data";
  }
  if (idat == 0) return "the PNG has no image data (no IDAT chunk before the end)";
  // stb_image takes the last of several palettes, libpng refuses the file: which was meant?
  if (palettes > 1) return "the PNG has " + std::to_string(palettes) + " PLTE chunks (one at most)";
  constexpr uint32_t kPaletteColour = 3;
  if (colour_type == kPaletteColour && !palette_first)
    return "the palette PNG has no PLTE chunk before its image data";
  return {};
}

// A sound structure, and IDAT bytes that can inflate to the pixels.
BakeStatus check_png(std::span<const std::byte> source, const std::string& name, uint64_t pixels) {
  uint64_t idat = 0;
  if (std::string why = walk_png(source, idat); !why.empty()) return refuse(name, why);
  return check_ratio(name, pixels, idat, kMaxPngPixelsPerByte);
}

// stb_image 2.27 decodes a scan with Huffman tables its (uninitialised) decoder state never
// received, reading through garbage offsets (fixed in 2.28): every table a scan uses must have
// been defined by a DHT segment before it. Marker segments are walked; entropy-coded data after
// a scan is skipped up to the next marker.
// Most scans a JPEG may have (docs/robustness.md).
constexpr uint64_t kMaxJpegScans = 256;

BakeStatus check_jpeg(std::span<const std::byte> source, const std::string& name, uint64_t pixels,
                      uint64_t segments) {
  Reader r(source, segments);
  bool defined[2][4] = {};  // [DC/AC][table]
  // Pixels are judged against the entropy-coded bytes, not the file: comment and APPn segments
  // would otherwise pad a forged 16384 x 16384 header past the ratio.
  uint64_t scan_bytes = 0, scans = 0;
  bool in_scan = false;
  while (r.left() >= 4) {
    if (r.u8() != 0xff) {  // entropy-coded data, or fill
      scan_bytes += in_scan;
      continue;
    }
    uint8_t marker = r.u8();
    while (marker == 0xff && r.left() > 0) marker = r.u8();      // fill bytes
    if (marker == 0x00 || (marker >= 0xd0 && marker <= 0xd7)) {  // stuffing, RSTn
      scan_bytes += in_scan ? 2 : 0;
      continue;
    }
    in_scan = false;
    if (marker == 0xd9) break;  // EOI
    uint64_t length_at = r.pos();
    uint64_t segment_end = length_at + r.be16();
    if (marker == 0xc4) {
      while (r.pos() + 17 <= segment_end) {
        uint8_t q = r.u8();
        uint64_t count = 0;
        for (int length = 0; length < 16; ++length) count += r.u8();
        if (count > 256)
          return refuse(
              name, "a JPEG Huffman table has " + std::to_string(count) + " codes (at most 256)");
        if ((q >> 4) <= 1 && (q & 15) <= 3) defined[q >> 4][q & 15] = true;
        r.skip(count);
      }
    } else if (marker == 0xda) {
      // Each scan of a progressive JPEG is a pass over every block of the image: thousands of
      // tiny scans made a 2 MB file decode for half a minute. Real encoders write at most a few
      // dozen.
      if (++scans > kMaxJpegScans) {
        return refuse(name,
                      "a JPEG of more than " + std::to_string(kMaxJpegScans) +
                          " scans (each a pass over the whole image: real encoders write a few "
                          "dozen)",
                      BakeError::LimitExceeded);
      }
      uint8_t components = r.u8();
      Reader after(source, r.pos() + 2u * components);
      uint8_t spectral_start = after.u8(), spectral_end = after.u8(), approximation = after.u8();
      for (uint8_t c = 0; c < components; ++c) {
        r.skip(1);
        uint8_t tables = r.u8();
        bool dc_used = spectral_start == 0 && (approximation >> 4) == 0;
        bool missing = (dc_used && !defined[0][(tables >> 4) & 3]) ||
                       (spectral_end > 0 && !defined[1][tables & 3]);
        if (missing)
          return refuse(name,
                        "a JPEG scan uses a Huffman table that was never defined (corrupt file)");
      }
      in_scan = true;
    }
    r = Reader(source, segment_end);
  }
  return check_ratio(name, pixels, scan_bytes, kMaxPixelsPerByte);
}

// Walks GIF sub-blocks: a length byte, that many bytes, until a zero length. Counts the data bytes
// in `data_bytes`; false when the chain runs past the file.
bool skip_gif_sub_blocks(Reader& r, uint64_t& data_bytes) {
  data_bytes = 0;
  for (;;) {
    if (r.left() == 0) return r.skip(1), false;  // past the end by the length byte it needs
    uint8_t n = r.u8();
    if (n == 0) return true;
    if (n > r.left()) return r.skip(n), false;  // past the end by what the block lacks
    r.skip(n);
    data_bytes += n;
  }
}

// stb_image decodes the first frame and fills what its LZW data does not reach: the first image
// descriptor must exist and carry a complete, non-empty chain of data blocks.
BakeStatus check_gif(std::span<const std::byte> source, const std::string& name, uint64_t pixels) {
  Reader r(source, 10);
  uint8_t flags = r.u8();
  r.skip(2);
  if (flags & 0x80) r.skip(3ull << ((flags & 7) + 1));  // global colour table
  for (;;) {
    uint8_t tag = r.u8();
    uint64_t data = 0;
    if (r.overran()) break;
    if (tag == 0x21) {  // extension: label, then sub-blocks
      r.skip(1);
      if (!skip_gif_sub_blocks(r, data)) break;
      continue;
    }
    if (tag != 0x2c) return {};  // the trailer or junk: stb_image reports it
    r.skip(8);
    uint8_t image_flags = r.u8();
    if (image_flags & 0x80) r.skip(3ull << ((image_flags & 7) + 1));  // local colour table
    r.skip(1);                                                        // LZW minimum code size
    if (!skip_gif_sub_blocks(r, data)) break;
    if (data == 0) return refuse(name, "the GIF image has no pixel data");
    // The canvas against the first frame's LZW bytes: comment extensions do not count.
    return check_ratio(name, pixels, data, kMaxPixelsPerByte);
  }
  return truncated(name, "the first GIF image", r.pos(), source.size());
}

// Uncompressed rows are padded to 4 bytes, except that stb_image does not need the last row's
// padding.
BakeStatus check_bmp(std::span<const std::byte> source, const std::string& name, uint64_t width,
                     uint64_t height) {
  Reader r(source, 10);
  uint64_t offset = r.le32();
  uint32_t header_size = r.le32();
  uint64_t bits = 0, compression = 0;
  if (header_size == 12) {
    r.skip(6);
    bits = r.le16();
  } else {
    r.skip(10);
    bits = r.le16();
    compression = r.le32();
  }
  if (compression != 0 && compression != 3) return {};  // RLE and the like: stb_image refuses them
  uint64_t row = (width * bits + 7) / 8;
  uint64_t stride = (row + 3) & ~uint64_t(3);
  uint64_t needed = offset + stride * (height - 1) + row;
  if (needed <= source.size()) return {};
  return truncated(name, "the BMP pixel data", needed, source.size());
}

BakeStatus check_tga(std::span<const std::byte> source, const std::string& name, uint64_t pixels) {
  Reader r(source);
  uint64_t id_length = r.u8();
  bool indexed = r.u8() != 0;
  uint8_t type = r.u8();
  r.skip(2);  // first entry index
  uint64_t palette_length = r.le16(), palette_bits = r.u8();
  r.skip(8);
  uint64_t pixel_bytes = (uint64_t(r.u8()) + 7) / 8;
  uint64_t start = 18 + id_length;  // the first entry index numbers entries, it skips no bytes
  if (indexed) start += palette_length * ((palette_bits + 7) / 8);
  if (type < 8) {
    uint64_t needed = start + pixels * pixel_bytes;
    if (needed <= source.size()) return {};
    return truncated(name, "the TGA pixel data", needed, source.size());
  }
  // RLE packets: a header byte, then one pixel (a run) or up to 128 (raw); runs may span rows.
  Reader packets(source, start);
  while (pixels > 0) {
    if (packets.left() == 0)
      return truncated(name, "the TGA RLE data", packets.pos() + 1, source.size());
    uint8_t header = packets.u8();
    uint64_t count = (header & 0x7fu) + 1;
    uint64_t bytes = (header & 0x80) ? pixel_bytes : count * pixel_bytes;
    if (bytes > packets.left())
      return truncated(name, "the TGA RLE data", packets.pos() + bytes, source.size());
    packets.skip(bytes);
    pixels -= std::min(count, pixels);
  }
  return {};
}

// stb_image reads at most 4 channels; RLE data is preceded by a table of every row's byte count.
// An RGB image (the only mode read) has at least its 3 colour channels: stb_image fills missing
// ones with 0, a wrong colour.
BakeStatus check_psd(std::span<const std::byte> source, const std::string& name, uint64_t pixels) {
  Reader r(source, 12);
  uint64_t channels = r.be16();
  uint64_t height = r.be32();
  r.skip(4);
  uint64_t depth_bytes = r.be16() / 8;
  constexpr uint32_t kRgb = 3;
  if (r.be16() == kRgb && channels < 3)
    return refuse(name,
                  "the RGB PSD has " + std::to_string(channels) + " channel(s), fewer than 3");
  // Version info (1057): a version, then whether the file holds a real merged image. Photoshop
  // without "Maximize Compatibility" writes a blank one in its place: baked, a blank texture.
  constexpr uint32_t kVersionInfo = 1057;
  const ByteView b(source);
  if (std::optional<PsdResource> version = psd_resource(b, kVersionInfo);
      version && version->size >= 5 && b.u8(version->data + 4) == 0) {
    return refuse(name,
                  "a PSD saved without its merged image (Photoshop's Maximize Compatibility off): "
                  "the image data stb_image reads is a blank stand-in; save it with Maximize "
                  "Compatibility on, or as PNG",
                  BakeError::UnsupportedFeature);
  }
  for (int section = 0; section < 3; ++section) r.skip(r.be32());  // colour mode, resources, layers
  uint32_t compression = r.be16();
  uint64_t read_channels = std::min<uint64_t>(channels, 4);
  if (compression == 0) {
    uint64_t needed = r.pos() + read_channels * pixels * depth_bytes;
    if (needed <= source.size()) return {};
    return truncated(name, "the PSD pixel data", needed, source.size());
  }
  if (compression != 1) return {};
  // stb_image 2.27 unpacks RLE runs as one byte per sample: 16-bit RLE data came out as wrong
  // colours and alpha, baked without a word.
  if (depth_bytes == 2) {
    return refuse(name,
                  "a 16-bit PSD with RLE compression is not supported (save it uncompressed or "
                  "as 8-bit)",
                  BakeError::UnsupportedFeature);
  }
  uint64_t table = r.pos();
  uint64_t data = table + channels * height * 2;
  if (data > source.size()) return truncated(name, "the PSD row table", data, source.size());
  uint64_t needed = data;
  for (uint64_t row = 0; row < read_channels * height; ++row) needed += r.be16();
  if (needed <= source.size()) return {};
  return truncated(name, "the PSD RLE data", needed, source.size());
}

bool pnm_space(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// The header grammar as stb_image parses it: magic, then width, height and maxval separated by
// whitespace and '#' comments; the byte after maxval is consumed; the samples follow.
// The header of a binary PNM: "P5" or "P6", then width, height and maximum value, each after
// whitespace and comments.
struct PnmHeader {
  uint64_t channels = 1;
  uint64_t maxval = 0;
  uint64_t data = 0;  // where the samples start
};

PnmHeader read_pnm_header(std::span<const std::byte> source) {
  Reader r(source, 1);
  PnmHeader header;
  header.channels = r.u8() == '6' ? 3 : 1;
  uint8_t c = r.u8();
  for (int field = 0; field < 3; ++field) {
    while (!r.overran() && (pnm_space(c) || c == '#')) {
      if (c == '#') {
        while (!r.overran() && c != '\n' && c != '\r') c = r.u8();
      }
      c = r.u8();
    }
    header.maxval = 0;
    while (!r.overran() && c >= '0' && c <= '9') {
      header.maxval = std::min<uint64_t>(header.maxval * 10 + uint64_t(c - '0'), 1u << 20);
      c = r.u8();
    }
  }
  header.data = r.pos();
  return header;
}

BakeStatus check_pnm(std::span<const std::byte> source, const std::string& name, uint64_t pixels) {
  const PnmHeader header = read_pnm_header(source);
  // stb_image 2.27 expands a 16-bit PNM's channels with its 8-bit routine and then reads past its
  // own buffer (found by fuzzing): PNG and PSD are the 16-bit formats it decodes correctly.
  if (header.maxval > 255)
    return refuse(name, "16-bit PNM images are not supported (use PNG or PSD for 16 bits)",
                  BakeError::UnsupportedFeature);
  if (header.maxval == 0) return refuse(name, "the PNM header declares a maximum value of 0");
  uint64_t needed = header.data + pixels * header.channels;
  if (needed <= source.size()) return {};
  return truncated(name, "the PNM samples", needed, source.size());
}

// Whether the 4 bytes at `at` begin a scanline of new-style (adaptive) RLE: 2, 2, then the width
// (its high bit clear), as Radiance's reader tells one apart from flat RGBE.
bool hdr_rle_start(const ByteView& b, uint64_t at) {
  return b.u8(at) == 2 && b.u8(at + 1) == 2 && (b.u8(at + 2) & 0x80) == 0;
}

// From `start` on, stb_image 2.27 reads every pixel as flat RGBE. Radiance reads each scanline
// by itself: a later one may be RLE, and a flat pixel of 1, 1, 1 repeats the previous one (the
// old run-length scheme). stb_image would read either as pixels: refused here.
BakeStatus check_flat_hdr(std::span<const std::byte> source, const std::string& name,
                          uint64_t start, uint64_t width, uint64_t height) {
  const ByteView b(source);
  const uint64_t flat_bytes = width * height * 4;
  if (start + flat_bytes > source.size())
    return truncated(name, "the HDR pixel data", start + flat_bytes, source.size());
  const bool rle_possible = width >= 8 && width < 32768;
  for (uint64_t pixel = 0; pixel < width * height; ++pixel) {
    const uint64_t at = start + 4 * pixel;
    if (rle_possible && pixel % width == 0 && pixel > 0 && hdr_rle_start(b, at)) {
      return refuse(name,
                    "an HDR whose scanlines mix flat and RLE encoding (row " +
                        std::to_string(pixel / width) + " is RLE after flat rows) is not supported",
                    BakeError::UnsupportedFeature);
    }
    if (b.u8(at) == 1 && b.u8(at + 1) == 1 && b.u8(at + 2) == 1) {
      return refuse(name,
                    "an HDR of old-style run-length encoding (repeat markers 1, 1, 1) is not "
                    "supported (save it with a current Radiance writer)",
                    BakeError::UnsupportedFeature);
    }
  }
  return {};
}

// Radiance HDR: text lines up to an empty one, the resolution line, then scanlines that are flat
// RGBE or RLE. stb_image 2.27 loops for ever on a zero-length RLE packet (and on a truncated one,
// which reads as zeros): every packet is walked here first. Once a scanline is not RLE, it reads
// the rest of the file flat from there, restarting at the first row (check_flat_hdr).
BakeStatus check_hdr(std::span<const std::byte> source, const std::string& name, uint64_t width,
                     uint64_t height) {
  Reader r(source);
  int empty_lines = 0;
  bool line_empty = true;
  while (r.left() > 0 && empty_lines < 2) {  // the empty line, then the resolution line
    uint8_t c = r.u8();
    if (c != '\n') {
      line_empty = false;
      continue;
    }
    if (line_empty || empty_lines == 1) ++empty_lines;
    line_empty = true;
  }
  if (width < 8 || width >= 32768) return check_flat_hdr(source, name, r.pos(), width, height);
  for (uint64_t row = 0; row < height; ++row) {
    if (r.left() < 4) return truncated(name, "the HDR scanlines", r.pos() + 4, source.size());
    uint64_t row_start = r.pos();
    uint8_t c1 = r.u8(), c2 = r.u8(), hi = r.u8(), lo = r.u8();
    if (c1 != 2 || c2 != 2 || (hi & 0x80)) {
      if (row == 0) return check_flat_hdr(source, name, row_start, width, height);
      return refuse(name,
                    "an HDR whose scanlines mix RLE and flat encoding (row " + std::to_string(row) +
                        " is flat after RLE rows) is not supported",
                    BakeError::UnsupportedFeature);
    }
    if ((uint64_t(hi) << 8 | lo) != width) return {};  // stb_image refuses it
    for (int component = 0; component < 4; ++component) {
      for (uint64_t x = 0; x < width;) {
        if (r.left() == 0) return truncated(name, "the HDR RLE data", r.pos() + 1, source.size());
        uint8_t count = r.u8();
        if (count == 0) return refuse(name, "an HDR RLE packet of length 0 (corrupt data)");
        uint64_t bytes = count > 128 ? 1 : count;
        if (bytes > r.left())
          return truncated(name, "the HDR RLE data", r.pos() + bytes, source.size());
        r.skip(bytes);
        x += count > 128 ? count - 128u : count;
      }
    }
  }
  return {};
}

}  // namespace

uint32_t pnm_maxval(std::span<const std::byte> source) {
  if (!starts_with(source, "P5") && !starts_with(source, "P6")) return 0;
  return uint32_t(read_pnm_header(source).maxval);
}

std::string png_damage(std::span<const std::byte> source) {
  uint64_t idat = 0;
  if (starts_with(source, kPngSignature)) return walk_png(source, idat);
  // A signature off by a byte or two, or "PNG" after a byte 0x89 with or without its high bit, is
  // a damaged PNG rather than another format: the signature holds CR LF, LF and a byte with the
  // high bit set so that transfers that change line ends (adding or dropping bytes) or clear bit 7
  // show. MNG and JNG, which share 6 of its bytes, are named as formats before this is asked.
  size_t same = 0;
  for (size_t i = 0; i < kPngSignature.size() && i < source.size(); ++i)
    same += source[i] == std::byte(kPngSignature[i]);
  bool png_name = source.size() >= 4 && (uint8_t(source[0]) & 0x7f) == 0x09 &&
                  std::memcmp(source.data() + 1, "PNG", 3) == 0;
  if (same + 2 < kPngSignature.size() && !png_name) return {};
  return "the file starts like a PNG but its 8-byte signature is damaged (line ends or high bits "
         "changed by a transfer?)";
}

BakeStatus preflight_image(std::span<const std::byte> source, const std::string& name,
                           uint32_t width, uint32_t height) {
  uint64_t pixels = uint64_t(width) * height;
  if (starts_with(source, kPngSignature)) return check_png(source, name, pixels);
  if (uint64_t segments = jpeg_segments_start(ByteView(source)))
    return check_jpeg(source, name, pixels, segments);
  if (starts_with(source, "GIF8")) return check_gif(source, name, pixels);
  if (starts_with(source, "BM")) return check_bmp(source, name, width, height);
  if (starts_with(source, "8BPS")) return check_psd(source, name, pixels);
  if (starts_with(source, "P5") || starts_with(source, "P6"))
    return check_pnm(source, name, pixels);
  if (starts_with(source, "#?RADIANCE\n") || starts_with(source, "#?RGBE\n")) {
    return check_hdr(source, name, width, height);
  }
  if (starts_with(source, "S\x80\xf6\x34"))
    return check_ratio(name, pixels, source.size(), kMaxPixelsPerByte);
  return check_tga(source, name,
                   pixels);  // the format without a signature, which stb_image tries last
}

}  // namespace baker
