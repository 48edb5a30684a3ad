// Numbering what an OBJ corner refers to by (position index, another key): the running normal
// sums of one smoothing group at a position, the vertex of one (position, UV, normal) combination.
// Linear time for every input: see PositionTable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace baker {

// Gives each distinct (position, key) pair a number, 0, 1, 2, ... in order of first lookup.
// Entries are chained per position: a position of a real mesh has one entry, or a few along a
// seam or a hard edge, so a lookup is an array access and a short walk. A chain longer than
// kMaxChain (a file that puts one position in thousands of smoothing groups or UV pairs) switches
// every later lookup to one hash map, so no input makes it quadratic; the numbers are the same
// either way. Positions must be below the count given to the constructor.
class PositionTable {
 public:
  explicit PositionTable(size_t positions) : first_(positions, kNone) {}

  // The number of (position, key), new (== size() before the call) when first met.
  uint32_t find_or_add(uint32_t position, uint64_t key) {
    if (by_pair_) return hashed(position, key);
    uint32_t* link = &first_[position];
    for (size_t steps = 0; *link != kNone; ++steps) {
      if (entries_[*link].key == key) return *link;
      if (steps == kMaxChain) return switch_to_hash(position, key);
      link = &entries_[*link].next;
    }
    *link = uint32_t(entries_.size());  // before add(): its push_back may move `link`'s target
    return add(position, key);
  }

  size_t size() const { return entries_.size(); }

 private:
  static constexpr uint32_t kNone = ~0u;
  static constexpr size_t kMaxChain = 16;
  struct Entry {
    uint64_t key;
    uint32_t position, next;
  };
  struct PairHash {
    size_t operator()(const std::pair<uint32_t, uint64_t>& p) const {
      return std::hash<uint64_t>()(p.second * 0x9E3779B97F4A7C15ull ^ p.first);
    }
  };

  uint32_t add(uint32_t position, uint64_t key) {
    entries_.push_back({key, position, kNone});
    return uint32_t(entries_.size() - 1);
  }
  uint32_t hashed(uint32_t position, uint64_t key) {
    auto [it, added] = by_pair_->try_emplace({position, key}, uint32_t(entries_.size()));
    if (added) add(position, key);
    return it->second;
  }
  uint32_t switch_to_hash(uint32_t position, uint64_t key) {
    by_pair_.emplace();
    by_pair_->reserve(entries_.size() * 2);
    for (uint32_t i = 0; i < entries_.size(); ++i)
      by_pair_->emplace(std::pair{entries_[i].position, entries_[i].key}, i);
    return hashed(position, key);
  }

  std::vector<uint32_t> first_;  // per position: its first entry, or kNone
  std::vector<Entry> entries_;
  std::optional<std::unordered_map<std::pair<uint32_t, uint64_t>, uint32_t, PairHash>> by_pair_;
};

}  // namespace baker
