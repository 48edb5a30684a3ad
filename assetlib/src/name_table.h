// Internal: the stable JSON names of an enum's values, as a table of (value, name) pairs, and the
// two lookups every asset type needs. Unknown values and names map to "Unknown" / Enum::Unknown,
// so hostile names are refused by the caller's check for Unknown.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace assetlib::detail {

template <typename Enum, size_t N>
using NameTable = std::array<std::pair<Enum, const char*>, N>;

template <typename Enum, size_t N>
const char* name_of(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& entry : table) {
    if (entry.first == value) return entry.second;
  }
  return "Unknown";
}

template <typename Enum, size_t N>
Enum value_of(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& entry : table) {
    if (name == entry.second) return entry.first;
  }
  return Enum::Unknown;
}

// True when `value` has a name in the table (not Unknown, not out of range).
template <typename Enum, size_t N>
bool has_name(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& entry : table) {
    if (entry.first == value) return true;
  }
  return false;
}

}  // namespace assetlib::detail
