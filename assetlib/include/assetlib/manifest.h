// assetlib: the bake manifest (manifest.json in a baked folder).
//
// Lists every baked asset by logical name (its source path relative to the bake root,
// '/'-separated, e.g. "textures/bricks.png"), so an engine resolves names to files without
// walking folders. Reading it is stateless like the rest of assetlib.
#pragma once

#include <assetlib/status.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assetlib {

inline constexpr uint32_t kManifestVersion = 1;

struct ManifestEntry {
  std::string name;        // logical name: source path relative to the bake root
  std::string type;        // 4-char asset type, "TEXI" or "MESH"
  std::string path;        // baked file, relative to the manifest's folder, '/'-separated
  std::string hash;        // "xxh3-64:" + 16 hex digits of the baked file's bytes
  uint64_t file_size = 0;  // bytes of the baked file
  uint64_t raw_size = 0;   // unpacked bytes (all mips, or vertex + index buffers)
};

struct Manifest {
  std::vector<ManifestEntry> assets;  // sorted by name, names unique
};

// Parses manifest JSON. Rejects duplicate names and any path that is absolute or contains '..',
// so a manifest can never point a loader outside its folder. `source_name` labels errors.
Status read_manifest(std::string_view json_text, Manifest& out,
                     std::string_view source_name = "manifest.json");

// Reads and parses the manifest file at `path`.
Status load_manifest(const std::string& path, Manifest& out);

// The manifest as JSON text, entries sorted by name: the same manifest gives the same bytes.
std::string write_manifest(const Manifest& manifest);

// The entry named `name`, or nullptr.
const ManifestEntry* find_asset(const Manifest& manifest, std::string_view name);

// True when `path` is relative, '/'-separated, has no drive letter ("C:") and no empty, "." or
// ".." component.
bool is_safe_relative_path(std::string_view path);

}  // namespace assetlib
