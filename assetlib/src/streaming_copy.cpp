#include "streaming_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace assetlib::detail {
namespace {

#if defined(__SSE2__)
// Copies with non-temporal stores and no fence; the head up to 16-byte alignment (stores must be
// aligned) and the tail are ordinary copies.
void stream_unfenced(char* dst, const char* src, size_t n) {
  size_t at = std::min(n, (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15);
  std::memcpy(dst, src, at);
  for (; at + 64 <= n; at += 64) {
    auto from = reinterpret_cast<const __m128i*>(src + at);
    auto to = reinterpret_cast<__m128i*>(dst + at);
    __m128i a = _mm_loadu_si128(from), b = _mm_loadu_si128(from + 1);
    __m128i c = _mm_loadu_si128(from + 2), d = _mm_loadu_si128(from + 3);
    _mm_stream_si128(to, a);
    _mm_stream_si128(to + 1, b);
    _mm_stream_si128(to + 2, c);
    _mm_stream_si128(to + 3, d);
  }
  std::memcpy(dst + at, src + at, n - at);
}
#endif

// One copy per window, with `copy`.
template <typename Copy>
void repeat(char* dst, size_t n, const char* window, size_t window_size, Copy copy) {
  for (size_t at = 0; at < n; at += window_size)
    copy(dst + at, window, std::min(window_size, n - at));
}

}  // namespace

void repeat_streaming(char* dst, size_t n, const char* window, size_t window_size) {
#if defined(__SSE2__)
  if (n >= kStreamingMinBytes) {
    repeat(dst, n, window, window_size, stream_unfenced);
    _mm_sfence();  // non-temporal stores are weakly ordered
    return;
  }
#endif
  repeat(dst, n, window, window_size,
         [](char* d, const char* s, size_t k) { std::memcpy(d, s, k); });
}

void copy_streaming(char* dst, const char* src, size_t n) {
  repeat_streaming(dst, n, src, n);  // one window: the whole copy
}

}  // namespace assetlib::detail
