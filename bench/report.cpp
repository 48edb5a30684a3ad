// The text report: one Markdown table per measurement, then notes and TARGET lines.
#include "report.h"

#include "baked_tree.h"
#include "summary.h"
#include "table.h"

#include <sstream>

namespace bench {
namespace {

constexpr double kMinWallForOthers = 0.5;  // /proc/stat counts 10 ms ticks

std::string tree_list(const Results& r) {
  std::string out;
  for (const TreeBake& b : r.bakes) out += (out.empty() ? "" : ", ") + b.label + " (" + b.source_root + ")";
  return out;
}

std::string header(const Results& r) {
  const Machine& m = r.machine;
  std::ostringstream out;
  out << "# assetlib-bench" << (r.quick ? " (quick mode: figures are not meaningful)" : "") << "\n\n";
  out << "- command: `" << r.command << "`\n";
  out << "- machine: " << m.cpu << ", " << m.cores << " cores, " << mib(m.memory) << " MiB RAM, " << m.kernel << "\n";
  out << "- build: " << m.compiler << ", " << (m.build_type.empty() ? "no build type" : m.build_type)
      << (m.sanitize.empty() ? "" : ", sanitizers " + m.sanitize) << "; " << m.date << "\n";
  out << "- load average (1/5/15 min): " << m.loadavg_start << " at start, " << m.loadavg_end << " at end\n";
  out << "- trees: " << tree_list(r) << "\n";
  out << "- method: files in the page cache (each read once before timing); every comparison measured side by "
         "side, one sample of each side in turn, "
      << r.samples << " sample(s) each, median reported; a sample repeats a call until it lasts "
      << seconds(r.min_sample_seconds) << "; bakes repeated " << r.bake_repetitions << " time(s), median.\n";
  out << "- total run time: " << seconds(r.total_seconds) << "\n";
  return out.str();
}

void add_load_rows(Table& table, const std::vector<LoadComparison>& loads, const std::string& variant) {
  auto row = [&](const std::string& group, const std::function<bool(const LoadComparison&)>& keep) {
    LoadSummary s = summarize_loads(loads, [&](const LoadComparison& c) { return c.variant == variant && keep(c); });
    if (!s.files) return;
    table.add({variant, group, std::to_string(s.files), mib(s.source_bytes), mib(s.unpacked_bytes),
               seconds(s.source_seconds), seconds(s.baked_seconds), ratio(s.median_ratio), ratio(s.aggregate_ratio()),
               ratio(s.min_ratio)});
  };
  for (const std::string& f : distinct(loads, [](const LoadComparison& c) { return c.format; })) {
    row(f, [&](const LoadComparison& c) { return c.format == f; });
  }
  for (const std::string& cls : size_classes()) {
    row("unpacked " + cls, [&](const LoadComparison& c) { return size_class(c.unpacked_bytes) == cls; });
  }
  row("all", [](const LoadComparison&) { return true; });
}

std::string load_section(const std::string& title, const std::string& what, const std::string& source_side,
                         const std::vector<LoadComparison>& loads) {
  std::ostringstream out;
  out << "\n## " << title << "\n\n" << what << "\n\n";
  if (loads.empty()) return out.str() + "(nothing measured)\n";
  Table table({"variant", "group", "files", "source MiB", "unpacked MiB", source_side + " (sum)",
               "baked load (sum)", "median ratio", "aggregate ratio", "min ratio"});
  for (const std::string& v : distinct(loads, [](const LoadComparison& c) { return c.variant; })) {
    add_load_rows(table, loads, v);
  }
  out << table.markdown();
  return out.str();
}

std::string limits_section(const Results& r) {
  std::ostringstream out;
  out << "\n## 3. Overhead against the limits of the machine\n\n"
         "Throughput = unpacked bytes / time, summed over the group. *load+unpack*: `load_binaryfile` + "
         "`read_*_info` + `unpack_*` (the stateless API). *mapped*: `mmap(MAP_POPULATE)` + `parse_binaryfile` + "
         "`read_*_info` + `unpack_*`. *LZ4 only*: `LZ4_decompress_safe` of every chunk from the blob already in "
         "memory (chunks stored raw: `memcpy`). *memcpy*: the unpacked size copied. *read()*: the file copied out "
         "of the page cache. Ratios are LZ4-only time / our time (1 = as fast as bare LZ4).\n\n";
  if (r.limits.empty()) return out.str() + "(nothing measured)\n";
  Table table({"group", "files", "unpacked MiB", "stored raw", "load+unpack GB/s", "mapped GB/s", "LZ4 only GB/s",
               "memcpy GB/s", "read() GB/s", "load+unpack / LZ4", "mapped / LZ4", "median file / LZ4"});
  auto row = [&](const std::string& group, const std::function<bool(const LimitsRecord&)>& keep) {
    LimitsSummary s = summarize_limits(r.limits, keep);
    if (!s.files) return;
    table.add({group, std::to_string(s.files), mib(s.unpacked_bytes),
               percent(double(s.raw_stored_bytes) / double(std::max<uint64_t>(1, s.unpacked_bytes))),
               gbps(s.unpacked_bytes, s.load_unpack), gbps(s.unpacked_bytes, s.mapped_unpack),
               gbps(s.unpacked_bytes, s.lz4_only), gbps(s.unpacked_bytes, s.memcpy_only),
               gbps(s.file_bytes, s.read_only), percent(s.load_vs_lz4()), percent(s.mapped_vs_lz4()),
               percent(s.median_file_ratio)});
  };
  row("textures", [](const LimitsRecord& x) { return x.type == "TEXI"; });
  row("meshes", [](const LimitsRecord& x) { return x.type == "MESH"; });
  for (const std::string& cls : size_classes()) {
    row("unpacked " + cls, [&](const LimitsRecord& x) { return size_class(x.unpacked_bytes) == cls; });
  }
  row("all", [](const LimitsRecord&) { return true; });
  out << table.markdown() << "\n(read() GB/s counts file bytes; the other columns count unpacked bytes.)\n";
  return out.str();
}

std::string bake_section(const Results& r) {
  std::ostringstream out;
  out << "\n## 4. Bake\n\n"
         "`asset-baker <tree> -o <out> -j N -q --json ... --config <bench config>`, run as a child process; wall "
         "time from fork to exit, peak RSS from `wait4` (see docs/benchmarks.md for why through a launcher). "
         "Source MB/s = source bytes baked / wall time. *CPU / wall*: cores the baker kept busy. *others*: cores "
         "other processes used meanwhile (/proc/stat, 10 ms ticks: shown for runs of 0.5 s or more), i.e. how "
         "much of the machine the baker did not have.\n\n";
  Table table({"tree", "run", "wall (median)", "runs", "CPU", "CPU / wall", "others (cores)", "baked", "up to date",
               "failed", "source MB/s", "peak RSS MiB"});
  for (const TreeBake& b : r.bakes) {
    for (const BakeRun& run : b.runs) {
      double wall = run.median_wall();
      table.add({b.label, run.what, seconds(wall), std::to_string(run.runs.size()), seconds(run.median_cpu()),
                 fixed(wall > 0 ? run.median_cpu() / wall : 0, 2),
                 wall >= kMinWallForOthers ? fixed(run.median_others(), 2) : "-",
                 std::to_string(run.baked),
                 std::to_string(run.up_to_date), std::to_string(run.failed),
                 wall > 0 && run.bytes_in ? fixed(double(run.bytes_in) / 1e6 / wall, 1) : "-",
                 mib(run.max_peak_rss())});
    }
  }
  out << table.markdown() << "\n";
  for (const TreeBake& b : r.bakes) {
    const BakeRun* one = b.find("default", 1, true);
    const BakeRun* n = b.find("default", r.jobs, true);
    const BakeRun* noop = b.find("default", r.jobs, false);
    if (!one || !n || !noop) continue;
    out << "- " << b.label << " (" << b.assets << " assets): -j" << r.jobs << " speed-up "
        << ratio(one->median_wall() / n->median_wall()) << "; the -j1 per-file times allow at most "
        << ratio(b.bound_path_order) << " in path order, " << ratio(b.bound_largest_first)
        << " largest first (the baker's dispatch, by source size); no-op rebuild " << percent(noop->median_wall() / n->median_wall())
        << " of the full bake; largest decoded asset " << mib(b.largest_decoded) << " MiB (" << b.largest_decoded_name
        << ").\n";
  }
  if (r.loader.measured) {
    out << "- loader (load + unpack of every default-baked asset, one at a time, fresh buffers): peak RSS "
        << mib(r.loader.peak) << " MiB; the same process loading nothing " << mib(r.loader.baseline)
        << " MiB; largest asset file + unpacked " << mib(r.loader.largest_need) << " MiB (" << r.loader.largest_name
        << ").\n";
  }
  return out.str();
}

std::string size_section(const Results& r) {
  std::ostringstream out;
  out << "\n## 5. Size\n\nSource bytes: the image or .obj file (.mtl not counted). Baked: the .tx/.mesh file. "
         "Unpacked: what the loader writes to staging (all mips; vertex + index buffers).\n\n";
  Table table({"tree", "variant", "type", "files", "source MiB", "baked MiB", "baked / source", "unpacked MiB",
               "baked / unpacked"});
  for (const std::string& tree : distinct(r.sizes, [](const SizeRecord& s) { return s.tree; })) {
    for (const std::string& variant : distinct(r.sizes, [](const SizeRecord& s) { return s.variant; })) {
      if (variant == "hc") continue;
      auto row = [&](const std::string& group, const std::function<bool(const SizeRecord&)>& keep) {
        SizeSummary s = summarize_sizes(r.sizes, [&](const SizeRecord& x) {
          return x.tree == tree && x.variant == variant && keep(x);
        });
        if (!s.files) return;
        table.add({tree, variant, group, std::to_string(s.files), mib(s.source_bytes), mib(s.baked_bytes),
                   percent(double(s.baked_bytes) / double(std::max<uint64_t>(1, s.source_bytes))), mib(s.unpacked_bytes),
                   percent(double(s.baked_bytes) / double(std::max<uint64_t>(1, s.unpacked_bytes)))});
      };
      for (const std::string& f : distinct(r.sizes, [](const SizeRecord& s) { return s.format; })) {
        row(f, [&](const SizeRecord& x) { return x.format == f; });
      }
      row("textures", [](const SizeRecord& x) { return x.type == "TEXI"; });
      row("meshes", [](const SizeRecord& x) { return x.type == "MESH"; });
      row("all", [](const SizeRecord&) { return true; });
    }
  }
  out << table.markdown();

  out << "\n### LZ4 vs LZ4-HC " << r.hc_level
      << " (bake setting `lz4_hc_level`, same decoder)\n\nBoth bakes use the baker's defaults otherwise; load = "
         "load_binaryfile + unpack, side by side, summed.\n\n";
  Table hc({"tree", "type", "files", "LZ4 MiB", "LZ4-HC MiB", "HC saves", "LZ4 load (sum)", "HC load (sum)",
            "HC load time / LZ4", "LZ4 bake", "HC bake"});
  for (const TreeBake& b : r.bakes) {
    const BakeRun* lz4_bake = b.find("default", r.jobs, true);
    const BakeRun* hc_bake = b.find("hc", r.jobs, true);
    auto row = [&](const std::string& group, const std::function<bool(const CodecLoad&)>& keep, bool with_bake) {
      CodecSummary s = summarize_codec(r.codec_loads, [&](const CodecLoad& c) { return c.tree == b.label && keep(c); });
      if (!s.files) return;
      hc.add({b.label, group, std::to_string(s.files), mib(s.lz4_bytes), mib(s.hc_bytes),
              percent(1 - double(s.hc_bytes) / double(std::max<uint64_t>(1, s.lz4_bytes))), seconds(s.lz4_seconds),
              seconds(s.hc_seconds), fixed(s.lz4_seconds > 0 ? s.hc_seconds / s.lz4_seconds : 0, 2),
              with_bake && lz4_bake ? seconds(lz4_bake->median_wall()) : "",
              with_bake && hc_bake ? seconds(hc_bake->median_wall()) : ""});
    };
    row("textures", [](const CodecLoad& c) { return c.type == "TEXI"; }, false);
    row("meshes", [](const CodecLoad& c) { return c.type == "MESH"; }, false);
    row("all", [](const CodecLoad&) { return true; }, true);
  }
  out << hc.markdown();
  CodecSummary all = summarize_codec(r.codec_loads, [](const CodecLoad&) { return true; });
  if (all.files) {
    double saved = 1 - double(all.hc_bytes) / double(std::max<uint64_t>(1, all.lz4_bytes));
    double load = all.lz4_seconds > 0 ? all.hc_seconds / all.lz4_seconds : 0;
    bool pays = saved >= 0.05 && load <= 1.10;
    out << "\nVerdict: LZ4-HC " << r.hc_level << " saves " << percent(saved) << " of the baked bytes and loads in "
        << fixed(load, 2) << "x the time: " << (pays ? "it pays as a release-bake setting" : "it does not pay")
        << " (rule: pays when it saves >= 5% and loads no more than 10% slower, 10% being the run-to-run noise of "
           "this comparison on a shared machine; bake time is an offline cost).\n";
  }
  return out.str();
}

}  // namespace

std::string render_report(const Results& r) {
  std::ostringstream out;
  out << header(r);
  out << load_section("1. Texture load",
                      "stb_image decode of the source (`stbi_load*` from the file, 4 channels) vs `load_binaryfile` + "
                      "`read_texture_info` + `unpack_texture` of the baked file into a staging buffer. Ratio = stb time "
                      "/ baked time, per file; *median ratio* is the median over the files, *aggregate* total / total. "
                      "The baked side unpacks the whole mip chain; the stb side builds no mips and is not charged the "
                      "copy to staging.",
                      "stb decode", r.texture_loads);
  out << load_section("2. Mesh load",
                      "tinyobjloader `LoadObj` + building indexed PNCV_F32 vertex and uint32 index arrays (identical "
                      "corners merged with a hash map; no normal or tangent generation, no material grouping, no "
                      "optimisation) vs `load_binaryfile` + `read_mesh_info` + `unpack_mesh` (+ `unpack_meshlets` when "
                      "baked with meshlets) into staging buffers, in the baker's default vertex format.",
                      "tinyobj + arrays", r.mesh_loads);
  out << limits_section(r);
  out << bake_section(r);
  out << size_section(r);
  if (!r.notes.empty()) {
    out << "\n## Notes\n\n";
    size_t shown = 0;
    for (const std::string& n : r.notes) {
      if (++shown > 20) {
        out << "- ... and " << r.notes.size() - 20 << " more (see the JSON)\n";
        break;
      }
      out << "- " << n << "\n";
    }
  }
  out << "\n## Targets\n\n```\n";
  for (const Target& t : r.targets) out << target_line(t) << "\n";
  out << "```\n";
  return out.str();
}

}  // namespace bench
