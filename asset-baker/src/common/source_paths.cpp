#include "common/source_paths.h"

#include <assetlib/manifest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace baker {

namespace fs = std::filesystem;

std::string parent_of(std::string_view relative) {
  size_t slash = relative.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(relative.substr(0, slash));
}

std::optional<std::string> resolve_reference(std::string_view base_dir, std::string_view reference,
                                             std::string* why) {
  std::string ref(reference);
  std::replace(ref.begin(), ref.end(), '\\', '/');
  if (ref.empty()) {
    if (why) *why = "empty path";
    return std::nullopt;
  }
  if (ref.front() == '/' || (ref.size() > 1 && ref[1] == ':')) {
    if (why) *why = "absolute path '" + ref + "' refused";
    return std::nullopt;
  }
  std::vector<std::string> parts;
  auto push_parts = [&](std::string_view path) {
    size_t start = 0;
    while (start <= path.size()) {
      size_t end = std::min(path.find('/', start), path.size());
      std::string_view part = path.substr(start, end - start);
      start = end + 1;
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else {
        parts.emplace_back(part);
      }
    }
    return true;
  };
  if (!push_parts(base_dir) || !push_parts(ref) || parts.empty()) {
    if (why) *why = "path '" + ref + "' leaves the input folder; refused";
    return std::nullopt;
  }
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : "/") + part;
  // The result, not only the reference, must pass the rule every root-relative path does: "../e:"
  // from "models" climbs back to "e:", which reads as a drive letter.
  if (!assetlib::is_safe_relative_path(out)) {
    if (why) {
      *why = "path '" + ref + "' resolves to '";
      *why += out;
      *why += "', not a safe relative path; refused";
    }
    return std::nullopt;
  }
  return out;
}

std::optional<fs::path> inside_root(const fs::path& root, std::string_view relative) {
  std::error_code ec;
  fs::path canonical_root = fs::weakly_canonical(root, ec);
  if (ec) return std::nullopt;
  fs::path full = fs::weakly_canonical(root / fs::path(relative), ec);
  if (ec) return std::nullopt;
  auto [root_end, _] =
      std::mismatch(canonical_root.begin(), canonical_root.end(), full.begin(), full.end());
  if (root_end != canonical_root.end()) return std::nullopt;
  return full;
}

std::string with_extension(std::string_view relative, std::string_view extension) {
  std::string out(relative);
  size_t dot = out.rfind('.');
  size_t slash = out.rfind('/');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) out.resize(dot);
  return out + std::string(extension);
}

bool is_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    size_t length = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    if (length == 0 || i + length > text.size()) return false;
    uint32_t code = length == 1 ? c : c & (0x7Fu >> length);
    for (size_t k = 1; k < length; ++k) {
      auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = code << 6 | (next & 0x3Fu);
    }
    // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8 (RFC 3629).
    static constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kSmallest[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
      return false;
    i += length;
  }
  return true;
}

std::string lower_extension(std::string_view relative) {
  size_t dot = relative.rfind('.');
  size_t slash = relative.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  std::string ext(relative.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

}  // namespace baker
