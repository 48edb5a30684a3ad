// assetlib-bench, measurement 3: overhead against the machine's limits. Per baked file, the
// stateless API (load_binaryfile + read_*_info + unpack_*), the same from a mapped file, and the
// bare minimum work on the same bytes: LZ4_decompress_safe of every chunk from the blob already
// in memory (memcpy for chunks stored raw), memcpy of the unpacked size, and read() of the file.
// Also measurement 5's load side: the same asset baked with LZ4 and with LZ4-HC, both loaded.
#pragma once

#include "baked_tree.h"
#include "results.h"
#include "timing.h"

#include <string>
#include <vector>

namespace bench {

void bench_limits(const BakedTree& tree, const TimingPolicy& policy, std::vector<LimitsRecord>& out,
                  std::vector<std::string>& notes);

// Load + unpack of each asset of `lz4` against the asset of the same name in `hc`.
void bench_codec_loads(const BakedTree& lz4, const BakedTree& hc, const TimingPolicy& policy,
                       std::vector<CodecLoad>& out, std::vector<std::string>& notes);

}  // namespace bench
