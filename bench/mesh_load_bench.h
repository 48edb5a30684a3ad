// assetlib-bench, measurement 2: mesh load. Per model, tinyobjloader's LoadObj on the .obj (its
// .mtl from the same folder) plus building the indexed vertex and index arrays an engine binds
// (PNCV_F32 vertices, uint32 indices, identical corners merged) against load_binaryfile +
// read_mesh_info + unpack_mesh of the baked file. Page cache warm, measured side by side.
#pragma once

#include "baked_tree.h"
#include "results.h"
#include "timing.h"

#include <string>
#include <vector>

namespace bench {

void bench_mesh_loads(const BakedTree& tree, const TimingPolicy& policy, std::vector<LoadComparison>& out,
                      std::vector<std::string>& notes);

}  // namespace bench
