// Internal: copies for unpacked bytes that the CPU will not read again soon.
//
// An unpacked chunk goes to a staging buffer that the GPU reads next, not the CPU. Ordinary stores
// first read every destination cache line from memory and then write it back, and they push the
// loader's own working set out of the cache; non-temporal stores write the line straight to memory.
// Measured on the baked corpus (every chunk through unpack_chunk into one 331 MiB arena, best of
// 41, three runs alternating with plain memcpy): one thread 40.0-41.0 -> 38.2-39.3 ms, two
// threads 22.9-24.7 -> 20.2-22.5 ms.
#pragma once

#include <cstddef>

namespace assetlib::detail {

// Below this many bytes a copy stays ordinary: the bytes may well be read soon, and a short copy
// gains nothing.
inline constexpr size_t kStreamingMinBytes = size_t(256) << 10;

// memcpy(dst, src, n), with non-temporal stores where the CPU has them (x86 SSE2) and n is at
// least kStreamingMinBytes; a plain memcpy otherwise. Ends with a store fence, so the bytes are
// ordered before whatever the caller does next (another thread may read them after a join).
// The ranges must not overlap.
void copy_streaming(char* dst, const char* src, size_t n);

// Writes `n` bytes at `dst`: `window` (`window_size` > 0 bytes) repeated, cut off after n bytes;
// streamed and fenced as copy_streaming when n is at least kStreamingMinBytes. `window` must lie
// before `dst` or elsewhere, never inside the n bytes written.
void repeat_streaming(char* dst, size_t n, const char* window, size_t window_size);

}  // namespace assetlib::detail
