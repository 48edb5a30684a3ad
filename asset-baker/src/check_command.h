// `asset-baker check <dir>`: validates a baked folder against its manifest.
#pragma once

#include <filesystem>

namespace baker {

// Every manifest entry must exist with the recorded size and hash, decompress completely to the
// recorded size, and (meshes) name only textures the manifest has; no temporary or unlisted asset
// files may remain. Prints each problem; returns 0 when there is none, 1 otherwise.
int run_check(const std::filesystem::path& baked_dir, bool quiet);

}  // namespace baker
