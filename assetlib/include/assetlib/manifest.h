// assetlib: the bake manifest (manifest.json in a baked folder).
//
// Lists every baked asset by logical name (its source path relative to the bake root,
// '/'-separated, e.g. "textures/bricks.png"), so an engine resolves names to files without
// walking folders. Reading it is stateless like the rest of assetlib.
//
// Hostile input (see asset_file.h): read_manifest and load_manifest are safe on hostile text.
// They guarantee safe paths, unique names and sorted entries, not that the listed files exist or
// match: file_size, raw_size and hash are as written. Allocate from what read_texture_info /
// read_mesh_info report, not from raw_size.
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
  std::string type;        // 4-char asset type, "TEXI" or "MESH" (read: any 4 bytes)
  std::string path;        // baked file, relative to the manifest's folder, '/'-separated; after
                           // read_manifest always is_safe_relative_path
  std::string hash;        // "xxh3-64:" + 16 hex digits of the baked file's bytes (read: any
                           // string)
  uint64_t file_size = 0;  // bytes of the baked file
  uint64_t raw_size = 0;   // unpacked bytes (all mips, or vertex + index buffers + meshlet data)
};

struct Manifest {
  std::vector<ManifestEntry> assets;  // sorted by name, names unique
};

// Parses manifest JSON. Rejects duplicate names and any unsafe path (is_safe_relative_path), so a
// manifest can never point a loader outside its folder. `source_name` labels errors.
// Safe on hostile text, without exceptions, in memory linear in its size (no size cap here:
// load_manifest caps files). Errors (messages start with `source_name`): InvalidJson,
// UnsupportedVersion (version other than kManifestVersion), MissingKey, WrongKeyType, InvalidValue
// (type not 4 bytes, unsafe path, duplicate name). `out` is left unchanged on error.
// On success the entries are sorted by name, names are unique and every path is safe. Names are
// any strings.
Status read_manifest(std::string_view json_text, Manifest& out,
                     std::string_view source_name = "manifest.json");

// Reads and parses the manifest file at `path`: read_manifest's contract, plus FileNotFound,
// IoError, and InvalidValue for a file over 256 MiB (checked before reading it).
Status load_manifest(const std::string& path, Manifest& out);

// The manifest as JSON text, entries sorted by name: the same manifest gives the same bytes.
// Trusts `manifest`: paths and names are written as given (invalid UTF-8 becomes U+FFFD).
std::string write_manifest(const Manifest& manifest);

// The entry named `name`, or nullptr. Binary search: requires `manifest.assets` sorted by name, as
// read_manifest returns it (an unsorted one gives wrong answers, never a bad pointer). The pointer
// is valid while the manifest is not modified.
const ManifestEntry* find_asset(const Manifest& manifest, std::string_view name);

// True when `path` is not empty, relative (no leading '/'), '/'-separated (no '\'), has no NUL,
// no ':' as second character (a drive letter, "C:") and no empty, "." or ".." component. Any
// string. Purely lexical: symlinks on disk are the caller's concern.
bool is_safe_relative_path(std::string_view path);

}  // namespace assetlib
