// Content hashes for the cache and the manifest: XXH3-64, written as "xxh3-64:<16 hex digits>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace baker {

uint64_t hash_bytes(const void* data, size_t size, uint64_t seed = 0);
std::string hash_string(uint64_t hash);  // "xxh3-64:0123456789abcdef"
// Hash of the concatenation of `parts`: what hash_file gives for a file written from them.
uint64_t hash_parts(std::span<const std::span<const std::byte>> parts);
// Hash of a whole file, streamed; false when it cannot be read.
bool hash_file(const std::string& path, uint64_t& out);
// The same from an open descriptor, read from its current position to the end.
bool hash_fd(int fd, uint64_t& out);

}  // namespace baker
