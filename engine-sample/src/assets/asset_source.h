// Where the loader's bytes come from: the files of a baked folder, or the entries of one pack file
// (assetlib/pack_file.h) mapped into memory. Either way an asset is found by its manifest entry
// and handed over as an assetlib::AssetView, split without copying, so the rest of the loader
// (read_*_info, unpack straight into staging) is the same for both.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/manifest.h>
#include <assetlib/pack_file.h>
#include <assetlib/texture_asset.h>

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace sample {

// What loading levels first_mip.. of a texture needs: its metadata and the blob bytes of those
// levels only (assetlib::texture_mips_blob_range), valid until the source's next read.
struct TextureLevels {
  assetlib::TextureInfo info;
  uint32_t first_mip = 0;           // the levels asked to skip, at most the last level
  std::span<const std::byte> blob;  // the chunks of levels first_mip..
  uint64_t blob_offset = 0;         // their offset in the whole blob
  uint64_t bytes_read = 0;          // header + metadata + blob bytes fetched for them
};

class AssetSource {
 public:
  virtual ~AssetSource() = default;

  // The asset `entry` describes, with its header checked (parse_binaryfile): the view is valid
  // until the next read. Throws SampleError naming the file or the pack entry.
  virtual assetlib::AssetView read(const assetlib::ManifestEntry& entry) = 0;

  // The texture `entry` without its `skip_mips` largest levels (fewer when it has fewer). Throws
  // SampleError naming the file or the pack entry.
  virtual TextureLevels read_texture_levels(const assetlib::ManifestEntry& entry,
                                            uint32_t skip_mips) = 0;

  // How messages name the asset: "<folder>/textures/a.tx", "<file.pack>: textures/a.png".
  virtual std::string where(const assetlib::ManifestEntry& entry) const = 0;
};

// The files of a baked folder, each read whole into one buffer reused for every asset: loading
// allocates per largest file, not per file. A texture without its largest levels is a partial
// read: its header and metadata, then only the bytes of the levels kept.
class FolderSource : public AssetSource {
 public:
  explicit FolderSource(std::filesystem::path folder) : folder_(std::move(folder)) {}

  assetlib::AssetView read(const assetlib::ManifestEntry& entry) override;
  TextureLevels read_texture_levels(const assetlib::ManifestEntry& entry,
                                    uint32_t skip_mips) override;
  std::string where(const assetlib::ManifestEntry& entry) const override;

 private:
  std::filesystem::path folder_;
  std::vector<std::byte> buffer_;
};

// One pack file, mapped read-only for the source's lifetime: every asset is read in place from
// the mapping (the kernel pages in what is unpacked), found by its logical name with
// assetlib::find_pack_entry. Construction maps the file and checks its tables (open_pack): throws
// SampleError naming it when it cannot be read or is not a valid pack.
class PackSource : public AssetSource {
 public:
  explicit PackSource(std::filesystem::path pack);
  ~PackSource() override;
  PackSource(const PackSource&) = delete;
  PackSource& operator=(const PackSource&) = delete;

  // Every asset of the pack, as manifest entries (sorted by name; `path` empty, `hash` the
  // table's as "xxh3-64:..."): what a baked folder's manifest.json would list.
  const std::vector<assetlib::ManifestEntry>& entries() const { return entries_; }

  assetlib::AssetView read(const assetlib::ManifestEntry& entry) override;
  TextureLevels read_texture_levels(const assetlib::ManifestEntry& entry,
                                    uint32_t skip_mips) override;
  std::string where(const assetlib::ManifestEntry& entry) const override;

 private:
  std::filesystem::path path_;
  std::span<const std::byte> mapping_;
  assetlib::PackView pack_;
  std::vector<assetlib::ManifestEntry> entries_;
};

}  // namespace sample
