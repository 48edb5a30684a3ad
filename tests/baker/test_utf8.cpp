// is_utf8 (common/source_paths.h): names that reach the manifest and metadata (JSON) must be
// well-formed UTF-8 (RFC 3629): shortest form, no surrogates, nothing above U+10FFFF.
#include "common/source_paths.h"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

using baker::is_utf8;

TEST_CASE("utf8: ASCII, empty and embedded NUL are valid", "[utf8]") {
  CHECK(is_utf8(""));
  CHECK(is_utf8("textures/a b-c_d.png"));
  CHECK(is_utf8(std::string("a\0b", 3)));
  CHECK(is_utf8("\x7F"));
}

TEST_CASE("utf8: well-formed multi-byte sequences are valid", "[utf8]") {
  CHECK(is_utf8("caf\xC3\xA9"));           // U+00E9, 2 bytes
  CHECK(is_utf8("\xC2\x80"));              // U+0080, smallest 2-byte
  CHECK(is_utf8("\xDF\xBF"));              // U+07FF, largest 2-byte
  CHECK(is_utf8("\xE0\xA0\x80"));          // U+0800, smallest 3-byte
  CHECK(is_utf8("\xE2\x82\xAC"));          // U+20AC euro sign
  CHECK(is_utf8("\xED\x9F\xBF"));          // U+D7FF, just below the surrogates
  CHECK(is_utf8("\xEE\x80\x80"));          // U+E000, just above them
  CHECK(is_utf8("\xEF\xBF\xBF"));          // U+FFFF
  CHECK(is_utf8("\xF0\x90\x80\x80"));      // U+10000, smallest 4-byte
  CHECK(is_utf8("\xF0\x9F\x98\x80.png"));  // U+1F600
  CHECK(is_utf8("\xF4\x8F\xBF\xBF"));      // U+10FFFF, the largest code point
  CHECK(is_utf8("\xE6\x97\xA5\xE6\x9C\xAC/\xD0\x9C.obj"));
}

TEST_CASE("utf8: truncated sequences are invalid", "[utf8]") {
  CHECK_FALSE(is_utf8("\xC3"));
  CHECK_FALSE(is_utf8("a\xE2\x82"));
  CHECK_FALSE(is_utf8("\xF0\x9F\x98"));
  CHECK_FALSE(is_utf8("\xE2\x82x"));
  CHECK_FALSE(
      is_utf8("\xF0\x9F\x98"
              "a"));
  // Cut inside a view whose buffer goes on with valid continuation bytes: the end is the view's.
  CHECK_FALSE(is_utf8(std::string_view("\xE2\x82\xAC", 2)));
  CHECK_FALSE(is_utf8(std::string_view("a\xF0\x9F\x98\x80", 4)));
}

TEST_CASE("utf8: stray continuation bytes are invalid", "[utf8]") {
  CHECK_FALSE(is_utf8("\x80"));
  CHECK_FALSE(
      is_utf8("a\xBF"
              "b"));
  CHECK_FALSE(is_utf8("\xC3\xA9\xA9"));  // one continuation too many
}

TEST_CASE("utf8: bytes that never start a sequence are invalid", "[utf8]") {
  CHECK_FALSE(is_utf8("\xFF"));
  CHECK_FALSE(is_utf8("\xFE"));
  CHECK_FALSE(is_utf8("\xF8\x88\x80\x80\x80"));      // old 5-byte form
  CHECK_FALSE(is_utf8("\xFC\x84\x80\x80\x80\x80"));  // old 6-byte form
}

TEST_CASE("utf8: overlong encodings are invalid", "[utf8]") {
  // Overlong forms would pass a check of lead and continuation bits alone; nlohmann's dump then
  // rewrites them as U+FFFD in the manifest and the cache.
  CHECK_FALSE(is_utf8("\xC0\x80"));          // U+0000 in 2 bytes
  CHECK_FALSE(is_utf8("\xC0\xAF"));          // '/' in 2 bytes
  CHECK_FALSE(is_utf8("\xC1\xBF"));          // U+007F in 2 bytes
  CHECK_FALSE(is_utf8("\xE0\x80\xAF"));      // '/' in 3 bytes
  CHECK_FALSE(is_utf8("\xE0\x9F\xBF"));      // U+07FF in 3 bytes
  CHECK_FALSE(is_utf8("\xF0\x80\x80\xAF"));  // '/' in 4 bytes
  CHECK_FALSE(is_utf8("\xF0\x8F\xBF\xBF"));  // U+FFFF in 4 bytes
}

TEST_CASE("utf8: encoded UTF-16 surrogates are invalid", "[utf8]") {
  // ED A0..BF (U+D800..U+DFFF) has a valid bit pattern.
  CHECK_FALSE(is_utf8("\xED\xA0\x80"));              // U+D800
  CHECK_FALSE(is_utf8("\xED\xB0\x80"));              // U+DC00
  CHECK_FALSE(is_utf8("\xED\xBF\xBF"));              // U+DFFF
  CHECK_FALSE(is_utf8("\xED\xA0\xBD\xED\xB8\x80"));  // CESU-8 pair for U+1F600
}

TEST_CASE("utf8: code points above U+10FFFF are invalid", "[utf8]") {
  // F5..F7 leads and F4 90..BF have a valid bit pattern too.
  CHECK_FALSE(is_utf8("\xF4\x90\x80\x80"));  // U+110000
  CHECK_FALSE(is_utf8("\xF5\x80\x80\x80"));
  CHECK_FALSE(is_utf8("\xF7\xBF\xBF\xBF"));  // U+1FFFFF
}
