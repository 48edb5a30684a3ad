#include "common/terminal_text.h"

#include <cstdio>

namespace baker {

std::string terminal_text(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    } else if (c == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      const auto c1 = static_cast<unsigned char>(text[++i]);
      out += {'\\', 'u', '0', '0', kHex[c1 >> 4], kHex[c1 & 15]};
    } else {
      out += char(c);
    }
  }
  return out;
}

void print_message(const char* level, std::string_view message) {
  std::fprintf(stderr, "%s: %s\n", level, terminal_text(message).c_str());
}

}  // namespace baker
