#include "import/text_encoding.h"

#include <algorithm>
#include <cstdint>

namespace baker {
namespace {

enum class Encoding { Utf8, Utf16Le, Utf16Be };

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Without a byte-order mark: ASCII text in UTF-16 has a NUL in every other byte. The opening
// (up to 256 bytes) decides; a UTF-8 file has no NULs there.
Encoding guess_without_mark(std::string_view text) {
  size_t n = std::min<size_t>(text.size(), 256) & ~size_t(1);
  if (n < 4) return Encoding::Utf8;
  size_t even = 0, odd = 0;
  for (size_t i = 0; i < n; i += 2) {
    even += text[i] == '\0';
    odd += text[i + 1] == '\0';
  }
  if (odd * 4 >= n * 3 / 2 && even == 0) return Encoding::Utf16Le;  // 'v', 0, ' ', 0, ...
  if (even * 4 >= n * 3 / 2 && odd == 0) return Encoding::Utf16Be;
  return Encoding::Utf8;
}

void append_utf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xc0 | c >> 6);
    out += char(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    out += char(0xe0 | c >> 12);
    out += char(0x80 | (c >> 6 & 0x3f));
    out += char(0x80 | (c & 0x3f));
  } else {
    out += char(0xf0 | c >> 18);
    out += char(0x80 | (c >> 12 & 0x3f));
    out += char(0x80 | (c >> 6 & 0x3f));
    out += char(0x80 | (c & 0x3f));
  }
}

std::string from_utf16(std::string_view text, bool little) {
  auto unit = [&](size_t i) {
    uint32_t a = uint8_t(text[i]), b = uint8_t(text[i + 1]);
    return little ? a | b << 8 : a << 8 | b;
  };
  std::string out;
  out.reserve(text.size() / 2);
  for (size_t i = 0; i + 1 < text.size(); i += 2) {
    uint32_t c = unit(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 3 < text.size()) {
      uint32_t low = unit(i + 2);
      if (low >= 0xdc00 && low < 0xe000) {
        append_utf8(out, 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00));
        i += 2;
        continue;
      }
    }
    append_utf8(out, c >= 0xd800 && c < 0xe000 ? 0xfffd : c);
  }
  return out;
}

}  // namespace

BakeStatus utf8_view(std::string_view text, const std::string& name, std::string& storage,
                     std::string_view& out) {
  using namespace std::string_view_literals;
  if (starts_with(text, "\xff\xfe\0\0"sv) || starts_with(text, "\0\0\xfe\xff"sv)) {
    return BakeStatus::failure(BakeError::UnsupportedFeature, name,
                               "the text is UTF-32; save it as UTF-8 or ASCII");
  }
  Encoding encoding = Encoding::Utf8;
  if (starts_with(text, "\xef\xbb\xbf"sv)) {
    text.remove_prefix(3);
  } else if (starts_with(text, "\xff\xfe"sv)) {
    encoding = Encoding::Utf16Le, text.remove_prefix(2);
  } else if (starts_with(text, "\xfe\xff"sv)) {
    encoding = Encoding::Utf16Be, text.remove_prefix(2);
  } else {
    encoding = guess_without_mark(text);
  }
  if (encoding == Encoding::Utf8) {
    out = text;
    return {};
  }
  storage = from_utf16(text, encoding == Encoding::Utf16Le);
  out = storage;
  return {};
}

BakeStatus utf8_text(std::string_view text, const std::string& name, std::string& out) {
  std::string storage;
  std::string_view view;
  if (BakeStatus s = utf8_view(text, name, storage, view); !s) return s;
  if (view.data() == storage.data() && !storage.empty()) {
    out = std::move(storage);
  } else {
    out.assign(view);
  }
  return {};
}

}  // namespace baker
