// Text from files others control (source names, names inside sources and baked files, messages
// quoting them) shown on a terminal. A file may be named "a\nerror: b.png" or hold a material
// named with an escape sequence that retitles the terminal or clears it: every control character
// is shown as an escape instead, so that each message stays one line that says what it is. Reports
// written as JSON (--json) keep the names as they are; JSON escapes them itself.
#pragma once

#include <string>
#include <string_view>

namespace baker {

// `text` with C0 controls and DEL as "\n", "\r", "\t" or "\xNN", and the C1 controls
// (U+0080..U+009F; some terminals act on them) as "\u0080".."\u009f". Everything else is kept:
// other UTF-8, bytes that are not UTF-8, and backslashes (Windows paths in sources stay readable,
// at the price of
// "\n" reading the same whether escaped or written so).
std::string terminal_text(std::string_view text);

// "<level>: <message>" and a line end on stderr, the message through terminal_text.
void print_message(const char* level, std::string_view message);

}  // namespace baker
