// The lines of OBJ and MTL text as tinyobjloader splits them: at '\n', '\r' or "\r\n". Every check
// the baker makes on the text before tinyobjloader parses it walks the same lines.
#pragma once

#include <cstring>
#include <string_view>

namespace baker {

class ObjLines {
 public:
  // One look over the whole text for a '\r' (memchr): most files have none, and their lines are
  // then found by memchr for '\n' alone.
  explicit ObjLines(std::string_view text)
      : text_(text),
        any_cr_(!text.empty() && std::memchr(text.data(), '\r', text.size()) != nullptr) {}

  // The next line, without its end; false after the last. Lines view the text given.
  // With a '\r' somewhere, a plain loop: find_first_of with a set of two calls memchr on the set
  // for every byte, which made this split a fifth of an OBJ bake.
  bool next(std::string_view& line) {
    const size_t size = text_.size();
    if (start_ >= size) return false;
    size_t end = size;
    if (!any_cr_) {
      const void* found = std::memchr(text_.data() + start_, '\n', size - start_);
      if (found) end = size_t(static_cast<const char*>(found) - text_.data());
    } else {
      for (end = start_; end < size && text_[end] != '\n' && text_[end] != '\r';) ++end;
    }
    line = text_.substr(start_, end - start_);
    start_ = end + (end + 1 < size && text_[end] == '\r' && text_[end + 1] == '\n' ? 2 : 1);
    return true;
  }

 private:
  std::string_view text_;
  bool any_cr_;
  size_t start_ = 0;
};

}  // namespace baker
