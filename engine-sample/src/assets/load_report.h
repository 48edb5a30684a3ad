// The load table: per asset, bytes and times from file to GPU-ready; printed and as JSON.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace sample {

struct AssetTiming {
  std::string name;         // logical name in the manifest
  std::string type;         // "TEXI", "MESH", "MATL", "PRFB", "SKEL" or "CLIP"
  uint64_t disk_bytes = 0;  // bytes read: the file, or with --skip-mips its head and kept levels
  uint64_t unpacked_bytes = 0;
  double load_ms = 0;               // read the file, parse header and metadata
  double unpack_ms = 0;             // decompress into the mapped staging buffer
  std::optional<double> upload_ms;  // GPU time of its copies; absent without timestamps
};

struct LoadReport {
  std::vector<AssetTiming> assets;
  double wall_ms = 0;    // manifest read to last upload fence: files to GPU-ready
  uint64_t batches = 0;  // upload submits
  uint64_t staging_slot_bytes = 0;
  uint32_t staging_slots = 0;
  double fence_wait_ms = 0;  // of wall_ms, CPU time blocked on the GPU
};

struct FrameTimings {
  uint32_t frames = 0;
  uint32_t width = 0;
  uint32_t height = 0;
  uint64_t draws = 0;                     // per frame
  uint64_t triangles = 0;                 // per frame, as drawn
  uint64_t lod_triangles_saved = 0;       // per frame: left out by choosing coarser LODs
  uint64_t meshlet_triangles_culled = 0;  // per frame: left out by meshlet culling
  double min_ms = 0;
  double avg_ms = 0;
  double max_ms = 0;

  // Counts one more frame that took `ms`, into frames, min, avg and max.
  void add_frame(double ms);
};

struct RunSummary {
  std::string device;
  LoadReport load;
  FrameTimings frames;
  std::string screenshot;                       // path written, empty if none
  std::optional<uint32_t> validation_messages;  // set with --validate
};

uint64_t total_disk_bytes(const LoadReport& report);
uint64_t total_unpacked_bytes(const LoadReport& report);

void print_load_table(const LoadReport& report, std::FILE* out);
void print_frame_timings(const FrameTimings& frames, std::FILE* out);

// Writes `summary` as JSON to `path`; throws SampleError naming the file on failure.
void write_json_report(const std::string& path, const RunSummary& summary);

}  // namespace sample
