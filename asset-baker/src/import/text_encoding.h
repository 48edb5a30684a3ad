// Text sources (OBJ, MTL) as UTF-8 for tinyobjloader, which reads bytes as ASCII: a UTF-16 file
// (Windows tools save one now and then) came out as "no triangles" because every other byte is a
// NUL, and a UTF-8 byte-order mark glued onto the first keyword lost the first line.
#pragma once

#include "common/bake_status.h"

#include <string>
#include <string_view>

namespace baker {

// `text` (the file `name`) as UTF-8 in `out`: a UTF-8 byte-order mark is dropped, UTF-16 (with a
// byte-order mark, or without one when NULs sit at every other byte of the opening) is converted,
// unpaired surrogates becoming U+FFFD. UTF-32 is refused (UnsupportedFeature, naming the
// encoding).
BakeStatus utf8_text(std::string_view text, const std::string& name, std::string& out);

// utf8_text without copying text that is UTF-8 already (the usual case, and an OBJ can be
// hundreds of megabytes): `out` views `text` itself past any byte-order mark, or `storage`,
// which holds the conversion of UTF-16. `out` is valid while both are. The same errors.
BakeStatus utf8_view(std::string_view text, const std::string& name, std::string& storage,
                     std::string_view& out);

}  // namespace baker
