// The JSON report: the run's settings, the machine, every per-file figure, every bake run and
// the targets. Times in seconds, sizes in bytes.
#include "report.h"

#include "summary.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace bench {
namespace {

using nlohmann::json;

json to_json(const ChildResult& c) {
  return {{"exit_code", c.exit_code}, {"signal", c.signal},     {"wall_seconds", c.wall_seconds},
          {"cpu_seconds", c.cpu_seconds}, {"peak_rss", c.peak_rss}};
}

json to_json(const LoadComparison& c) {
  return {{"tree", c.tree},
          {"variant", c.variant},
          {"name", c.name},
          {"format", c.format},
          {"source_bytes", c.source_bytes},
          {"baked_bytes", c.baked_bytes},
          {"unpacked_bytes", c.unpacked_bytes},
          {"source_seconds", c.source_seconds},
          {"baked_seconds", c.baked_seconds},
          {"ratio", c.ratio()}};
}

json to_json(const LimitsRecord& r) {
  return {{"tree", r.tree},
          {"name", r.name},
          {"type", r.type},
          {"file_bytes", r.file_bytes},
          {"unpacked_bytes", r.unpacked_bytes},
          {"raw_stored_bytes", r.raw_stored_bytes},
          {"load_unpack_seconds", r.load_unpack},
          {"mapped_unpack_seconds", r.mapped_unpack},
          {"lz4_only_seconds", r.lz4_only},
          {"memcpy_seconds", r.memcpy_only},
          {"read_seconds", r.read_only}};
}

json to_json(const BakeRun& run) {
  json runs = json::array();
  for (const ChildResult& c : run.runs) runs.push_back(to_json(c));
  json files = json::array();
  for (const auto& [name, s] : run.file_seconds) files.push_back({{"source", name}, {"seconds", s}});
  return {{"what", run.what},
          {"config", run.config},
          {"jobs", run.jobs},
          {"force", run.force},
          {"median_wall_seconds", run.median_wall()},
          {"median_cpu_seconds", run.median_cpu()},
          {"max_peak_rss", run.max_peak_rss()},
          {"baked", run.baked},
          {"up_to_date", run.up_to_date},
          {"failed", run.failed},
          {"bytes_in", run.bytes_in},
          {"bytes_out", run.bytes_out},
          {"reported_seconds", run.reported_seconds},
          {"runs", runs},
          {"file_seconds", files}};
}

json load_summary(const std::vector<LoadComparison>& loads) {
  json out = json::object();
  for (const std::string& v : distinct(loads, [](const LoadComparison& c) { return c.variant; })) {
    LoadSummary s = summarize_loads(loads, [&](const LoadComparison& c) { return c.variant == v; });
    out[v] = {{"files", s.files},
              {"median_ratio", s.median_ratio},
              {"aggregate_ratio", s.aggregate_ratio()},
              {"min_ratio", s.min_ratio},
              {"max_ratio", s.max_ratio},
              {"source_seconds", s.source_seconds},
              {"baked_seconds", s.baked_seconds}};
  }
  return out;
}

}  // namespace

bool write_json(const Results& r, const std::filesystem::path& path, std::string& error) {
  json doc;
  const Machine& m = r.machine;
  doc["machine"] = {{"cpu", m.cpu},           {"cores", m.cores},       {"memory", m.memory},
                    {"kernel", m.kernel},     {"compiler", m.compiler}, {"build_type", m.build_type},
                    {"sanitize", m.sanitize}, {"date", m.date},         {"loadavg_start", m.loadavg_start},
                    {"loadavg_end", m.loadavg_end}};
  doc["settings"] = {{"command", r.command},
                     {"quick", r.quick},
                     {"samples", r.samples},
                     {"min_sample_seconds", r.min_sample_seconds},
                     {"bake_repetitions", r.bake_repetitions},
                     {"jobs", r.jobs},
                     {"hc_level", r.hc_level},
                     {"total_seconds", r.total_seconds}};
  json targets = json::array();
  for (const Target& t : r.targets) {
    targets.push_back(
        {{"name", t.name}, {"met", t.met}, {"value", t.value}, {"threshold", t.threshold}, {"figure", t.figure}});
  }
  doc["targets"] = targets;
  doc["texture_load"] = {{"summary", load_summary(r.texture_loads)}, {"files", json::array()}};
  for (const LoadComparison& c : r.texture_loads) doc["texture_load"]["files"].push_back(to_json(c));
  doc["mesh_load"] = {{"summary", load_summary(r.mesh_loads)}, {"files", json::array()}};
  for (const LoadComparison& c : r.mesh_loads) doc["mesh_load"]["files"].push_back(to_json(c));

  LimitsSummary ls = summarize_limits(r.limits, [](const LimitsRecord&) { return true; });
  doc["limits"] = {{"summary",
                    {{"files", ls.files},
                     {"unpacked_bytes", ls.unpacked_bytes},
                     {"load_unpack_seconds", ls.load_unpack},
                     {"mapped_unpack_seconds", ls.mapped_unpack},
                     {"lz4_only_seconds", ls.lz4_only},
                     {"memcpy_seconds", ls.memcpy_only},
                     {"read_seconds", ls.read_only},
                     {"load_vs_lz4", ls.load_vs_lz4()},
                     {"mapped_vs_lz4", ls.mapped_vs_lz4()}}},
                   {"files", json::array()}};
  for (const LimitsRecord& x : r.limits) doc["limits"]["files"].push_back(to_json(x));

  json bakes = json::array();
  for (const TreeBake& b : r.bakes) {
    json runs = json::array();
    for (const BakeRun& run : b.runs) runs.push_back(to_json(run));
    bakes.push_back({{"tree", b.label},
                     {"source_root", b.source_root},
                     {"assets", b.assets},
                     {"largest_decoded", b.largest_decoded},
                     {"largest_decoded_name", b.largest_decoded_name},
                     {"speedup_bound_path_order", b.bound_path_order},
                     {"speedup_bound_largest_first", b.bound_largest_first},
                     {"runs", runs}});
  }
  doc["bake"] = bakes;
  doc["loader_rss"] = {{"measured", r.loader.measured},
                       {"peak", r.loader.peak},
                       {"baseline", r.loader.baseline},
                       {"largest_need", r.loader.largest_need},
                       {"largest_name", r.loader.largest_name}};
  json sizes = json::array();
  for (const SizeRecord& s : r.sizes) {
    sizes.push_back({{"tree", s.tree},
                     {"variant", s.variant},
                     {"name", s.name},
                     {"type", s.type},
                     {"format", s.format},
                     {"source_bytes", s.source_bytes},
                     {"baked_bytes", s.baked_bytes},
                     {"unpacked_bytes", s.unpacked_bytes}});
  }
  doc["size"] = sizes;
  json codec = json::array();
  for (const CodecLoad& c : r.codec_loads) {
    codec.push_back({{"tree", c.tree},
                     {"name", c.name},
                     {"type", c.type},
                     {"lz4_bytes", c.lz4_bytes},
                     {"hc_bytes", c.hc_bytes},
                     {"unpacked_bytes", c.unpacked_bytes},
                     {"lz4_seconds", c.lz4_seconds},
                     {"hc_seconds", c.hc_seconds}});
  }
  doc["lz4_vs_hc_load"] = codec;
  doc["notes"] = r.notes;

  std::ofstream out(path);
  out << doc.dump(1, '\t', false, json::error_handler_t::replace) << "\n";
  out.close();
  if (!out) {
    error = path.string() + ": cannot write";
    return false;
  }
  return true;
}

}  // namespace bench
