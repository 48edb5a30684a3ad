// `asset-baker info <file-or-dir>`: header, metadata and sizes of baked files.
#pragma once

#include <filesystem>

namespace baker {

// Prints every .tx/.mesh at `path` (a file, or a folder walked recursively). With `sources` (the
// bake's input folder) it also measures each texture's PSNR against its source. Returns the exit code.
int run_info(const std::filesystem::path& path, const std::filesystem::path& sources, bool as_json);

}  // namespace baker
