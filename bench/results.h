// assetlib-bench: the figures one run produces, filled by the *_bench.cpp files and read by the
// report (table, JSON, TARGET lines).
#pragma once

#include "process.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

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
  double load_unpack = 0;    // load_binaryfile + read_*_info + unpack_* (the stateless API)
  double mapped_unpack = 0;  // mmap + parse_binaryfile + read_*_info + unpack_* + munmap
  double lz4_only = 0;       // LZ4_decompress_safe of every chunk (memcpy if stored raw), blob in memory
  double memcpy_only = 0;    // memcpy of the unpacked size
  double read_only = 0;      // read() of the whole file into a buffer
};

// The same asset baked with fast LZ4 and with LZ4-HC, each loaded and unpacked.
struct CodecLoad {
  std::string tree, name, type;
  uint64_t lz4_bytes = 0, hc_bytes = 0, unpacked_bytes = 0;
  double lz4_seconds = 0, hc_seconds = 0;
};

// One baked file as the manifests and sources describe it, for the size tables.
struct SizeRecord {
  std::string tree, variant, name, type, format;
  uint64_t source_bytes = 0, baked_bytes = 0, unpacked_bytes = 0;
};

// One configuration of asset-baker run over one tree, repeated.
struct BakeRun {
  std::string what;     // "full -j1", "full -j2", "no-op -j2", "full -j2 LZ4-HC 9", ...
  std::string config;   // "default", "hc", "rgba8"
  unsigned jobs = 0;
  bool force = false;
  std::vector<ChildResult> runs;  // one per repetition
  // From the baker's --json report of the last repetition.
  uint64_t baked = 0, up_to_date = 0, failed = 0;
  uint64_t bytes_in = 0, bytes_out = 0;
  double reported_seconds = 0;
  std::vector<std::pair<std::string, double>> file_seconds;  // per source, in dispatch (path) order

  double median_wall() const;
  uint64_t max_peak_rss() const;
  double median_cpu() const;
  double median_others() const;  // cores other processes used during the run (CPU time / wall time)
};

struct TreeBake {
  std::string label;
  std::string source_root;
  std::string default_dir, rgba8_dir, hc_dir;  // baked outputs; rgba8 empty without BCn
  uint64_t assets = 0;           // manifest entries of the default bake
  uint64_t largest_decoded = 0;  // see docs/benchmarks.md "Baker memory"
  std::string largest_decoded_name;
  std::vector<BakeRun> runs;
  // Speed-up the -jN bake could reach given the -j1 per-file times: path-order dispatch (what
  // the baker does) and largest-first dispatch, both with the -j1 run's serial overhead.
  double bound_path_order = 0;
  double bound_largest_first = 0;

  // The run of `config` ("default", "hc", "rgba8") with `jobs` and --force or not; nullptr if none.
  const BakeRun* find(const std::string& config, unsigned jobs, bool force) const;
};

struct LoaderRss {
  bool measured = false;
  uint64_t peak = 0;           // loading and unpacking every default-baked asset, one at a time
  uint64_t baseline = 0;       // the same process loading nothing
  uint64_t largest_need = 0;   // largest file bytes + unpacked bytes of one asset
  std::string largest_name;
};

struct Machine {
  std::string cpu, kernel, compiler, build_type, sanitize;
  unsigned cores = 0;
  uint64_t memory = 0;
  std::string loadavg_start, loadavg_end;
  std::string date;
};

struct Target {
  std::string name;
  bool met = false;
  std::string figure;  // the measured figure and the threshold, human-readable
  double value = 0, threshold = 0;
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
  std::vector<CodecLoad> codec_loads;
  std::vector<SizeRecord> sizes;
  LoaderRss loader;
  std::vector<Target> targets;
  std::vector<std::string> notes;  // skipped files, errors: printed and kept in the JSON
};

}  // namespace bench
