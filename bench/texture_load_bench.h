// assetlib-bench, measurement 1: texture load. Per texture, stb_image decoding the source file to
// 4-channel pixels (what an engine without assetlib does at run time) against load_binaryfile +
// read_texture_info + unpack_texture of the baked file into a staging buffer. Both from the page
// cache (each file read once before timing), measured side by side.
#pragma once

#include "baked_tree.h"
#include "results.h"
#include "timing.h"

#include <string>
#include <vector>

namespace bench {

void bench_texture_loads(const BakedTree& tree, const TimingPolicy& policy, std::vector<LoadComparison>& out,
                         std::vector<std::string>& notes);

}  // namespace bench
