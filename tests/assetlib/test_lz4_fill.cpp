// The fast path for LZ4 blocks of one repeated pattern (assetlib/src/lz4_fill.h): whatever the
// block, unpack_chunk gives exactly what LZ4_decompress_safe gives, and accepts exactly what it
// accepts. Checked on hand-built blocks around every bound of the shape, and on what LZ4's own
// compressors make of patterned data.
#include <assetlib/assetlib.h>

#include <catch2/catch.hpp>

#include <lz4.h>
#include <lz4hc.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace assetlib;

namespace {

// Appends an LZ4 length's continuation bytes for a nibble of 15.
void put_length(std::vector<char>& out, size_t rest) {
  for (; rest >= 255; rest -= 255) out.push_back(char(255));
  out.push_back(char(rest));
}

struct Shape {
  size_t literals, offset, match, tail;
};

// Hand-encodes: `literals` bytes, a match of `match` bytes `offset` back, then `tail` literals.
std::vector<char> fill_block(const Shape& s) {
  std::vector<char> out;
  size_t lit_nibble = std::min<size_t>(s.literals, 15);
  size_t match_nibble = std::min<size_t>(s.match - 4, 15);
  out.push_back(char(lit_nibble << 4 | match_nibble));
  if (lit_nibble == 15) put_length(out, s.literals - 15);
  for (size_t i = 0; i < s.literals; ++i) out.push_back(char('a' + i % 7));
  out.push_back(char(s.offset & 255));
  out.push_back(char(s.offset >> 8));
  if (match_nibble == 15) put_length(out, s.match - 4 - 15);
  size_t tail_nibble = std::min<size_t>(s.tail, 15);
  out.push_back(char(tail_nibble << 4));
  if (tail_nibble == 15) put_length(out, s.tail - 15);
  for (size_t i = 0; i < s.tail; ++i) out.push_back(char('z' - i % 5));
  return out;
}

// Unpacks `block` to `raw_size` bytes both ways and checks that they agree. Returns whether
// LZ4 accepted it.
bool agrees_with_lz4(const std::vector<char>& block, size_t raw_size) {
  std::vector<char> ours(raw_size + 1, '#'), theirs(raw_size + 1, '#');
  Chunk chunk{0, raw_size, 0, block.size()};
  Status s =
      unpack_chunk(Compression::LZ4, chunk, block.data(), block.size(), ours.data(), raw_size);
  int got = LZ4_decompress_safe(block.data(), theirs.data(), int(block.size()), int(raw_size));
  bool lz4_ok = got == int(raw_size);
  INFO("block of " << block.size() << " bytes to " << raw_size << ": lz4 " << got << ", ours "
                   << s.message);
  CHECK(bool(s) == lz4_ok);
  if (lz4_ok && s) CHECK(ours == theirs);
  CHECK(ours[raw_size] == '#');  // nothing past the chunk
  return lz4_ok;
}

std::vector<char> patterned(size_t size, size_t period, size_t prefix) {
  std::vector<char> data(size);
  for (size_t i = 0; i < size; ++i) {
    data[i] = i < prefix ? char(200 + i % 13) : char(17 * ((i - prefix) % period) + 3);
  }
  return data;
}

}  // namespace

TEST_CASE("an LZ4 block of one repeated pattern decodes as LZ4 decodes it, at every bound") {
  size_t accepted = 0, refused = 0;
  for (size_t literals : {1, 2, 8, 14, 15, 16, 300}) {
    for (size_t offset : {size_t(0), size_t(1), literals, literals + 1}) {
      for (size_t match : {4, 5, 19, 20, 274, 70000}) {
        for (size_t tail : {0, 4, 5, 6, 15, 16, 300}) {
          std::vector<char> block = fill_block({literals, offset, match, tail});
          size_t raw = literals + match + tail;
          for (size_t raw_size : {raw - 1, raw, raw + 1}) {
            // A chunk as large as its data is stored raw, not LZ4: not this path.
            if (raw_size == 0 || raw_size == block.size()) continue;
            (agrees_with_lz4(block, raw_size) ? accepted : refused) += 1;
          }
        }
      }
    }
  }
  // Both sides of the bounds were visited.
  CHECK(accepted > 100);
  CHECK(refused > 100);
}

TEST_CASE("a cut-short or padded fill block is refused like LZ4 refuses it") {
  std::vector<char> block = fill_block({8, 8, 4000, 5});
  for (size_t cut = 1; cut < block.size(); ++cut) {
    std::vector<char> shorter(block.begin(), block.begin() + long(cut));
    agrees_with_lz4(shorter, 4013);
  }
  std::vector<char> longer = block;
  longer.push_back('x');
  CHECK_FALSE(agrees_with_lz4(longer, 4013));
}

TEST_CASE("what LZ4 and LZ4-HC make of repeated BC-like blocks unpacks to the same bytes") {
  for (size_t period : {1, 2, 3, 8, 16, 24, 40}) {
    for (size_t prefix : {0, 5, 16}) {
      for (size_t size : {1024, 4099, 65536, 1 << 20}) {
        std::vector<char> data = patterned(size, period, prefix);
        std::vector<char> packed(static_cast<size_t>(LZ4_compressBound(int(size))));
        for (int level : {0, 9}) {
          int n = level ? LZ4_compress_HC(data.data(), packed.data(), int(size), int(packed.size()),
                                          level)
                        : LZ4_compress_default(data.data(), packed.data(), int(size),
                                               int(packed.size()));
          REQUIRE(n > 0);
          std::vector<char> out(size);
          Chunk chunk{0, size, 0, size_t(n)};
          INFO("period " << period << ", prefix " << prefix << ", size " << size << ", level "
                         << level);
          REQUIRE(unpack_chunk(Compression::LZ4, chunk, packed.data(), size_t(n), out.data(),
                               out.size()));
          CHECK(out == data);
        }
      }
    }
  }
}

// Long chunks are written with non-temporal stores from 16-byte aligned addresses on (the head
// before that and the tail are ordinary copies): a destination at any alignment must get exactly
// the chunk's bytes and nothing around them.
TEST_CASE("long raw and fill chunks land exactly at every destination alignment") {
  constexpr size_t kGuard = 64;
  auto check_lands = [&](const std::vector<char>& block, const std::vector<char>& expected) {
    std::vector<char> buffer(expected.size() + 2 * kGuard + 16);
    for (size_t shift = 0; shift < 17; ++shift) {
      std::fill(buffer.begin(), buffer.end(), '#');
      char* dst = buffer.data() + kGuard + shift;
      Chunk chunk{0, expected.size(), 0, block.size()};
      INFO("block of " << block.size() << " bytes to " << expected.size() << ", shift " << shift);
      REQUIRE(
          unpack_chunk(Compression::LZ4, chunk, block.data(), block.size(), dst, expected.size()));
      CHECK(std::equal(expected.begin(), expected.end(), dst));
      auto untouched = [](const char* from, const char* to) {
        return std::all_of(from, to, [](char c) { return c == '#'; });
      };
      CHECK(untouched(buffer.data(), dst));
      CHECK(untouched(dst + expected.size(), buffer.data() + buffer.size()));
    }
  };
  for (size_t size : {262143, 262144, 262145, 300077, (1 << 20) + 5}) {
    check_lands(patterned(size, 251, 3), patterned(size, 251, 3));  // stored raw: a plain copy
  }
  for (size_t period : {1, 3, 16, 24, 40000}) {
    for (size_t match : {262139, 300077}) {
      std::vector<char> block = fill_block({period, period, match, 5});
      size_t raw = period + match + 5;
      std::vector<char> expected(raw);
      REQUIRE(LZ4_decompress_safe(block.data(), expected.data(), int(block.size()), int(raw)) ==
              int(raw));
      check_lands(block, expected);
    }
  }
}
