// Internal: the 4-character type tags of asset files and pack entries.
#pragma once

namespace assetlib::detail {

// A type tag is 4 characters of A-Z, 0-9 or _ (docs/format.md). Checked before anything else, so
// bytes that are no asset at all (a README, a PNG) are called that, not "format version
// 1819567475".
inline bool is_type_tag(const char* type) {
  for (int i = 0; i < 4; ++i) {
    char c = type[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace assetlib::detail
