// The incremental-bake cache (.assetlib-cache.json in the output folder).
//
// Each baked output is keyed by the bytes of every file its bake read (hashed; a file's size and
// mtime only let an unchanged file skip re-hashing), the settings that apply to it, and the
// baker's version. It also keeps what the manifest needs, so an up-to-date asset costs no reads.
#pragma once

#include <assetlib/status.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baker {

// Bump when an importer changes what it writes for the same input: every output rebakes.
inline constexpr uint32_t kBakerVersion = 1;
inline constexpr const char* kCacheFileName = ".assetlib-cache.json";

// What a bake depended on besides its source: a file's content hash, or "present"/"absent" for a
// file whose existence alone mattered (a texture a material names).
struct Dependency {
  std::string path;  // root-relative
  std::string state;
};

struct CacheEntry {
  std::string kind;          // "texture" or "mesh"
  std::string output;        // output path, relative to the output root
  std::string settings;      // canonical settings key
  std::string source_hash;
  std::vector<Dependency> deps;
  std::string type;          // "TEXI" / "MESH"
  std::string output_hash;
  uint64_t output_size = 0;
  uint64_t raw_size = 0;
};

// Remembered hash of a source file, valid while its size and mtime are unchanged.
struct FileStamp {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  std::string hash;
};

struct BakeCache {
  std::map<std::string, CacheEntry> entries;  // by source (root-relative)
  std::map<std::string, FileStamp> stamps;    // by root-relative path
};

// Reads the cache in `output_root`; a missing, unreadable or other-version cache gives an empty one.
BakeCache load_cache(const std::filesystem::path& output_root);

// Writes it atomically.
assetlib::Status save_cache(const std::filesystem::path& output_root, const BakeCache& cache);

}  // namespace baker
