// A baked asset file mapped instead of read, for the tools that look at one asset (`info`,
// `export`): they touch only the pages of the chunks they unpack, so a file whose header declares
// a 4 GiB blob (a sparse file, say) costs neither 4 GiB of memory nor 4 GiB of reading.
#pragma once

#include "common/bake_status.h"
#include "common/mapped_file.h"

#include <assetlib/asset_file.h>

#include <filesystem>

namespace baker {

struct MappedAsset {
  MappedFile file;
  assetlib::AssetView view;  // header, JSON and blob, inside `file`'s mapping
};

// Maps the asset file at `path` into `out`, with load_binaryfile's checks and error messages
// (FileNotFound for a missing or special file, TruncatedHeader, LengthMismatch, ...), as a
// BakeStatus naming the file (InvalidAsset; IoError when it cannot be mapped). The type and the
// JSON are not checked. On failure `out.view` is empty. The mapping reflects the file (see
// mapped_file.h): one truncated by another process while the tool runs, or a read error of the
// medium, ends it with SIGBUS where reading it whole reported an error. The tools accept that, as
// for packs, for never holding more of a file than they use.
BakeStatus map_asset(const std::filesystem::path& path, MappedAsset& out);

}  // namespace baker
