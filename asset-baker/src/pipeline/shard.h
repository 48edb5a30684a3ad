// Splitting one bake over machines (`--shard K/N`): each source belongs to exactly one of N shards,
// chosen by the hash of its root-relative path alone, so a source stays in its shard however many
// other sources are added or removed, and every machine agrees without talking to the others.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace baker {

struct Shard {
  uint32_t index = 0;  // 0-based: "--shard 1/4" is index 0
  uint32_t count = 1;
  bool operator==(const Shard&) const = default;
};

// Parses "K/N" with 1 <= K <= N <= 65536 (decimal, nothing else). nullopt with `why` set otherwise.
std::optional<Shard> parse_shard(std::string_view text, std::string& why);

// True when `relative` (a source, root-relative) is baked by `shard`: XXH3-64 of its bytes modulo
// the shard count is the shard's index.
bool in_shard(const Shard& shard, std::string_view relative);

}  // namespace baker
