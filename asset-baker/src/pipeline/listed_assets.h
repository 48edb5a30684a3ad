// Reading a baked folder as `pack` and `check` read it: its manifest and each file the manifest
// lists, inside the folder only. Nothing is read through a symlink (at the file or on the way to
// it) or from a FIFO or device; each file is held to what the manifest says of it.
#pragma once

#include "common/bake_status.h"
#include "pipeline/output_tree.h"

#include <assetlib/asset_file.h>
#include <assetlib/manifest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace baker {

// The folder's manifest.json, read (at most assetlib::kMaxManifestSize) and parsed. InvalidAsset
// naming it when it cannot be (a symlink, a FIFO, missing, not a manifest).
BakeStatus read_baked_manifest(const OutputTree& baked, assetlib::Manifest& out);

// The file of `entry`, read into `bytes` and viewed in place as an asset in `view`, when it is a
// regular file holding exactly what the manifest says: its size, content hash, type and unpacked
// size (from its metadata; nothing is decompressed). Otherwise InvalidAsset naming the file and
// what differs; IoError when it cannot be read. Memory: the file, read whole (never more than an
// asset file can be); may throw std::bad_alloc.
BakeStatus read_listed_asset(const OutputTree& baked, const assetlib::ManifestEntry& entry,
                             std::vector<std::byte>& bytes, assetlib::AssetView& view);

}  // namespace baker
