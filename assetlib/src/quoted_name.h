// Internal: a name read from a file (a manifest path, a pack entry) as an error message quotes it.
// The bytes are the file's, so whoever wrote it chooses them: a NUL would end the message for a
// caller who prints it with c_str(), and escape sequences would reach the terminal.
#pragma once

#include <string>
#include <string_view>

namespace assetlib::detail {

// The name in single quotes, control bytes (below 0x20, and 0x7f) and quotes written as \xNN, cut
// after kQuotedNameLimit bytes with "..." (a hostile name can be as long as its file).
inline constexpr size_t kQuotedNameLimit = 80;
std::string quoted_name(std::string_view name);

}  // namespace assetlib::detail
