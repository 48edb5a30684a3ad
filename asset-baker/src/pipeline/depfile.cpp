#include "pipeline/depfile.h"

#include "pipeline/streamed_file.h"


namespace baker {
namespace {

// One path as a depfile word: "a b#c$" -> "a\ b\#c$$". Backslashes are literal except before a
// space or '#', where Ninja and Make would take them for an escape: those are doubled.
std::string escaped(const std::string& path) {
  std::string out;
  size_t backslashes = 0;
  for (char c : path) {
    if (c == ' ' || c == '#') {
      out.append(backslashes + 1, '\\');
      out += c;
    } else if (c == '$') {
      out += "$$";
    } else {
      out += c;
    }
    backslashes = c == '\\' ? backslashes + 1 : 0;
  }
  return out;
}

}  // namespace

std::string depfile_text(const std::string& target, const std::vector<std::string>& inputs) {
  std::string text = escaped(target) + ":";
  for (const std::string& input : inputs) {
    if (input.empty() || input.find_first_of("\n\r") != std::string::npos) continue;
    text += " \\\n  ";
    text += escaped(input);
  }
  text += "\n";
  return text;
}

BakeStatus write_depfile(const std::filesystem::path& path, const std::string& target,
                         const std::vector<std::string>& inputs) {
  std::error_code ec;  // a missing folder shows as the write's own error below
  std::filesystem::create_directories(path.parent_path(), ec);
  std::string text = depfile_text(target, inputs);
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  return write_named_file(path, parts);
}

}  // namespace baker
