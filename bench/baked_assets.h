// assetlib-bench: the assetlib side of every measurement. A baked folder read back through its
// manifest, each entry paired with its source file, and a baked file loaded the way an engine
// does with assetlib, into staging buffers the caller owns.
#pragma once

#include <assetlib/pack_file.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace bench {

struct BakedAsset {
  std::string name;              // logical name = source path relative to the source root
  std::filesystem::path source;  // the source file
  std::filesystem::path baked;   // the baked file
  std::string type;              // "TEXI" or "MESH"
  std::string format;            // texture format or vertex format
  uint64_t source_bytes = 0;
  uint64_t file_bytes = 0;  // baked file
  uint64_t unpacked_bytes =
      0;  // every section a loader unpacks (= manifest raw_size without meshlets)
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
                     const std::filesystem::path& source_root,
                     const std::filesystem::path& baked_root, BakedTree& out, std::string& error);

// A destination buffer reused across loads (what a mapped staging buffer is to an engine):
// grown on demand and touched once, so page faults are not charged to the measured loads.
class Staging {
 public:
  std::byte* get(uint64_t size);

 private:
  std::vector<std::byte> bytes_;
};

// Destination buffers of one load: a texture's levels go to `first`; a mesh's vertex buffer to
// `first`, its index buffer to `second` and its meshlet data (when baked with meshlets) to `third`.
struct StagingBuffers {
  Staging first, second, third;
};

// load_binaryfile + read_texture_info + unpack_texture, or load_binaryfile + read_mesh_info +
// unpack_mesh (+ unpack_meshlets when the file has meshlets), by the file's type. False on any
// assetlib error.
bool load_asset(const std::filesystem::path& path, StagingBuffers& staging);

// The same from a mapped file: open + mmap (MAP_POPULATE) + parse_binaryfile + read_*_info +
// unpack_* + munmap. No copy of the file's bytes, the chunks are decompressed straight from the
// page cache.
bool load_asset_mapped(const std::filesystem::path& path, StagingBuffers& staging);

// The least work that turns one chunk's stored bytes into its unpacked bytes:
// LZ4_decompress_safe, or memcpy for a chunk stored raw (packed == raw). No checks beyond LZ4's;
// false when LZ4 fails or decodes to another size.
bool decode_chunk_bare(const std::byte* packed, uint64_t packed_size, std::byte* dst,
                       uint64_t raw_size);

// A pack file (`asset-baker pack`) mapped read-only for as long as the object lives, its table of
// contents opened.
class MappedPack {
 public:
  MappedPack() = default;
  ~MappedPack();
  MappedPack(const MappedPack&) = delete;
  MappedPack& operator=(const MappedPack&) = delete;

  // False with `error` set when the file cannot be mapped or is not a valid pack.
  bool open(const std::filesystem::path& path, std::string& error);

  assetlib::PackView view;

 private:
  void* map_ = nullptr;
  size_t size_ = 0;
};

// find_pack_entry + read_pack_asset + read_*_info + unpack_*: the asset named `name` loaded from
// a mapped pack the way load_asset loads a file. False on any assetlib error.
bool load_pack_asset(const MappedPack& pack, const std::string& name, StagingBuffers& staging);

// read_texture_info or read_mesh_info of the asset named `name` in the pack: the metadata read
// alone. False on any error.
bool read_pack_info(const MappedPack& pack, const std::string& name);

}  // namespace bench
