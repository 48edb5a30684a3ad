// The JSON report: the run's settings, the machine, every per-file figure, every bake run and
// the targets. Times in seconds, sizes in bytes.
#include "report.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace bench {

using nlohmann::json;

// One to_json per record, found by nlohmann::json through argument-dependent lookup, so that a
// vector of records converts to a JSON array as it is. (Not in an unnamed namespace: that
// lookup would not see them there.)

void to_json(json& j, const ChildResult& c) {
  j = {{"exit_code", c.exit_code},
       {"signal", c.signal},
       {"wall_seconds", c.wall_seconds},
       {"cpu_seconds", c.cpu_seconds},
       {"peak_rss", c.peak_rss}};
}

void to_json(json& j, const LoadComparison& c) {
  j = {{"tree", c.tree},
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

void to_json(json& j, const LimitsRecord& r) {
  j = {{"tree", r.tree},
       {"name", r.name},
       {"type", r.type},
       {"file_bytes", r.file_bytes},
       {"unpacked_bytes", r.unpacked_bytes},
       {"raw_stored_bytes", r.raw_stored_bytes},
       {"load_unpack_seconds", r.load_unpack},
       {"mapped_unpack_seconds", r.mapped_unpack},
       {"lz4_only_seconds", r.lz4_only},
       {"memcpy_seconds", r.memcpy_only},
       {"read_seconds", r.read_only},
       {"pack_unpack_seconds", r.pack_unpack},
       {"info_seconds", r.info_only}};
}

void to_json(json& j, const TreeLoad& t) {
  j = {{"tree", t.tree},
       {"assets", t.assets},
       {"file_bytes", t.file_bytes},
       {"unpacked_bytes", t.unpacked_bytes},
       {"source_seconds", t.source_seconds},
       {"loose_1_thread_seconds", t.loose_1t},
       {"loose_2_threads_seconds", t.loose_2t},
       {"pack_1_thread_seconds", t.pack_1t},
       {"pack_2_threads_seconds", t.pack_2t},
       {"lz4_floor_1_thread_seconds", t.lz4_1t},
       {"lz4_floor_2_threads_seconds", t.lz4_2t},
       {"write_floor_1_thread_seconds", t.write_1t},
       {"write_floor_2_threads_seconds", t.write_2t}};
}

void to_json(json& j, const PartialRead& p) {
  j = {{"tree", p.tree},
       {"name", p.name},
       {"format", p.format},
       {"width", p.width},
       {"height", p.height},
       {"skip", p.skip},
       {"file_bytes", p.file_bytes},
       {"bytes_read", p.bytes_read},
       {"whole_seconds", p.whole_seconds},
       {"partial_seconds", p.partial_seconds}};
}

void to_json(json& j, const BakeRun& run) {
  json files = json::array();
  for (const auto& [name, s] : run.file_seconds)
    files.push_back({{"source", name}, {"seconds", s}});
  j = {{"what", run.what},
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
       {"runs", run.runs},
       {"file_seconds", files}};
}

void to_json(json& j, const DecoderComparison& c) {
  j = {{"tree", c.tree},
       {"name", c.name},
       {"decoder", c.decoder},
       {"pixels", c.pixels},
       {"stb_seconds", c.stb_seconds},
       {"other_seconds", c.other_seconds},
       {"bake_seconds", c.bake_seconds},
       {"same_pixels", c.same_pixels}};
}

void to_json(json& j, const CodecLoad& c) {
  j = {{"tree", c.tree},
       {"name", c.name},
       {"type", c.type},
       {"lz4_bytes", c.lz4_bytes},
       {"hc_bytes", c.hc_bytes},
       {"unpacked_bytes", c.unpacked_bytes},
       {"lz4_seconds", c.lz4_seconds},
       {"hc_seconds", c.hc_seconds}};
}

void to_json(json& j, const SizeRecord& s) {
  j = {{"tree", s.tree},
       {"variant", s.variant},
       {"name", s.name},
       {"type", s.type},
       {"format", s.format},
       {"source_bytes", s.source_bytes},
       {"baked_bytes", s.baked_bytes},
       {"unpacked_bytes", s.unpacked_bytes}};
}

void to_json(json& j, const TreeBake& b) {
  j = {{"tree", b.label},
       {"source_root", b.source_root},
       {"assets", b.assets},
       {"largest_decoded", b.largest_decoded},
       {"largest_decoded_name", b.largest_decoded_name},
       {"speedup_bound_path_order", b.bound_path_order},
       {"speedup_bound_longest_first", b.bound_longest_first},
       {"runs", b.runs}};
}

void to_json(json& j, const LoaderRss& l) {
  j = {{"measured", l.measured},
       {"peak", l.peak},
       {"baseline", l.baseline},
       {"largest_need", l.largest_need},
       {"largest_name", l.largest_name}};
}

void to_json(json& j, const Target& t) {
  j = {{"name", t.name},
       {"met", t.met},
       {"value", t.value},
       {"threshold", t.threshold},
       {"figure", t.figure}};
}

void to_json(json& j, const Machine& m) {
  j = {{"cpu", m.cpu},
       {"cores", m.cores},
       {"memory", m.memory},
       {"kernel", m.kernel},
       {"compiler", m.compiler},
       {"build_type", m.build_type},
       {"sanitize", m.sanitize},
       {"date", m.date},
       {"loadavg_start", m.loadavg_start},
       {"loadavg_end", m.loadavg_end}};
}

void to_json(json& j, const PeerTool& t) {
  j = {{"wall_seconds", t.wall_seconds}, {"cpu_seconds", t.cpu_seconds},
       {"median_wall", t.median_wall()}, {"median_cpu", t.median_cpu()},
       {"converted", t.converted},       {"failed", t.failed},
       {"bytes_out", t.bytes_out},       {"others_cpu_seconds", t.others_cpu_seconds}};
}

void to_json(json& j, const PeerComparison& c) {
  j = {{"set", c.set},
       {"files", c.files},
       {"source_bytes", c.source_bytes},
       {"asset_baker", c.baker},
       {"gltfpack", c.gltfpack},
       {"cpu_ratio", c.cpu_ratio()},
       {"wall_ratio", c.wall_ratio()}};
}

namespace {

// Per bake variant, the figures of the load comparisons the texture and mesh tables quote.
json load_summary(const std::vector<LoadComparison>& loads) {
  json out = json::object();
  for (const std::string& v : variants_of(loads)) {
    auto s = summarize<LoadSummary>(loads, [&](const LoadComparison& c) { return c.variant == v; });
    out[v] = {{"files", s.files},
              {"median_ratio", s.median_ratio()},
              {"aggregate_ratio", s.aggregate_ratio()},
              {"min_ratio", s.min_ratio()},
              {"max_ratio", s.max_ratio()},
              {"source_seconds", s.source_seconds},
              {"baked_seconds", s.baked_seconds}};
  }
  return out;
}

json limits_summary(const std::vector<LimitsRecord>& limits) {
  auto s = summarize<LimitsSummary>(limits, everything);
  return {{"files", s.files},
          {"unpacked_bytes", s.unpacked_bytes},
          {"load_unpack_seconds", s.load_unpack},
          {"mapped_unpack_seconds", s.mapped_unpack},
          {"lz4_only_seconds", s.lz4_only},
          {"memcpy_seconds", s.memcpy_only},
          {"read_seconds", s.read_only},
          {"pack_unpack_seconds", s.pack_unpack},
          {"load_vs_lz4", s.load_vs_lz4()},
          {"mapped_vs_lz4", s.mapped_vs_lz4()},
          {"pack_vs_lz4", s.pack_vs_lz4()},
          {"load_vs_read_lz4", s.load_vs_read_lz4()}};
}

json settings(const Results& r) {
  return {{"command", r.command},
          {"quick", r.quick},
          {"samples", r.samples},
          {"min_sample_seconds", r.min_sample_seconds},
          {"bake_repetitions", r.bake_repetitions},
          {"jobs", r.jobs},
          {"hc_level", r.hc_level},
          {"total_seconds", r.total_seconds}};
}

}  // namespace

bool write_json(const Results& r, const std::filesystem::path& path, std::string& error) {
  json doc;
  doc["machine"] = r.machine;
  doc["settings"] = settings(r);
  doc["targets"] = r.targets;
  doc["texture_load"] = {{"summary", load_summary(r.texture_loads)}, {"files", r.texture_loads}};
  doc["mesh_load"] = {{"summary", load_summary(r.mesh_loads)}, {"files", r.mesh_loads}};
  doc["limits"] = {{"summary", limits_summary(r.limits)}, {"files", r.limits}};
  doc["tree_load"] = r.tree_loads;
  doc["partial_reads"] = r.partial_reads;
  doc["bake"] = r.bakes;
  doc["loader_rss"] = r.loader;
  doc["size"] = r.sizes;
  doc["lz4_vs_hc_load"] = r.codec_loads;
  doc["peer_bake"] = r.peers;
  doc["decoders"] = r.decoders;
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
