#include <assetlib/limits.h>
#include <assetlib/manifest.h>

#include "metadata.h"
#include "no_throw.h"
#include "quoted_name.h"
#include "read_file.h"

#include <algorithm>

namespace assetlib {
namespace {

using detail::json;

bool by_name(const ManifestEntry& a, const ManifestEntry& b) { return a.name < b.name; }

Status read_manifest_throwing(std::string_view json_text, Manifest& out,
                              std::string_view source_name);

}  // namespace

bool is_safe_relative_path(std::string_view path) {
  // "C:/x" and "C:x" are absolute (or drive-relative) on Windows: never inside the folder.
  bool drive = path.size() >= 2 && path[1] == ':';
  if (path.empty() || drive || path.front() == '/' || path.find('\\') != std::string_view::npos ||
      path.find('\0') != std::string_view::npos) {
    return false;
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = std::min(path.find('/', start), path.size());
    std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

namespace {

Status read_manifest_throwing(std::string_view json_text, Manifest& out,
                              std::string_view source_name) {
  // simdjson, as the asset readers: a manifest of a million assets (200 MB) parses in a fraction
  // of a second, and touches about twice its text (nlohmann's tree took five times).
  detail::ParsedJson doc;
  if (Status s = detail::json_status(doc.parse(json_text), std::string(source_name)); !s) return s;
  detail::JsonReader reader{std::string(source_name)};
  // Any whole number other than kManifestVersion is another version, however large.
  const uint64_t version = reader.u64(doc.root(), "version");
  if (reader.ok() && version != kManifestVersion) {
    return Status::error(ErrorCode::UnsupportedVersion,
                         std::string(source_name) + ": manifest version " +
                             std::to_string(version) + " is not supported");
  }
  Manifest manifest;
  for (detail::JsonValue e : reader.array(doc.root(), "assets")) {
    ManifestEntry entry;
    entry.name = reader.string(e, "name");
    entry.type = reader.string(e, "type");
    entry.path = reader.string(e, "path");
    entry.hash = reader.string(e, "hash");
    entry.file_size = reader.u64(e, "file_size");
    entry.raw_size = reader.u64(e, "raw_size");
    if (!reader.ok()) return reader.status();
    if (entry.type.size() != 4)
      reader.fail(ErrorCode::InvalidValue, "type " + detail::quoted_name(entry.type));
    if (!is_safe_relative_path(entry.path)) {
      reader.fail(ErrorCode::InvalidValue, "unsafe path " + detail::quoted_name(entry.path) +
                                               " for " + detail::quoted_name(entry.name));
    }
    manifest.assets.push_back(std::move(entry));
  }
  if (!reader.ok()) return reader.status();
  std::sort(manifest.assets.begin(), manifest.assets.end(), by_name);
  auto dup = std::adjacent_find(manifest.assets.begin(), manifest.assets.end(),
                                [](const auto& a, const auto& b) { return a.name == b.name; });
  if (dup != manifest.assets.end()) {
    return Status::error(
        ErrorCode::InvalidValue,
        std::string(source_name) + ": duplicate asset name " + detail::quoted_name(dup->name));
  }
  out = std::move(manifest);
  return {};
}

}  // namespace

Status read_manifest(std::string_view json_text, Manifest& out, std::string_view source_name) {
  return detail::no_throw(source_name,
                          [&] { return read_manifest_throwing(json_text, out, source_name); });
}

Status load_manifest(const std::string& path, Manifest& out) {
  return detail::no_throw(path, [&] {
    std::string text;
    if (Status s = detail::read_file(path, kMaxManifestSize,
                                     "256 MiB limit (assetlib::kMaxManifestSize)", text);
        !s) {
      return s;
    }
    return read_manifest_throwing(text, out, path);
  });
}

std::string write_manifest(const Manifest& manifest) {
  std::vector<ManifestEntry> sorted = manifest.assets;
  std::sort(sorted.begin(), sorted.end(), by_name);
  json assets = json::array();
  for (const ManifestEntry& e : sorted) {
    assets.push_back({{"name", e.name},
                      {"type", e.type},
                      {"path", e.path},
                      {"hash", e.hash},
                      {"file_size", e.file_size},
                      {"raw_size", e.raw_size}});
  }
  json doc = {{"version", kManifestVersion}, {"assets", std::move(assets)}};
  return doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
}

const ManifestEntry* find_asset(const Manifest& manifest, std::string_view name) {
  auto it = std::lower_bound(manifest.assets.begin(), manifest.assets.end(), name,
                             [](const ManifestEntry& e, std::string_view n) { return e.name < n; });
  return (it != manifest.assets.end() && it->name == name) ? &*it : nullptr;
}

}  // namespace assetlib
