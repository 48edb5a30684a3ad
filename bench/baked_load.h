// assetlib-bench: loading a baked file the way an engine does with assetlib, into staging
// buffers the caller owns. Every function returns false on any assetlib error.
#pragma once

#include "baked_tree.h"

#include <filesystem>

namespace bench {

// Destination buffers of one load: a texture's levels go to `first`; a mesh's vertex buffer to
// `first`, its index buffer to `second` and its meshlet data (when baked with meshlets) to `third`.
struct StagingBuffers {
  Staging first, second, third;
};

// load_binaryfile + read_texture_info + unpack_texture.
bool load_texture(const std::filesystem::path& path, StagingBuffers& staging);
// load_binaryfile + read_mesh_info + unpack_mesh (+ unpack_meshlets when the file has meshlets).
bool load_mesh(const std::filesystem::path& path, StagingBuffers& staging);
// Either of the above, by the file's type.
bool load_asset(const std::filesystem::path& path, StagingBuffers& staging);
// open + mmap (MAP_POPULATE) + parse_binaryfile + read_*_info + unpack_* + munmap: no copy of
// the file's bytes, the chunks are decompressed straight from the page cache.
bool load_asset_mapped(const std::filesystem::path& path, StagingBuffers& staging);

}  // namespace bench
