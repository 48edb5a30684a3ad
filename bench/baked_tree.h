// assetlib-bench: a baked folder read back through its manifest, each entry paired with its
// source file, plus helpers shared by the measurements.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace bench {

struct BakedAsset {
  std::string name;                // logical name = source path relative to the source root
  std::filesystem::path source;    // the source file
  std::filesystem::path baked;     // the baked file
  std::string type;                // "TEXI" or "MESH"
  std::string format;              // texture format or vertex format
  uint64_t source_bytes = 0;
  uint64_t file_bytes = 0;         // baked file
  uint64_t unpacked_bytes = 0;     // every section a loader unpacks (= manifest raw_size without meshlets)
  uint64_t decoded_source_bytes = 0;  // images: width * height * 4 * bytes per channel from stb
  int source_bytes_per_channel = 1;   // images: 1, 2 (16-bit) or 4 (float, .hdr)
};

struct BakedTree {
  std::string label;    // "assets", "corpus"
  std::string variant;  // "default", "rgba8", "hc"
  std::filesystem::path source_root, baked_root;
  std::vector<BakedAsset> assets;  // manifest order (sorted by name)
};

// Reads `baked_root`/manifest.json and each baked file's metadata. False with `error` set when
// the manifest or a listed file cannot be read.
bool read_baked_tree(const std::string& label, const std::string& variant,
                     const std::filesystem::path& source_root, const std::filesystem::path& baked_root,
                     BakedTree& out, std::string& error);

// Reads the whole file once so that it sits in the page cache. False when it cannot be read.
bool warm_page_cache(const std::filesystem::path& path);

// Size class of an unpacked size, for the table rows: "< 64 KiB", "64 KiB - 1 MiB", ...
const char* size_class(uint64_t unpacked_bytes);
// Every size class, smallest first.
const std::vector<std::string>& size_classes();

// A destination buffer reused across loads (what a mapped staging buffer is to an engine):
// grown on demand and touched once, so page faults are not charged to the measured loads.
class Staging {
 public:
  std::byte* get(uint64_t size);

 private:
  std::vector<std::byte> bytes_;
};

}  // namespace bench
