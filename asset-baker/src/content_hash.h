// Content hashes for the cache and the manifest: XXH3-64, written as "xxh3-64:<16 hex digits>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace baker {

uint64_t hash_bytes(const void* data, size_t size, uint64_t seed = 0);
std::string hash_string(uint64_t hash);  // "xxh3-64:0123456789abcdef"
// Hash of a whole file, streamed; false when it cannot be read.
bool hash_file(const std::string& path, uint64_t& out);

}  // namespace baker
