#include "assets/load_report.h"

#include "error.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

namespace sample {
namespace {

double megabytes_per_second(uint64_t bytes, double ms) {
  return ms > 0 ? static_cast<double>(bytes) / 1e6 / (ms / 1e3) : 0.0;
}

struct Totals {
  double load_ms = 0;
  double unpack_ms = 0;
  std::optional<double> upload_ms;  // absent if any asset lacks a GPU time
};

Totals sum_times(const LoadReport& report) {
  Totals t;
  bool all_uploads_timed = !report.assets.empty();
  double upload = 0;
  for (const AssetTiming& a : report.assets) {
    t.load_ms += a.load_ms;
    t.unpack_ms += a.unpack_ms;
    if (a.upload_ms)
      upload += *a.upload_ms;
    else
      all_uploads_timed = false;
  }
  if (all_uploads_timed) t.upload_ms = upload;
  return t;
}

std::string format_ms(const std::optional<double>& ms) {
  if (!ms) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", *ms);
  return text;
}

int name_column_width(const LoadReport& report) {
  size_t width = 5;  // "asset"
  for (const AssetTiming& a : report.assets) width = std::max(width, a.name.size());
  return static_cast<int>(std::min<size_t>(width, 60));
}

// JSON writing by hand: the sample links nothing but assetlib and Vulkan.
std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string json_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

std::string json_number(const std::optional<double>& value) {
  return value ? json_number(*value) : "null";
}

std::string json_asset(const AssetTiming& a) {
  return "{\"name\": " + json_string(a.name) + ", \"type\": " + json_string(a.type) +
         ", \"disk_bytes\": " + std::to_string(a.disk_bytes) +
         ", \"unpacked_bytes\": " + std::to_string(a.unpacked_bytes) +
         ", \"load_ms\": " + json_number(a.load_ms) +
         ", \"unpack_ms\": " + json_number(a.unpack_ms) +
         ", \"upload_ms\": " + json_number(a.upload_ms) + "}";
}

std::string json_totals(const LoadReport& report) {
  Totals t = sum_times(report);
  uint64_t disk = total_disk_bytes(report);
  uint64_t unpacked = total_unpacked_bytes(report);
  return "{\"assets\": " + std::to_string(report.assets.size()) +
         ", \"disk_bytes\": " + std::to_string(disk) +
         ", \"unpacked_bytes\": " + std::to_string(unpacked) +
         ", \"load_ms\": " + json_number(t.load_ms) +
         ", \"unpack_ms\": " + json_number(t.unpack_ms) +
         ", \"upload_ms\": " + json_number(t.upload_ms) +
         ", \"wall_ms\": " + json_number(report.wall_ms) +
         ", \"disk_mb_per_s\": " + json_number(megabytes_per_second(disk, report.wall_ms)) +
         ", \"unpacked_mb_per_s\": " + json_number(megabytes_per_second(unpacked, report.wall_ms)) +
         ", \"batches\": " + std::to_string(report.batches) +
         ", \"staging_slots\": " + std::to_string(report.staging_slots) +
         ", \"staging_slot_bytes\": " + std::to_string(report.staging_slot_bytes) +
         ", \"fence_wait_ms\": " + json_number(report.fence_wait_ms) + "}";
}

std::string json_frames(const FrameTimings& f) {
  return "{\"frames\": " + std::to_string(f.frames) + ", \"width\": " + std::to_string(f.width) +
         ", \"height\": " + std::to_string(f.height) + ", \"draws\": " + std::to_string(f.draws) +
         ", \"triangles\": " + std::to_string(f.triangles) +
         ", \"lod_triangles_saved\": " + std::to_string(f.lod_triangles_saved) +
         ", \"meshlet_triangles_culled\": " + std::to_string(f.meshlet_triangles_culled) +
         ", \"min_ms\": " + json_number(f.min_ms) + ", \"avg_ms\": " + json_number(f.avg_ms) +
         ", \"max_ms\": " + json_number(f.max_ms) + "}";
}

std::string json_summary(const RunSummary& s) {
  std::string assets;
  for (const AssetTiming& a : s.load.assets) {
    assets += (assets.empty() ? "\n    " : ",\n    ") + json_asset(a);
  }
  std::string validation =
      s.validation_messages ? std::to_string(*s.validation_messages) : std::string("null");
  return "{\n  \"device\": " + json_string(s.device) + ",\n  \"assets\": [" + assets +
         "\n  ],\n  \"totals\": " + json_totals(s.load) +
         ",\n  \"frames\": " + json_frames(s.frames) +
         ",\n  \"screenshot\": " + json_string(s.screenshot) +
         ",\n  \"validation_messages\": " + validation + "\n}\n";
}

}  // namespace

uint64_t total_disk_bytes(const LoadReport& report) {
  uint64_t sum = 0;
  for (const AssetTiming& a : report.assets) sum += a.disk_bytes;
  return sum;
}

uint64_t total_unpacked_bytes(const LoadReport& report) {
  uint64_t sum = 0;
  for (const AssetTiming& a : report.assets) sum += a.unpacked_bytes;
  return sum;
}

void print_load_table(const LoadReport& report, std::FILE* out) {
  int w = name_column_width(report);
  const char* row = "%-*s  %-4s  %12s  %14s  %9s  %9s  %9s\n";
  std::fprintf(out, row, w, "asset", "type", "disk bytes", "unpacked bytes", "load ms", "unpack ms",
               "upload ms");
  for (const AssetTiming& a : report.assets) {
    std::fprintf(out, row, w, a.name.c_str(), a.type.c_str(), std::to_string(a.disk_bytes).c_str(),
                 std::to_string(a.unpacked_bytes).c_str(), format_ms(a.load_ms).c_str(),
                 format_ms(a.unpack_ms).c_str(), format_ms(a.upload_ms).c_str());
  }
  Totals t = sum_times(report);
  uint64_t disk = total_disk_bytes(report);
  uint64_t unpacked = total_unpacked_bytes(report);
  std::string label = "total (" + std::to_string(report.assets.size()) + " assets)";
  std::fprintf(out, row, w, label.c_str(), "", std::to_string(disk).c_str(),
               std::to_string(unpacked).c_str(), format_ms(t.load_ms).c_str(),
               format_ms(t.unpack_ms).c_str(), format_ms(t.upload_ms).c_str());
  std::fprintf(out,
               "files to GPU-ready: %.3f ms wall, %.1f MB/s from disk, %.1f MB/s unpacked "
               "(%llu upload submit%s through %u x %.1f MiB staging slots, %.3f ms waiting on "
               "fences)\n",
               report.wall_ms, megabytes_per_second(disk, report.wall_ms),
               megabytes_per_second(unpacked, report.wall_ms),
               static_cast<unsigned long long>(report.batches), report.batches == 1 ? "" : "s",
               report.staging_slots,
               static_cast<double>(report.staging_slot_bytes) / (1024.0 * 1024.0),
               report.fence_wait_ms);
}

void FrameTimings::add_frame(double ms) {
  min_ms = frames == 0 ? ms : std::min(min_ms, ms);
  max_ms = std::max(max_ms, ms);
  avg_ms = (avg_ms * frames + ms) / (frames + 1);
  ++frames;
}

void print_frame_timings(const FrameTimings& f, std::FILE* out) {
  std::fprintf(out,
               "rendered %u frame(s) at %ux%u: %llu draws, %llu triangles per frame (%llu fewer "
               "through LODs, %llu culled by meshlet); frame ms min %.3f avg %.3f max %.3f\n",
               f.frames, f.width, f.height, static_cast<unsigned long long>(f.draws),
               static_cast<unsigned long long>(f.triangles),
               static_cast<unsigned long long>(f.lod_triangles_saved),
               static_cast<unsigned long long>(f.meshlet_triangles_culled), f.min_ms, f.avg_ms,
               f.max_ms);
}

void write_json_report(const std::string& path, const RunSummary& summary) {
  std::string text = json_summary(summary);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                       &std::fclose);
  if (!file) throw SampleError(path, std::string("cannot write: ") + std::strerror(errno));
  if (std::fwrite(text.data(), 1, text.size(), file.get()) != text.size() ||
      std::fflush(file.get()) != 0) {
    throw SampleError(path, std::string("write failed: ") + std::strerror(errno));
  }
}

}  // namespace sample
