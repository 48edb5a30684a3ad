// Fuzz target 2: the manifest reader (manifest.json of a baked folder, possibly from a mod).
// Whatever it accepts must be safe to use (relative paths that stay inside the folder, unique
// sorted names, 4-char types) and must survive write_manifest -> read_manifest unchanged.
#include "fuzz_common.h"

#include <assetlib/manifest.h>

#include <string>
#include <string_view>

namespace {

using namespace assetlib;

bool same(const ManifestEntry& a, const ManifestEntry& b) {
  return a.name == b.name && a.type == b.type && a.path == b.path && a.hash == b.hash &&
         a.file_size == b.file_size && a.raw_size == b.raw_size;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exact-size copy: a read past the text is a finding.
  std::string text(reinterpret_cast<const char*>(data), size);
  Manifest manifest;
  Status s = read_manifest(text, manifest, "fuzz/manifest.json");
  if (!s) {
    FUZZ_CHECK(fuzz::starts_with(s.message, "fuzz/manifest.json"), "errors name the source");
    FUZZ_CHECK(manifest.assets.empty(), "a failed read leaves the output untouched");
    return 0;
  }
  for (size_t i = 0; i < manifest.assets.size(); ++i) {
    const ManifestEntry& e = manifest.assets[i];
    FUZZ_CHECK(is_safe_relative_path(e.path), "accepted paths stay inside the folder");
    // "C:/x" or "C:x" is not inside the manifest's folder on Windows (finding F8).
    FUZZ_CHECK(!(e.path.size() >= 2 && e.path[1] == ':'), "no drive-letter paths");
    FUZZ_CHECK(e.type.size() == 4, "4-char type");
    if (i > 0) FUZZ_CHECK(manifest.assets[i - 1].name < e.name, "sorted, unique names");
    const ManifestEntry* found = find_asset(manifest, e.name);
    FUZZ_CHECK(found == &e, "find_asset finds every entry");
  }

  std::string written = write_manifest(manifest);
  Manifest again;
  Status back = read_manifest(written, again, "rewritten");
  FUZZ_CHECK(back.ok(), "a manifest it accepted is written back readable");
  FUZZ_CHECK(again.assets.size() == manifest.assets.size(), "round trip keeps every entry");
  for (size_t i = 0; i < again.assets.size(); ++i) {
    FUZZ_CHECK(same(again.assets[i], manifest.assets[i]), "round trip keeps every field");
  }
  FUZZ_CHECK(write_manifest(again) == written, "writing is deterministic");
  return 0;
}
