// The lines of OBJ and MTL text as tinyobjloader splits them: at '\n', '\r' or "\r\n". Every check
// the baker makes on the text before tinyobjloader parses it walks the same lines.
#pragma once

#include <algorithm>
#include <string_view>

namespace baker {

class ObjLines {
 public:
  explicit ObjLines(std::string_view text) : text_(text) {}

  // The next line, without its end; false after the last. Lines view the text given.
  bool next(std::string_view& line) {
    if (start_ >= text_.size()) return false;
    size_t end = std::min(text_.find_first_of("\r\n", start_), text_.size());
    line = text_.substr(start_, end - start_);
    start_ = end + (text_.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    return true;
  }

 private:
  std::string_view text_;
  size_t start_ = 0;
};

}  // namespace baker
