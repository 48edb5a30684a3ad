// Packing a baked folder: every asset its manifest lists, into one pack file (docs/format.md,
// "Pack file"), for `asset-baker pack` and `asset-baker <input> --pack FILE`.
#pragma once

#include "common/bake_status.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace baker {

struct PackSummary {
  size_t assets = 0;
  uint64_t asset_bytes = 0;  // the asset files' bytes
  uint64_t pack_bytes = 0;   // the pack's, with its tables and padding
};

// Writes every asset `<baked_dir>/manifest.json` lists into `pack`, in assetlib's layout: the same
// folder gives the same bytes. Each file is read once, into one buffer reused for all (memory is
// the largest asset file), and verified as it is copied: its size and XXH3-64 must be the
// manifest's and its header's type the manifest's type, so a damaged asset is never packed. The
// pack is streamed into a temporary beside it and renamed into place only when every asset was
// copied: on any failure `pack` is left as it was and no temporary remains. Missing folders on
// the way to `pack` are created.
// Only what the manifest lists is packed, so the pack may lie in the baked folder; it must not
// be a file the folder needs (manifest.json, the cache, the lock or a listed asset: Config).
// Other failures: InvalidAsset (the manifest cannot be read; a listed file is missing, of another
// size, hash or type), IoError (writing), Internal (out of memory), each naming the file. Stops
// at SIGINT/SIGTERM when called within an InterruptScope (pipeline/interrupt.h), writing nothing.
BakeStatus pack_baked_folder(const std::filesystem::path& baked_dir,
                             const std::filesystem::path& pack, PackSummary& out);

}  // namespace baker
