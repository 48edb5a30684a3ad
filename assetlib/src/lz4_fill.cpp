#include "lz4_fill.h"
#include "streaming_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace assetlib::detail {
namespace {

// LZ4 block format constants (lz4_Block_format.md): a token's nibble of 15 continues in bytes
// of 255 until a smaller one; a match is at least 4 bytes; the last 5 bytes of a block are
// literals, and the last match starts at least 12 bytes before the end.
constexpr size_t kMinMatch = 4;
constexpr size_t kLastLiterals = 5;
constexpr size_t kMatchFromEnd = 12;

// Reads the continuation bytes of a length whose nibble was 15. False when the input ends first.
bool read_length(const uint8_t*& p, const uint8_t* end, size_t& length) {
  if (length != 15) return true;
  for (;;) {
    if (p == end) return false;
    uint8_t byte = *p++;
    length += byte;
    if (byte != 255) return true;
  }
}

struct FillBlock {
  const uint8_t* literals = nullptr;  // the first sequence's
  size_t literal_count = 0;
  size_t offset = 0;  // the match's distance back: the pattern's period
  size_t match_length = 0;
  const uint8_t* tail = nullptr;  // the last sequence's literals
  size_t tail_count = 0;
};

// Parses `src` as exactly two sequences, literals + match, then literals alone, checking what
// LZ4_decompress_safe checks for them. Lengths stay below src_size * 255 + 64, so nothing
// overflows.
bool parse_fill_block(const uint8_t* p, const uint8_t* end, size_t raw_size, FillBlock& out) {
  if (p == end) return false;
  uint8_t token = *p++;
  out.literal_count = token >> 4;
  if (!read_length(p, end, out.literal_count) || out.literal_count == 0) return false;
  if (size_t(end - p) < out.literal_count + 2) return false;
  out.literals = p;
  p += out.literal_count;
  out.offset = size_t(p[0]) | size_t(p[1]) << 8;
  p += 2;
  // The match may only reach back into what this block has written.
  if (out.offset == 0 || out.offset > out.literal_count) return false;
  out.match_length = token & 15;
  if (!read_length(p, end, out.match_length)) return false;
  out.match_length += kMinMatch;
  if (p == end) return false;
  uint8_t last = *p++;
  if ((last & 15) != 0) return false;  // the last sequence has no match
  out.tail_count = last >> 4;
  if (!read_length(p, end, out.tail_count) || size_t(end - p) != out.tail_count) return false;
  out.tail = p;
  return out.literal_count + kMatchFromEnd <= raw_size && out.tail_count >= kLastLiterals &&
         out.literal_count + out.match_length + out.tail_count == raw_size;
}

}  // namespace

bool decode_lz4_fill(const char* src, size_t src_size, char* dst, size_t raw_size) {
  auto begin = reinterpret_cast<const uint8_t*>(src);
  FillBlock block;
  if (!parse_fill_block(begin, begin + src_size, raw_size, block)) return false;
  std::memcpy(dst, block.literals, block.literal_count);
  // From literal_count - offset on, the output repeats with period `offset`. Copying `step` bytes
  // from `step` back keeps that as long as `step` is a multiple of the period, and the copies
  // never overlap. Doubling up to 16 KiB makes a window that stays in the L1 cache; the rest is
  // that window repeated, streamed past the cache when long (streaming_copy.h).
  constexpr size_t kMaxStep = size_t(16) << 10;
  size_t at = block.literal_count;
  const size_t end = at + block.match_length;
  size_t step = block.offset;
  for (; at < end && step < kMaxStep; step *= 2) {
    size_t n = std::min(step, end - at);
    std::memcpy(dst + at, dst + at - step, n);
    at += n;
  }
  if (at < end) repeat_streaming(dst + at, end - at, dst + at - step, step);
  std::memcpy(dst + end, block.tail, block.tail_count);
  return true;
}

}  // namespace assetlib::detail
