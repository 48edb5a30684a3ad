// Names from files others control, shown on a terminal (common/terminal_text.h): every control
// character escaped, everything else as it is.
#include "common/terminal_text.h"

#include <catch2/catch.hpp>

#include <string>

using baker::terminal_text;
using namespace std::string_literals;

TEST_CASE("terminal text: C0 controls and DEL are escaped, one line stays one line",
          "[terminal_text]") {
  CHECK(terminal_text("a\nb\rc\td") == R"(a\nb\rc\td)");
  CHECK(terminal_text("\x1b]0;title\x07") == R"(\x1b]0;title\x07)");
  CHECK(terminal_text("nul\0end"s) == R"(nul\x00end)");
  CHECK(terminal_text("del\x7f") == R"(del\x7f)");
  CHECK(terminal_text("\x1f") == R"(\x1f)");
}

TEST_CASE("terminal text: C1 controls are escaped, other UTF-8 and other bytes are kept",
          "[terminal_text]") {
  CHECK(terminal_text("csi\xc2\x9b"
                      "2J") == R"(csi\u009b2J)");
  CHECK(terminal_text("\xc2\x80\xc2\x9f") == R"(\u0080\u009f)");
  CHECK(terminal_text("caf\xc3\xa9 \xc2\xa0nbsp") == "caf\xc3\xa9 \xc2\xa0nbsp");
  CHECK(terminal_text("bad \xe9 \xc2") == "bad \xe9 \xc2");  // not UTF-8, and a lone lead byte
  // Bytes 0x80..0x9F outside UTF-8 are C1 controls to an 8-bit terminal; inside it, continuations.
  CHECK(terminal_text("csi\x9b"
                      "2J \x85") == R"(csi\x9b2J \x85)");
  CHECK(terminal_text("\xe2\x82\xac \xf0\x9f\x98\x80") == "\xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(terminal_text("\xe2\x82") == "\xe2\\x82");  // a cut sequence: its lead kept, 0x82 escaped
  CHECK(terminal_text("\xf8\x9b") == "\xf8\\x9b");  // 0xF8 leads no sequence
  CHECK(terminal_text(R"(textures\bricks.png)") == R"(textures\bricks.png)");
  CHECK(terminal_text("") == "");
}
