#include "content_hash.h"

#include <xxhash.h>

#include <cstdio>
#include <memory>
#include <vector>

namespace baker {

uint64_t hash_bytes(const void* data, size_t size, uint64_t seed) {
  return XXH3_64bits_withSeed(data, size, seed);
}

std::string hash_string(uint64_t hash) {
  char text[32];
  std::snprintf(text, sizeof text, "xxh3-64:%016llx", static_cast<unsigned long long>(hash));
  return text;
}

bool hash_file(const std::string& path, uint64_t& out) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return false;
  std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(),
                                                                       &XXH3_freeState);
  XXH3_64bits_reset(state.get());
  std::vector<char> buffer(1 << 20);
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), f.get())) > 0) {
    XXH3_64bits_update(state.get(), buffer.data(), n);
  }
  if (std::ferror(f.get())) return false;
  out = XXH3_64bits_digest(state.get());
  return true;
}

}  // namespace baker
