// Internal: reading a small whole file (manifests) with a size cap.
#pragma once

#include <assetlib/status.h>

#include <cstdint>
#include <string>

namespace assetlib::detail {

// Reads all of `path` into `out`; refuses files larger than `max_size` before allocating.
Status read_file(const std::string& path, uint64_t max_size, std::string& out);

}  // namespace assetlib::detail
