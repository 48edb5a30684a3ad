// Crafting hostile inputs in memory: image files of every stb_image format with chosen headers
// (sizes, depths, truncation), and measuring what a call costs in memory in a forked child.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

namespace hostile {

using Bytes = std::vector<uint8_t>;

inline std::string corpus(const std::string& relative) {
  return std::string(ASSETLIB_CORPUS_DIR) + "/" + relative;
}
inline std::string asset(const std::string& relative) {
  return std::string(ASSETLIB_ASSETS_DIR) + "/" + relative;
}

inline Bytes file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::vector<std::byte> as_bytes(const Bytes& b) {
  std::vector<std::byte> out(b.size());
  if (!b.empty()) std::memcpy(out.data(), b.data(), b.size());
  return out;
}

inline void put_be32(Bytes& b, uint32_t v) {
  for (int i = 3; i >= 0; --i) b.push_back(uint8_t(v >> (8 * i)));
}
inline void put_be16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}
inline void put_le32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
inline void put_le16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v));
  b.push_back(uint8_t(v >> 8));
}
inline void append(Bytes& b, const std::string& s) { b.insert(b.end(), s.begin(), s.end()); }
inline void append(Bytes& b, const Bytes& s) { b.insert(b.end(), s.begin(), s.end()); }

// CRC-32 (IEEE, reflected, as PNG uses), bit by bit: inputs here are tiny.
inline uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc = 0) {
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// A zlib stream holding `raw` in stored (uncompressed) deflate blocks.
inline Bytes zlib_stored(const Bytes& raw) {
  Bytes z = {0x78, 0x01};
  size_t at = 0;
  do {
    size_t n = std::min<size_t>(65535, raw.size() - at);
    z.push_back(at + n == raw.size() ? 1 : 0);
    put_le16(z, uint16_t(n));
    put_le16(z, uint16_t(~n));
    z.insert(z.end(), raw.begin() + long(at), raw.begin() + long(at + n));
    at += n;
  } while (at < raw.size());
  uint32_t a = 1, b = 0;
  for (uint8_t c : raw) a = (a + c) % 65521, b = (b + a) % 65521;
  put_be32(z, b << 16 | a);
  return z;
}

inline void png_chunk(Bytes& png, const char* type, const Bytes& data,
                      uint32_t claimed_length = UINT32_MAX) {
  put_be32(png, claimed_length == UINT32_MAX ? uint32_t(data.size()) : claimed_length);
  size_t start = png.size();
  append(png, std::string(type, 4));
  append(png, data);
  put_be32(png, crc32(png.data() + start, png.size() - start));
}

struct PngSpec {
  uint32_t width = 4, height = 4;
  uint8_t depth = 8;
  uint8_t color_type = 6;  // 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
  Bytes palette;           // PLTE payload (RGB triples)
  Bytes trns;              // tRNS payload
  Bytes raw;               // filtered scanlines; empty: zeros of the right size
  bool with_idat = true;
  uint32_t idat_claimed_length = UINT32_MAX;  // lie about the IDAT length
};

inline uint32_t png_channels(uint8_t color_type) {
  switch (color_type) {
    case 0:
    case 3: return 1;
    case 4: return 2;
    case 2: return 3;
    default: return 4;
  }
}

inline Bytes png(const PngSpec& s) {
  Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr;
  put_be32(ihdr, s.width);
  put_be32(ihdr, s.height);
  ihdr.insert(ihdr.end(), {s.depth, s.color_type, 0, 0, 0});
  png_chunk(out, "IHDR", ihdr);
  if (!s.palette.empty()) png_chunk(out, "PLTE", s.palette);
  if (!s.trns.empty()) png_chunk(out, "tRNS", s.trns);
  if (s.with_idat) {
    Bytes raw = s.raw;
    if (raw.empty()) {
      uint64_t row = (uint64_t(s.width) * png_channels(s.color_type) * s.depth + 7) / 8 + 1;
      raw.assign(size_t(row * s.height), 0);
    }
    png_chunk(out, "IDAT", zlib_stored(raw), s.idat_claimed_length);
  }
  png_chunk(out, "IEND", {});
  return out;
}

// Headers of the other stb_image formats, for `width` x `height`, followed by `pixels` bytes
// (possibly fewer than the header promises: a truncated file).
// A BMP of a BITMAPINFOHEADER, `bits` per pixel, BI_RGB, no palette (a negative height: top
// down).
inline Bytes bmp(uint32_t width, int32_t height, uint16_t bits, const Bytes& pixels) {
  Bytes b = {'B', 'M'};
  put_le32(b, uint32_t(54 + pixels.size()));
  put_le32(b, 0);
  put_le32(b, 54);
  put_le32(b, 40);
  put_le32(b, width);
  put_le32(b, uint32_t(height));
  put_le16(b, 1);
  put_le16(b, bits);
  for (int i = 0; i < 6; ++i) put_le32(b, 0);  // BI_RGB, sizes, resolution, palette
  append(b, pixels);
  return b;
}

inline Bytes bmp24(uint32_t width, uint32_t height, const Bytes& pixels) {
  return bmp(width, int32_t(height), 24, pixels);
}

inline Bytes tga24(uint32_t width, uint32_t height, const Bytes& pixels, bool rle = false) {
  Bytes b = {0, 0, uint8_t(rle ? 10 : 2), 0, 0, 0, 0, 0, 0, 0, 0, 0};
  put_le16(b, uint16_t(width));
  put_le16(b, uint16_t(height));
  b.push_back(24);
  b.push_back(0x20);
  append(b, pixels);
  return b;
}

inline Bytes pnm(const char* magic, uint32_t width, uint32_t height, uint32_t maxval,
                 const Bytes& pixels) {
  Bytes b;
  append(b, std::string(magic) + "\n" + std::to_string(width) + " " + std::to_string(height) +
                "\n" + std::to_string(maxval) + "\n");
  append(b, pixels);
  return b;
}

inline Bytes hdr(uint32_t width, uint32_t height, const Bytes& pixels) {
  Bytes b;
  append(b, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(height) + " +X " +
                std::to_string(width) + "\n");
  append(b, pixels);
  return b;
}

inline Bytes psd_rgb(uint32_t width, uint32_t height, const Bytes& planes) {
  Bytes b;
  append(b, "8BPS");
  put_be16(b, 1);
  b.insert(b.end(), 6, 0);
  put_be16(b, 3);
  put_be32(b, height);
  put_be32(b, width);
  put_be16(b, 8);
  put_be16(b, 3);
  put_be32(b, 0);
  put_be32(b, 0);
  put_be32(b, 0);
  put_be16(b, 0);  // raw
  append(b, planes);
  return b;
}

inline Bytes gif(uint16_t width, uint16_t height, const Bytes& lzw) {
  Bytes b;
  append(b, "GIF89a");
  put_le16(b, width);
  put_le16(b, height);
  b.insert(b.end(), {0x80, 0, 0});  // global colour table of 2 entries
  b.insert(b.end(), {0, 0, 0, 255, 255, 255});
  b.push_back(',');
  put_le16(b, 0);
  put_le16(b, 0);
  put_le16(b, width);
  put_le16(b, height);
  b.push_back(0);
  b.push_back(2);  // LZW minimum code size
  append(b, lzw);
  return b;
}

// What a call cost, measured in a forked child so that the test process is not affected.
struct ChildResult {
  bool exited = false;      // false: killed by a signal (a crash)
  int status = -1;          // the value the child reported (0..255)
  long rss_growth_kib = 0;  // peak RSS of the child minus its RSS when the call began
};

// Runs `call` in a child process; its return value (0..255) comes back in `status`. With
// `address_space_limit` > 0, the child first limits its address space to that many bytes more than
// it already uses (only meaningful without sanitizers, which reserve terabytes of address space).
inline ChildResult run_in_child(const std::function<int()>& call,
                                uint64_t address_space_limit = 0) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    if (address_space_limit > 0) {
      std::ifstream statm("/proc/self/statm");
      uint64_t pages = 0;
      statm >> pages;
      rlimit lim{};
      lim.rlim_cur = lim.rlim_max = pages * uint64_t(sysconf(_SC_PAGESIZE)) + address_space_limit;
      setrlimit(RLIMIT_AS, &lim);
    }
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    int status = call();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    long growth = after.ru_maxrss - before.ru_maxrss;
    ssize_t ignored = write(fds[1], &growth, sizeof growth);
    (void)ignored;
    _exit(status & 0xff);
  }
  close(fds[1]);
  ChildResult r;
  long growth = 0;
  if (read(fds[0], &growth, sizeof growth) == ssize_t(sizeof growth)) r.rss_growth_kib = growth;
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  r.exited = WIFEXITED(wstatus);
  r.status = r.exited ? WEXITSTATUS(wstatus) : -1;
  return r;
}

// True in builds with AddressSanitizer, ThreadSanitizer or MemorySanitizer (GCC or clang).
constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

// Seconds a child gets before its alarm calls the work a hang. Sanitized Debug builds run the same
// work 20 to 50 times slower than Release: the 60000-primitive glTF bakes in 0.5 s in Release and
// took over 20 s under ASan on a CI runner.
constexpr unsigned kHangSeconds = kSanitized ? 120 : 20;

}  // namespace hostile
