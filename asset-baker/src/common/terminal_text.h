// Text from files others control (source names, names inside sources and baked files, messages
// quoting them) shown on a terminal. A file may be named "a\nerror: b.png" or hold a material
// named with an escape sequence that retitles the terminal or clears it: every control character
// is shown as an escape instead, so that each message stays one line that says what it is. Reports
// written as JSON (--json) keep the names as they are; JSON escapes them itself.
#pragma once

#include <string>
#include <string_view>

namespace baker {

// `text` with C0 controls and DEL as "\n", "\r", "\t" or "\xNN", the C1 controls as "\u0080" to
// "\u009f" when written as UTF-8 and as "\x80" to "\x9f" when they are bytes outside UTF-8 (an
// 8-bit terminal acts on either). Everything else is kept: other UTF-8, other bytes that are not
// UTF-8 (a Latin-1 name stays readable), and backslashes (Windows paths in sources stay readable,
// at the price of "\n" reading the same whether escaped or written so).
std::string terminal_text(std::string_view text);

// "<level>: <message>" and a line end on stderr, the message through terminal_text.
void print_message(const char* level, std::string_view message);

}  // namespace baker
