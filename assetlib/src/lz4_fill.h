// Internal: a fast path for LZ4 blocks that decode to one short pattern repeated.
//
// Baked textures are full of them: a solid or flat region of a BC texture is one 8- or 16-byte
// block repeated, and LZ4 writes a chunk of it as a few literal bytes, one long match a pattern
// length back, and the 5 literals LZ4 always ends with. LZ4 replays such a match 8 to 32 bytes at
// a time (about 10 GB/s here); doubling copies of the pattern write it at memcpy speed (measured on
// the corpus: 60.6 MiB of such chunks, 6.0 ms through LZ4, 1.0 ms this way). Not a format change:
// the block is ordinary LZ4, recognised by its shape.
#pragma once

#include <cstddef>

namespace assetlib::detail {

// Decodes `src` (`src_size` bytes) into exactly `raw_size` bytes at `dst` if it is an LZ4 block of
// that shape, and returns true; returns false, having written nothing, for any other block (the
// caller then runs LZ4_decompress_safe). The shape is accepted only where LZ4_decompress_safe
// accepts it with the same result (the match within what was written, the last 5 bytes
// literals, input and output both used up exactly): a crafted block either decodes as LZ4 would or
// is left to LZ4. Safe on hostile bytes; reads only src[0, src_size), writes only dst[0, raw_size).
bool decode_lz4_fill(const char* src, size_t src_size, char* dst, size_t raw_size);

}  // namespace assetlib::detail
