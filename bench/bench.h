// assetlib-bench: what a run is asked to do, the figures each measurement produces, and the
// entry point of every stage. main.cpp runs 8 first, then 4, 1, 2, 3, 6, 7, 5, 9:
// clang-format off
//   load_bench.cpp          1. texture load, 2. mesh load (source decoder vs baked), 5. LZ4 vs
//                           LZ4-HC load, the loader's peak RSS
//   limits_bench.cpp        3. the stateless API against the machine's limits on the same bytes
//   bake_bench.cpp          4. every tree baked with asset-baker (child processes), in every
//                           configuration the rest needs
//   tree_load_bench.cpp     6. a whole tree at once, loose and packed, one thread and two
//   partial_read_bench.cpp  7. large textures from mip level K on, reading only those bytes
//   peer_bench.cpp          8. asset-baker -j1 against gltfpack on the same files
//   decoder_bench.cpp       9. stb_image against libspng and TurboJPEG on the texture sources
//   targets.cpp             the targets (thresholds in targets.h) judged on the figures
//   report.cpp              the Markdown report; report_json.cpp the JSON file
// clang-format on
// docs/benchmarks.md explains what is measured and how.
#pragma once

#include "baked_assets.h"
#include "measure.h"

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bench {

// --- What a run is asked to do ------------------------------------------------------------------

// A folder of sources to bake and load ("assets" = the bundled set, "corpus" = ../shared/corpus).
struct SourceTree {
  std::string label;
  std::filesystem::path root;
};

struct BenchOptions {
  std::vector<SourceTree> trees;   // baked and measured in this order
  std::filesystem::path baker;     // the asset-baker executable
  std::filesystem::path self;      // this executable (re-run as launcher and loader child)
  std::filesystem::path json_out;  // empty: no JSON
  std::filesystem::path work_dir;  // bake outputs and child logs
  bool keep_work = false;
  bool quick = false;
  int samples = 7;                    // timed samples per measurement (median reported)
  double min_sample_seconds = 0.002;  // a sample repeats the call until it lasts this long
  int bake_repetitions = 3;           // full and no-op bakes, each repeated (median reported)
  unsigned jobs = 0;                  // N of the -jN bake: all cores
  int hc_level = 9;                   // LZ4-HC level of the size comparison
  double quiet_wait = 10;  // before each bake of a large tree, wait up to this long for idle CPUs
};

// --- What the measurements produce --------------------------------------------------------------

// One asset loaded the way an engine without assetlib would (decode the source) against the
// baked file loaded and unpacked into a destination buffer. Times are medians, seconds per load.
struct LoadComparison {
  std::string tree;     // "assets", "corpus"
  std::string variant;  // "default" (the baker's defaults) or "rgba8" (block_compression off)
  std::string name;     // logical name (source path relative to the tree)
  std::string format;   // texture format or vertex format of the baked file
  uint64_t source_bytes = 0;
  uint64_t baked_bytes = 0;
  uint64_t unpacked_bytes = 0;
  double source_seconds = 0;
  double baked_seconds = 0;
  double ratio() const { return baked_seconds > 0 ? source_seconds / baked_seconds : 0; }
};

// One baked file unpacked by assetlib and by the machine's limits on the same bytes.
// Times are medians, seconds per call; all produce `unpacked_bytes` in a destination buffer.
struct LimitsRecord {
  std::string tree, name, type;
  uint64_t file_bytes = 0;
  uint64_t unpacked_bytes = 0;
  uint64_t raw_stored_bytes = 0;  // unpacked bytes of chunks stored raw (not compressible)
  double load_unpack = 0;         // load_binaryfile + read_*_info + unpack_* (the stateless API)
  double mapped_unpack = 0;       // mmap + parse_binaryfile + read_*_info + unpack_* + munmap
  double lz4_only = 0;  // LZ4_decompress_safe of every chunk (memcpy if stored raw), blob in memory
  double memcpy_only = 0;  // memcpy of the unpacked size
  double read_only = 0;    // read() of the whole file into a buffer
  double pack_unpack =
      0;                 // find_pack_entry + read_pack_asset + read_*_info + unpack_*, pack mapped
  double info_only = 0;  // read_*_info alone on the asset in the mapped pack (a reused info)
};

// A whole tree loaded at once into one arena (measurement 6): the assets that have a source
// measurement, every header first, then every chunk through assetlib::unpack_jobs. Times are
// medians, seconds per whole tree.
struct TreeLoad {
  std::string tree;
  size_t assets = 0;
  uint64_t file_bytes = 0, unpacked_bytes = 0;
  double source_seconds = 0;          // sum of the per-file source decode medians (1. and 2.)
  double loose_1t = 0, loose_2t = 0;  // load_binaryfile per file, 1 and 2 threads
  double pack_1t = 0, pack_2t = 0;    // from the mapped pack, 1 and 2 threads
  double lz4_1t = 0, lz4_2t = 0;      // LZ4_decompress_safe of every chunk alone (the floor)
  double write_1t = 0,
         write_2t = 0;  // every chunk's bytes written, nothing decoded (memory's floor)
};

// A large texture loaded from level `skip` on (measurement 7): the whole file read against a
// partial read of its head and of the blob bytes of those levels. Times are medians, seconds.
struct PartialRead {
  std::string tree, name, format;
  uint32_t width = 0, height = 0, skip = 0;
  uint64_t file_bytes = 0;  // what a whole load reads
  uint64_t bytes_read = 0;  // header + metadata + the levels' chunks
  double whole_seconds = 0, partial_seconds = 0;
};

// Partial reads are measured on textures at least this large on their longer side.
inline constexpr uint32_t kPartialReadMinSide = 2048;

// The same asset baked with fast LZ4 and with LZ4-HC, each loaded and unpacked.
struct CodecLoad {
  std::string tree, name, type;
  uint64_t lz4_bytes = 0, hc_bytes = 0, unpacked_bytes = 0;
  double lz4_seconds = 0, hc_seconds = 0;
};

// One source image decoded by stb_image and by the other library for its format (measurement 9).
struct DecoderComparison {
  std::string tree, name;
  std::string decoder;  // "libspng" (8-bit PNG) or "TurboJPEG"
  uint64_t pixels = 0;
  double stb_seconds = 0, other_seconds = 0;  // medians per decode, from memory, to RGBA8
  double bake_seconds = 0;                    // the source's bake in the default -j1 run
  bool same_pixels = false;
};

// One baked file as the manifests and sources describe it, for the size tables.
struct SizeRecord {
  std::string tree, variant, name, type, format;
  uint64_t source_bytes = 0, baked_bytes = 0, unpacked_bytes = 0;
};

// One configuration of asset-baker run over one tree, repeated.
struct BakeRun {
  std::string what;    // "full -j1", "full -j2", "no-op -j2", "full -j2 LZ4-HC 9", ...
  std::string config;  // "default", "hc", "rgba8"
  unsigned jobs = 0;
  bool force = false;
  std::vector<ChildResult> runs;  // one per repetition
  // From the baker's --json report of the last repetition.
  uint64_t baked = 0, up_to_date = 0, failed = 0;
  uint64_t bytes_in = 0, bytes_out = 0;
  double reported_seconds = 0;
  std::vector<std::pair<std::string, double>> file_seconds;  // per source, in path order

  double median_wall() const;
  uint64_t max_peak_rss() const;
  double median_cpu() const;
  double median_others() const;  // cores other processes used during the run (CPU time / wall time)
};

struct TreeBake {
  std::string label;
  std::string source_root;
  std::string default_dir, rgba8_dir, hc_dir;  // baked outputs; rgba8 empty without BCn
  uint64_t assets = 0;                         // manifest entries of the default bake
  uint64_t largest_decoded = 0;                // see docs/benchmarks.md "Largest decoded asset"
  std::string largest_decoded_name;
  std::vector<BakeRun> runs;
  // Speed-up the -jN bake could reach given the -j1 per-file times: path-order dispatch and
  // longest-first dispatch by those times (the baker estimates them before it bakes,
  // pipeline/bake_order.h), both with the -j1 run's serial overhead.
  double bound_path_order = 0;
  double bound_longest_first = 0;

  // The run of `config` ("default", "hc", "rgba8") with `jobs` and --force or not; nullptr if none.
  const BakeRun* find(const std::string& config, unsigned jobs, bool force) const;
};

struct LoaderRss {
  bool measured = false;
  uint64_t peak = 0;          // loading and unpacking every default-baked asset, one at a time
  uint64_t baseline = 0;      // the same process loading nothing
  uint64_t largest_need = 0;  // largest file bytes + unpacked bytes of one asset
  std::string largest_name;
};

// A target of targets.h judged on this run.
struct Target {
  std::string name;
  bool met = false;
  std::string figure;  // the measured figure and the threshold, human-readable
  double value = 0, threshold = 0;
};

// One tool converting one staged set of files (measurement 8), repeated. For gltfpack, one
// process per file: a repetition's times are the sums over its processes.
struct PeerTool {
  std::vector<double> wall_seconds, cpu_seconds;  // per repetition; CPU = user + system
  double others_cpu_seconds = 0;                  // CPU time other processes took, all runs
  uint64_t converted = 0, failed = 0;             // sources, last repetition
  uint64_t bytes_out = 0;                         // last repetition
  double median_wall() const;
  double median_cpu() const;
};

// asset-baker -j1 against gltfpack on one set ("OBJ", "glTF without images").
struct PeerComparison {
  std::string set;
  size_t files = 0;
  uint64_t source_bytes = 0;
  PeerTool baker, gltfpack;
  // gltfpack time / asset-baker time: above 1, the baker is faster.
  double cpu_ratio() const {
    return baker.median_cpu() > 0 ? gltfpack.median_cpu() / baker.median_cpu() : 0;
  }
  double wall_ratio() const {
    return baker.median_wall() > 0 ? gltfpack.median_wall() / baker.median_wall() : 0;
  }
};

struct Results {
  Machine machine;
  std::string command;
  bool quick = false;
  int samples = 0;
  double min_sample_seconds = 0;
  int bake_repetitions = 0;
  unsigned jobs = 0;
  int hc_level = 0;
  double total_seconds = 0;
  std::vector<TreeBake> bakes;
  std::vector<LoadComparison> texture_loads;
  std::vector<LoadComparison> mesh_loads;
  std::vector<LimitsRecord> limits;
  std::vector<TreeLoad> tree_loads;
  std::vector<PartialRead> partial_reads;
  std::vector<PeerComparison> peers;
  std::vector<CodecLoad> codec_loads;
  std::vector<DecoderComparison> decoders;
  std::vector<SizeRecord> sizes;
  LoaderRss loader;
  std::vector<Target> targets;
  std::vector<std::string> notes;  // skipped files, errors: printed and kept in the JSON
};

// --- The stages ---------------------------------------------------------------------------------

// bake_bench.cpp. Bakes `tree` in every configuration the report needs (full -jN and -j1
// alternating, a no-op rebuild, LZ4-HC, and RGBA8 when the default is block-compressed), into
// `options.work_dir`/<label>/... False with `error` set when the baker cannot run or crashes
// (exit codes 0 and 1 are normal: 1 means some sources are broken, which the corpus has on
// purpose).
bool bake_tree(const BenchOptions& options, const SourceTree& tree, TreeBake& out,
               std::string& error);

// load_bench.cpp, measurement 1. Per texture, stb_image decoding the source file to 4-channel
// pixels (what an engine without assetlib does at run time) against load_binaryfile +
// read_texture_info + unpack_texture of the baked file into a staging buffer.
void bench_texture_loads(const BakedTree& tree, const TimingPolicy& policy,
                         std::vector<LoadComparison>& out, std::vector<std::string>& notes);

// load_bench.cpp, measurement 2. Per model, tinyobjloader's LoadObj on the .obj (its .mtl from
// the same folder) plus building the indexed vertex and index arrays an engine binds (PNCV_F32
// vertices, uint32 indices, identical corners merged) against load_binaryfile + read_mesh_info +
// unpack_mesh of the baked file.
void bench_mesh_loads(const BakedTree& tree, const TimingPolicy& policy,
                      std::vector<LoadComparison>& out, std::vector<std::string>& notes);

// load_bench.cpp, measurement 5's load side. Load + unpack of each asset of `lz4` against the
// asset of the same name in `hc`.
void bench_codec_loads(const BakedTree& lz4, const BakedTree& hc, const TimingPolicy& policy,
                       std::vector<CodecLoad>& out, std::vector<std::string>& notes);

// load_bench.cpp, measurement 4's loader side: peak RSS of a child process that loads and
// unpacks every asset of `baked_dirs` once, one at a time, each into freshly allocated buffers
// (what a loader costs in memory beyond the asset it is loading), against the same child
// loading nothing.
bool measure_loader_rss(const BenchOptions& options, const std::vector<std::string>& baked_dirs,
                        LoaderRss& out, std::string& error);
// That child: `--load-all <baked-dir>...`. Exit 0 when every asset loaded.
int load_all_main(int argc, char** argv);

// limits_bench.cpp, measurement 3. Per baked file, the stateless API (load_binaryfile +
// read_*_info + unpack_*), the same from a mapped file, and the bare minimum work on the same
// bytes: LZ4_decompress_safe of every chunk from the blob already in memory (memcpy for chunks
// stored raw), memcpy of the unpacked size, and read() of the file.
// Also the same from `pack` (the tree packed by `asset-baker pack`, mapped) and read_*_info alone.
void bench_limits(const BakedTree& tree, const MappedPack& pack, const TimingPolicy& policy,
                  std::vector<LimitsRecord>& out, std::vector<std::string>& notes);

// tree_load_bench.cpp, measurement 6. The assets of `tree` named in `names` loaded at once into
// one arena, from loose files and from `pack`, with 1 and 2 threads, against the bare LZ4 decoding
// of their chunks on 1 and 2 threads; side by side. Fills `out` except source_seconds. Returns
// why it failed, or "".
std::string bench_tree_load(const BakedTree& tree, const MappedPack& pack,
                            const std::set<std::string>& names, const TimingPolicy& policy,
                            TreeLoad& out);

// peer_bench.cpp, measurement 8. Stages the OBJ models of `root`/common-3d-test-models (every
// .obj of `root` without that folder) with their .mtl, and the glTF/GLB files of `root` without
// images with their buffers, and converts each set with asset-baker -j1 and with gltfpack (one
// process per file), alternating, options.bake_repetitions times. Adds a note and nothing else
// when gltfpack is not on PATH. False with `error` set when the baker crashes or exits with 2.
bool bench_peers(const BenchOptions& options, const std::filesystem::path& root,
                 std::vector<PeerComparison>& out, std::vector<std::string>& notes,
                 std::string& error);
// The report's section 8 (empty when not measured).
std::string peer_section(const Results& results);

// decoder_bench.cpp, measurement 9. Every 8-bit PNG and JPEG source of `tree` (a default bake)
// decoded by stb_image and by libspng or TurboJPEG, side by side, with its bake time in `bake`'s
// default -j1 run. A file the other library cannot decode gets a note.
void bench_decoders(const BakedTree& tree, const TreeBake& bake, const TimingPolicy& policy,
                    std::vector<DecoderComparison>& out, std::vector<std::string>& notes);
// The report's section 9 with its verdict (empty when not measured).
std::string decoder_section(const Results& results);

// partial_read_bench.cpp, measurement 7. Every texture of `tree` with a side of
// kPartialReadMinSide or more, loaded from level `skip` on: load_binaryfile + unpack_texture_mips
// against load_asset_head + texture_mips_blob_range + load_blob_range + unpack, side by side.
void bench_partial_reads(const BakedTree& tree, uint32_t skip, const TimingPolicy& policy,
                         std::vector<PartialRead>& out, std::vector<std::string>& notes);

// targets.cpp. Judges every target of targets.h on `results` and stores them in results.targets.
void compute_targets(Results& results);
// "TARGET <name>: met|missed <figure>"
std::string target_line(const Target& target);

// report.cpp. The tables, notes and TARGET lines, in Markdown (stdout).
std::string render_report(const Results& results);
// report_json.cpp. Everything, every per-file figure included. Times in seconds, sizes in bytes.
bool write_json(const Results& results, const std::filesystem::path& path, std::string& error);

}  // namespace bench
