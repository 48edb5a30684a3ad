// Loading a baked file and unpacking every section of it: what `check` and `--verify` rely on.
#pragma once

#include <assetlib/status.h>

#include <cstdint>
#include <string>
#include <vector>

namespace baker {

struct UnpackedAsset {
  std::string type;                       // "TEXI" or "MESH"
  uint64_t raw_size = 0;                  // unpacked bytes of all sections
  std::vector<std::string> texture_refs;  // logical names a mesh's materials use
};

// Loads `path`, reads its metadata and unpacks all of it (mips; vertices, indices, meshlets).
assetlib::Status unpack_whole_asset(const std::string& path, UnpackedAsset& out);

}  // namespace baker
