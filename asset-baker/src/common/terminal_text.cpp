#include "common/terminal_text.h"

#include <cstdio>

namespace baker {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// The length of the well-formed UTF-8 sequence at `at` (2 to 4 bytes), or 0.
size_t utf8_sequence(std::string_view text, size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const size_t length = lead >= 0xf0 && lead <= 0xf4   ? 4
                        : lead >= 0xe0 && lead <= 0xef ? 3
                        : lead >= 0xc2 && lead <= 0xdf ? 2
                                                       : 0;
  if (length == 0 || text.size() - at < length) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[at + k]) & 0xc0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

std::string terminal_text(std::string_view text) {
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
    } else if (c < 0x80) {
      out += char(c);
    } else if (size_t length = utf8_sequence(text, i);
               length == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      const auto c1 = static_cast<unsigned char>(text[++i]);  // U+0080..U+009F
      out += {'\\', 'u', '0', '0', kHex[c1 >> 4], kHex[c1 & 15]};
    } else if (length > 0) {
      out.append(text.substr(i, length));
      i += length - 1;
    } else if (c <= 0x9f) {  // not UTF-8: an 8-bit terminal reads 0x80..0x9F as C1 controls
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
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
