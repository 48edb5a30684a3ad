// assetlib-bench: one side-by-side load comparison (source decoder vs baked load) of one asset,
// shared by the texture and mesh load measurements.
#pragma once

#include "baked_tree.h"
#include "results.h"
#include "timing.h"

#include <functional>
#include <string>
#include <vector>

namespace bench {

// Decoding one asset's source file the way an engine without assetlib would (returns false on failure).
using SourceDecoder = std::function<bool()>;

// For every asset of `type` ("TEXI" or "MESH") in `tree`: times `source_side(asset)` against the
// baked load (load_asset into staging buffers reused across assets), both from the page cache,
// side by side, and appends the medians to `out`. A file that cannot be read, or that either side
// fails to load, is skipped with a note; assetlib failing is noted as an error. `decoder` names
// the source side in notes and in the progress line.
void compare_loads(const BakedTree& tree, const std::string& type, const std::string& decoder,
                   const std::function<SourceDecoder(const BakedAsset&)>& source_side, const TimingPolicy& policy,
                   std::vector<LoadComparison>& out, std::vector<std::string>& notes);

}  // namespace bench
