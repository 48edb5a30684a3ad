// Shared helpers of the fuzz targets: invariant checks that abort (so libFuzzer, and the replay
// runner in normal builds, report them as findings), and a stable per-input choice of settings.
#pragma once

#include <assetlib/manifest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

// A property every input must keep. Violations are bugs: print and abort, so libFuzzer saves the
// input as a crash and the replay test fails.
#define FUZZ_CHECK(cond, what)                                                                 \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond, \
                   what);                                                                      \
      std::abort();                                                                            \
    }                                                                                          \
  } while (0)

namespace fuzz {

// FNV-1a of the input: picks settings from the whole input, so seeds stay the plain files they
// are (no prefix byte) and every mutation may also change the settings, deterministically.
inline uint64_t input_hash(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

// Takes `bits` bits off the hash.
class Choices {
 public:
  explicit Choices(uint64_t hash) : bits_(hash) {}
  uint32_t take(uint32_t count) {  // 0 .. count-1
    uint32_t v = uint32_t(bits_ % count);
    bits_ /= count;
    return v;
  }
  bool flip() { return take(2) == 1; }

 private:
  uint64_t bits_;
};

inline bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// For the importers' file callbacks: they may only be asked for paths relative to the input root
// that stay inside it.
inline void check_inside_root(const std::string& path) {
  FUZZ_CHECK(assetlib::is_safe_relative_path(path),
             "callbacks only see root-relative paths inside the root");
}

// Whether the `count` indices of type Index at `data` (unaligned) are all below `limit`.
template <typename Index>
bool indices_below(const std::byte* data, uint64_t count, uint32_t limit) {
  for (uint64_t i = 0; i < count; ++i) {
    Index v;
    std::memcpy(&v, data + i * sizeof(Index), sizeof(Index));
    if (v >= limit) return false;
  }
  return true;
}

}  // namespace fuzz
