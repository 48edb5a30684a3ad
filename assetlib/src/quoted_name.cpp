#include "quoted_name.h"

#include <cstdio>

namespace assetlib::detail {

std::string quoted_name(std::string_view name) {
  std::string out = "'";
  for (unsigned char c : name.substr(0, kQuotedNameLimit)) {
    if (c < 0x20 || c == 0x7f || c == '\'') {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    } else {
      out += char(c);
    }
  }
  out += name.size() > kQuotedNameLimit ? "...'" : "'";
  return out;
}

}  // namespace assetlib::detail
