// assetlib-bench: the targets a run is judged on, as data. A threshold changed here changes the
// verdict, the "need" of its TARGET line and the JSON; targets.cpp only computes the figure each
// target is judged on. docs/benchmarks.md "Targets" says what each one means.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bench {

// How a target's figure must compare with its threshold for the target to be met.
enum class Need { AtLeast, AtMost, Below };

// How the threshold reads in the TARGET line: "50.0x", "85%", "0.85 x N" (N = the -jN jobs),
// "2.00 us" (a threshold in seconds).
enum class Shown { Ratio, Percent, TimesJobs, Microseconds };

struct TargetSpec {
  const char* name;
  Need need;
  double threshold;
  Shown shown;
};

// The targets, in the order of the TARGET lines.
inline constexpr TargetSpec kTargets[] = {
    // Median over the files of (source decode time / baked load time), for every bake variant's
    // textures and for the meshes; the worst median is judged.
    {"load_vs_source", Need::AtLeast, 50, Shown::Ratio},
    // Total LZ4-only time / total load + unpack time over every baked file (throughput on the same
    // bytes).
    {"unpack_vs_lz4", Need::AtLeast, 0.85, Shown::Percent},
    // No-op rebuild time / full bake time (-jN), on the tree with the most assets, nothing rebaked.
    {"noop_rebuild", Need::AtMost, 0.02, Shown::Percent},
    // (-j1 time / -jN time) / N, on a tree of kSpeedupMinAssets or more.
    {"bake_speedup", Need::AtLeast, 0.85, Shown::TimesJobs},
    // Peak RSS / budget of the worst full bake of that tree, budget as below (its line states the
    // budget rather than this threshold).
    {"baker_rss", Need::Below, 1, Shown::Ratio},
    // Measurement 6 on the tree with the most assets, loaded from its pack: sum of the source
    // decode times / whole-tree load time, one thread and two; and the two-thread speed-up.
    {"tree_load_one_thread", Need::AtLeast, 50, Shown::Ratio},
    {"tree_load_two_threads", Need::AtLeast, 100, Shown::Ratio},
    {"two_thread_speedup", Need::AtLeast, 1.8, Shown::Ratio},
    // Whole-tree load from loose files / from the pack, one thread.
    {"pack_vs_loose", Need::AtLeast, 2, Shown::Ratio},
    // Median over the assets under kSmallAssetBytes unpacked of (load from the mapped pack - LZ4
    // alone on the same chunks): what the library adds to the decompression of a small asset.
    {"small_asset_overhead", Need::AtMost, 2e-6, Shown::Microseconds},
    // Lowest, over the size groups of section 3, of (read() + LZ4-only time) / (find_pack_entry +
    // read_pack_asset + read_*_info + unpack_* time): the library, loading from a pack, against
    // the least an engine could do per loose file. The loose-file figure is printed beside it.
    {"unpack_vs_read_lz4", Need::AtLeast, 0.95, Shown::Percent},
    // Median over every asset of one read_texture_info / read_mesh_info (info struct reused).
    {"header_parse", Need::AtMost, 1e-6, Shown::Microseconds},
    // Measurement 8: gltfpack CPU time / asset-baker -j1 CPU time on the same files, the lower of
    // the OBJ set and the glTF-without-images set.
    {"bake_vs_gltfpack", Need::AtLeast, 1.0, Shown::Ratio},
};

// small_asset_overhead: the assets it is judged on.
inline constexpr uint64_t kSmallAssetBytes = 64 << 10;

// bake_speedup is judged only on a tree with at least this many assets.
inline constexpr size_t kSpeedupMinAssets = 20;

// baker_rss budget: kRssPerJob x the largest decoded asset x jobs + kRssSlack (the process itself).
inline constexpr uint64_t kRssPerJob = 4;
inline constexpr uint64_t kRssSlack = 64ull << 20;

// Context beside load_vs_source and unpack_vs_lz4 (not judged): the same figure over the files
// of this unpacked size or more, the assets of real size.
inline constexpr uint64_t kRealSizeBytes = 1ull << 20;

// The LZ4-HC verdict of the size section: HC pays as a release-bake setting when it saves at
// least kHcMinSaving of the baked bytes and loads in at most kHcMaxLoadTime times the LZ4 time,
// 10% being the run-to-run noise of that comparison on a shared machine.
inline constexpr double kHcMinSaving = 0.05;
inline constexpr double kHcMaxLoadTime = 1.10;

// The source decoder verdict: a second decoder for a format (libspng, TurboJPEG) is worth its
// weight (a second set of behaviours on hostile files to test and fuzz, and images it reads
// differently from stb_image) when it cuts the bake time of its files by at least this much.
inline constexpr double kDecoderMinCut = 0.10;

}  // namespace bench
