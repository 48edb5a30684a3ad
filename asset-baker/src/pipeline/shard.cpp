#include "pipeline/shard.h"

#include "common/content_hash.h"

#include <charconv>

namespace baker {
namespace {

// Shard counts beyond this are not a CI matrix anyone runs; the bound keeps K and N small numbers.
constexpr uint32_t kMaxShards = 65536;

std::optional<uint32_t> parse_count(std::string_view digits) {
  uint32_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
    return std::nullopt;
  return value;
}

}  // namespace

std::optional<Shard> parse_shard(std::string_view text, std::string& why) {
  size_t slash = text.find('/');
  std::optional<uint32_t> k = parse_count(text.substr(0, slash));
  std::optional<uint32_t> n =
      slash == std::string_view::npos ? std::nullopt : parse_count(text.substr(slash + 1));
  if (!k || !n || *k < 1 || *n < 1 || *k > *n || *n > kMaxShards) {
    why = "must be K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) + " (e.g. 2/4)";
    return std::nullopt;
  }
  return Shard{*k - 1, *n};
}

bool in_shard(const Shard& shard, std::string_view relative) {
  return hash_bytes(relative.data(), relative.size()) % shard.count == shard.index;
}

}  // namespace baker
