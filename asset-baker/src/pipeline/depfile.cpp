#include "pipeline/depfile.h"

#include "pipeline/streamed_file.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <set>

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

// Characters a build file holds in a path as themselves (build_file_name).
bool plain_in_build_files(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80 ||
         std::string_view("+,/_.~(){}=@[]!- ").find(char(c)) != std::string_view::npos;
}

// Whether Ninja's depfile reader takes `path` whole: its plain characters, and those escaped().
bool ninja_reads(std::string_view path) {
  for (char c : path) {
    if (!plain_in_build_files(static_cast<unsigned char>(c)) &&
        std::string_view(":%#$\\").find(c) == std::string_view::npos)
      return false;
  }
  return true;
}

}  // namespace

std::string depfile_text(const std::string& target, const std::vector<std::string>& inputs) {
  std::string text = escaped(target) + ":";
  std::set<std::string> folders;  // named once each
  for (const std::string& input : inputs) {
    if (input.empty() || input.find_first_of("\n\r") != std::string::npos) continue;
    std::string path = input;
    if (!ninja_reads(path)) {
      std::filesystem::path folder = std::filesystem::path(input).parent_path();
      while (!ninja_reads(folder.string()) && folder != folder.parent_path())
        folder = folder.parent_path();
      if (!ninja_reads(folder.string()) || !folders.insert(folder.string()).second) continue;
      path = folder.string();
    }
    text += " \\\n  ";
    text += escaped(path);
  }
  text += "\n";
  return text;
}

BakeStatus write_stamp(const std::filesystem::path& path, std::optional<int64_t> dated_ns) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (BakeStatus s = write_named_file(path, {}); !s) return s;
  struct stat st {};
  if (!dated_ns || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  const timespec times[2] = {{0, UTIME_OMIT},
                             {time_t(*dated_ns / 1000000000), long(*dated_ns % 1000000000)}};
  if (::utimensat(AT_FDCWD, path.c_str(), times, 0) != 0) {
    return BakeStatus::failure(BakeError::IoError, path.string(),
                               std::string("dating the stamp failed: ") + std::strerror(errno));
  }
  return {};
}

std::string build_file_name(std::string_view relative) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(relative.size());
  for (char c : relative) {
    const auto byte = static_cast<unsigned char>(c);
    if (plain_in_build_files(byte)) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
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
