// The text report: one Markdown table per measurement, then notes and TARGET lines. Also the
// group sums, tables and number formats the targets and the JSON share (report.h).
#include "report.h"

#include "targets.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>

namespace bench {

// --- Groups of per-file records -----------------------------------------------------------------

void LoadSummary::add(const LoadComparison& c) {
  source_bytes += c.source_bytes;
  baked_bytes += c.baked_bytes;
  unpacked_bytes += c.unpacked_bytes;
  source_seconds += c.source_seconds;
  baked_seconds += c.baked_seconds;
  ratios.push_back(c.ratio());
}

double LoadSummary::min_ratio() const {
  return ratios.empty() ? 0 : *std::min_element(ratios.begin(), ratios.end());
}

double LoadSummary::max_ratio() const {
  return ratios.empty() ? 0 : *std::max_element(ratios.begin(), ratios.end());
}

void LimitsSummary::add(const LimitsRecord& r) {
  file_bytes += r.file_bytes;
  unpacked_bytes += r.unpacked_bytes;
  raw_stored_bytes += r.raw_stored_bytes;
  load_unpack += r.load_unpack;
  mapped_unpack += r.mapped_unpack;
  lz4_only += r.lz4_only;
  memcpy_only += r.memcpy_only;
  read_only += r.read_only;
  pack_unpack += r.pack_unpack;
  if (r.load_unpack > 0) file_ratios.push_back(r.lz4_only / r.load_unpack);
  pack_overhead.push_back(r.pack_unpack - r.lz4_only);
  load_overhead.push_back(r.load_unpack - r.lz4_only);
  info_seconds.push_back(r.info_only);
}

void SizeSummary::add(const SizeRecord& r) {
  source_bytes += r.source_bytes;
  baked_bytes += r.baked_bytes;
  unpacked_bytes += r.unpacked_bytes;
}

void CodecSummary::add(const CodecLoad& c) {
  lz4_bytes += c.lz4_bytes;
  hc_bytes += c.hc_bytes;
  unpacked_bytes += c.unpacked_bytes;
  lz4_seconds += c.lz4_seconds;
  hc_seconds += c.hc_seconds;
}

std::vector<std::string> variants_of(const std::vector<LoadComparison>& loads) {
  return distinct(loads, [](const LoadComparison& c) { return c.variant; });
}

const TreeBake* main_bake(const Results& results) {
  const TreeBake* best = nullptr;
  for (const TreeBake& b : results.bakes) {
    if (!best || b.assets > best->assets) best = &b;
  }
  return best;
}

const TreeLoad* main_tree_load(const Results& results) {
  const TreeLoad* best = nullptr;
  for (const TreeLoad& t : results.tree_loads) {
    if (!best || t.assets > best->assets) best = &t;
  }
  return best;
}

const std::vector<std::string>& size_classes() {
  static const std::vector<std::string> classes = {"< 64 KiB", "64 KiB - 1 MiB", "1 - 16 MiB",
                                                   ">= 16 MiB"};
  return classes;
}

const std::string& size_class(uint64_t unpacked_bytes) {
  const auto& c = size_classes();
  if (unpacked_bytes < (64u << 10)) return c[0];
  if (unpacked_bytes < (1u << 20)) return c[1];
  if (unpacked_bytes < (16u << 20)) return c[2];
  return c[3];
}

// --- Tables and numbers -------------------------------------------------------------------------

std::string Table::markdown() const {
  std::vector<size_t> width(header_.size(), 3);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);
  // Built with append() only: GCC 12 at -O3 warns falsely (-Wrestrict, GCC bug 105651) on
  // "literal" + std::string temporaries.
  auto line = [&](const std::vector<std::string>& row) {
    std::string out = "|";
    for (size_t c = 0; c < width.size(); ++c) {
      std::string cell = c < row.size() ? row[c] : std::string();
      size_t pad = width[c] - std::min(width[c], cell.size());
      out.append(" ");
      if (c != 0) out.append(pad, ' ');
      out.append(cell);
      if (c == 0) out.append(pad, ' ');
      out.append(" |");
    }
    out.append("\n");
    return out;
  };
  std::string out = line(header_);
  out.append("|");
  for (size_t c = 0; c < width.size(); ++c) {
    out.append(c == 0 ? " :" : " ");
    out.append(width[c] - 1, '-');
    out.append(c == 0 ? " |" : ": |");
  }
  out.append("\n");
  for (const auto& row : rows_) out += line(row);
  return out;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string mib(uint64_t bytes) {
  double m = double(bytes) / double(1 << 20);
  return fixed(m, m < 10 ? 2 : 1);
}

std::string seconds(double s) {
  if (s < 1e-6) return fixed(s * 1e9, 0) + " ns";
  if (s < 1e-3) return fixed(s * 1e6, s < 1e-5 ? 2 : 1) + " us";
  if (s < 1) return fixed(s * 1e3, s < 1e-2 ? 2 : 1) + " ms";
  return fixed(s, 2) + " s";
}

std::string ratio(double r) { return fixed(r, r < 10 ? 2 : r < 100 ? 1 : 0) + "x"; }

std::string percent(double fraction) {
  double p = fraction * 100;
  return fixed(p, p < 1 ? 2 : p < 10 ? 1 : 0) + "%";
}

std::string gbps(uint64_t bytes, double s) {
  return s > 0 ? fixed(double(bytes) / s / 1e9, 2) : "-";
}

namespace {

// --- The text report ----------------------------------------------------------------------------

// Size classes of the unpacked bytes, for the table rows, smallest first.
// One row per size class: row(group, keep) with keep accepting the records of that class.
template <typename Row>
void add_size_class_rows(const Row& row) {
  for (const std::string& cls : size_classes()) {
    row("unpacked " + cls, [&](const auto& x) { return size_class(x.unpacked_bytes) == cls; });
  }
}

// One row for the textures and one for the meshes.
template <typename Row>
void add_type_rows(const Row& row) {
  row("textures", [](const auto& x) { return x.type == "TEXI"; });
  row("meshes", [](const auto& x) { return x.type == "MESH"; });
}

// part / whole, 0 for an empty whole.
double fraction_of(uint64_t part, uint64_t whole) {
  return double(part) / double(std::max<uint64_t>(1, whole));
}

// A section's heading and the paragraph that says what its table holds.
std::string heading(const std::string& title, const std::string& what) {
  return "\n## " + title + "\n\n" + what + "\n\n";
}

std::string tree_list(const Results& r) {
  std::string out;
  for (const TreeBake& b : r.bakes)
    out += (out.empty() ? "" : ", ") + b.label + " (" + b.source_root + ")";
  return out;
}

std::string header(const Results& r) {
  const Machine& m = r.machine;
  std::ostringstream out;
  out << "# assetlib-bench" << (r.quick ? " (quick mode: figures are not meaningful)" : "")
      << "\n\n";
  out << "- command: `" << r.command << "`\n";
  out << "- machine: " << m.cpu << ", " << m.cores << " cores, " << mib(m.memory) << " MiB RAM, "
      << m.kernel << "\n";
  out << "- build: " << m.compiler << ", "
      << (m.build_type.empty() ? "no build type" : m.build_type)
      << (m.sanitize.empty() ? "" : ", sanitizers " + m.sanitize) << "; " << m.date << "\n";
  out << "- load average (1/5/15 min): " << m.loadavg_start << " at start, " << m.loadavg_end
      << " at end\n";
  out << "- trees: " << tree_list(r) << "\n";
  out << "- method: files in the page cache (each read once before timing); every comparison "
         "measured side by "
         "side, one sample of each side in turn, "
      << r.samples << " sample(s) each, median reported; a sample repeats a call until it lasts "
      << seconds(r.min_sample_seconds) << "; bakes repeated " << r.bake_repetitions
      << " time(s), median.\n";
  out << "- total run time: " << seconds(r.total_seconds) << "\n";
  return out.str();
}

// --- 1, 2. Loads --------------------------------------------------------------------------------

void add_load_rows(Table& table, const std::vector<LoadComparison>& loads,
                   const std::string& variant) {
  auto row = [&](const std::string& group, const std::function<bool(const LoadComparison&)>& keep) {
    auto s = summarize<LoadSummary>(
        loads, [&](const LoadComparison& c) { return c.variant == variant && keep(c); });
    if (!s.files) return;
    table.add({variant, group, std::to_string(s.files), mib(s.source_bytes), mib(s.unpacked_bytes),
               seconds(s.source_seconds), seconds(s.baked_seconds), ratio(s.median_ratio()),
               ratio(s.aggregate_ratio()), ratio(s.min_ratio())});
  };
  for (const std::string& f : distinct(loads, [](const LoadComparison& c) { return c.format; })) {
    row(f, [&](const LoadComparison& c) { return c.format == f; });
  }
  add_size_class_rows(row);
  row("all", everything);
}

std::string load_section(const std::string& title, const std::string& what,
                         const std::string& source_side, const std::vector<LoadComparison>& loads) {
  std::string out = heading(title, what);
  if (loads.empty()) return out + "(nothing measured)\n";
  Table table({"variant", "group", "files", "source MiB", "unpacked MiB", source_side + " (sum)",
               "baked load (sum)", "median ratio", "aggregate ratio", "min ratio"});
  for (const std::string& v : variants_of(loads)) add_load_rows(table, loads, v);
  return out + table.markdown();
}

// --- 3. Limits ----------------------------------------------------------------------------------

std::string limits_section(const Results& r) {
  std::string out =
      heading("3. Overhead against the limits of the machine",
              "Throughput = unpacked bytes / time, summed over the group. *load+unpack*: "
              "`load_binaryfile` + "
              "`read_*_info` + `unpack_*` (the stateless API). *mapped*: `mmap(MAP_POPULATE)` + "
              "`parse_binaryfile` + "
              "`read_*_info` + `unpack_*`. *LZ4 only*: `LZ4_decompress_safe` of every chunk from "
              "the blob already in "
              "memory (chunks stored raw: `memcpy`). *memcpy*: the unpacked size copied. *read()*: "
              "the file copied out "
              "of the page cache. *pack*: `find_pack_entry` + `read_pack_asset` + `read_*_info` + "
              "`unpack_*` from the corpus packed by `asset-baker pack` and mapped once. Ratios are "
              "LZ4-only time / our time (1 = as fast as bare LZ4); *load+unpack / (read+LZ4)* is "
              "(read() + LZ4-only time) / load+unpack time, the least an engine could do per file "
              "against the library. *pack - LZ4*: per file, what loading from the pack adds to "
              "the bare decompression; *read_*_info*: the metadata read alone, per file.");
  if (r.limits.empty()) return out + "(nothing measured)\n";
  Table table({"group", "files", "unpacked MiB", "stored raw", "load+unpack GB/s", "mapped GB/s",
               "pack GB/s", "LZ4 only GB/s", "memcpy GB/s", "read() GB/s", "load+unpack / LZ4",
               "mapped / LZ4", "pack / LZ4", "median file / LZ4", "load+unpack / (read+LZ4)",
               "pack - LZ4 (median)", "read_*_info (median)"});
  auto row = [&](const std::string& group, const std::function<bool(const LimitsRecord&)>& keep) {
    auto s = summarize<LimitsSummary>(r.limits, keep);
    if (!s.files) return;
    table.add({group, std::to_string(s.files), mib(s.unpacked_bytes),
               percent(fraction_of(s.raw_stored_bytes, s.unpacked_bytes)),
               gbps(s.unpacked_bytes, s.load_unpack), gbps(s.unpacked_bytes, s.mapped_unpack),
               gbps(s.unpacked_bytes, s.pack_unpack), gbps(s.unpacked_bytes, s.lz4_only),
               gbps(s.unpacked_bytes, s.memcpy_only), gbps(s.file_bytes, s.read_only),
               percent(s.load_vs_lz4()), percent(s.mapped_vs_lz4()), percent(s.pack_vs_lz4()),
               percent(s.median_file_ratio()), percent(s.load_vs_read_lz4()),
               seconds(median_of(s.pack_overhead)), seconds(median_of(s.info_seconds))});
  };
  add_type_rows(row);
  add_size_class_rows(row);
  row("all", everything);
  return out + table.markdown() +
         "\n(read() GB/s counts file bytes; the other columns count unpacked bytes.)\n";
}

// --- 6. Whole-tree load ------------------------------------------------------------------------

std::string tree_load_section(const Results& r) {
  std::string out = heading(
      "6. Whole-tree load",
      "Every asset of sections 1 and 2 loaded at once into one arena, as a loading screen does: "
      "every file opened (loose: `load_binaryfile`; pack: `find_pack_entry` + `read_pack_asset` "
      "on the mapped pack) and its metadata read, in parallel over the assets, then every chunk "
      "of every asset through `assetlib::unpack_jobs` on a pool of 1 or 2 threads. *LZ4 floor*: "
      "`LZ4_decompress_safe` of the same chunks alone, one per task. *write floor*: the same "
      "chunks' unpacked bytes written as zeros with streaming stores, nothing read or decoded: "
      "what memory bandwidth allows any loader of these bytes. *vs source*: the sum of "
      "the per-file source decode times of sections 1 and 2 / the whole-tree time.");
  if (r.tree_loads.empty()) return out + "(nothing measured)\n";
  Table table({"tree", "assets", "unpacked MiB", "source (sum)", "way", "1 thread", "2 threads",
               "2 threads speed-up", "vs source, 1 thread", "vs source, 2 threads"});
  for (const TreeLoad& t : r.tree_loads) {
    auto row = [&](const char* way, double one, double two) {
      table.add({t.tree, std::to_string(t.assets), mib(t.unpacked_bytes), seconds(t.source_seconds),
                 way, seconds(one), seconds(two), ratio(two > 0 ? one / two : 0),
                 ratio(one > 0 ? t.source_seconds / one : 0),
                 ratio(two > 0 ? t.source_seconds / two : 0)});
    };
    row("loose files", t.loose_1t, t.loose_2t);
    row("pack", t.pack_1t, t.pack_2t);
    row("LZ4 floor", t.lz4_1t, t.lz4_2t);
    row("write floor", t.write_1t, t.write_2t);
  }
  return out + table.markdown();
}

// --- 7. Partial reads ---------------------------------------------------------------------------

std::string partial_read_section(const Results& r) {
  std::string out = heading(
      "7. Partial reads",
      "Textures with a side of " + std::to_string(kPartialReadMinSide) +
          " or more, levels K.. wanted (a loader dropping the top levels on a small GPU). *whole*: "
          "`load_binaryfile` + `unpack_texture_mips`. *partial*: `load_asset_head` + "
          "`read_texture_info` + `texture_mips_blob_range` + `load_blob_range` + "
          "`texture_unpack_job` + `unpack_jobs`: the header, the metadata and those levels' "
          "chunks only.");
  if (r.partial_reads.empty()) return out + "(no texture that large)\n";
  Table table({"texture", "format", "size", "skip", "file bytes", "bytes read", "read / file",
               "whole", "partial", "whole / partial"});
  for (const PartialRead& p : r.partial_reads) {
    table.add({p.tree + "/" + p.name, p.format,
               std::to_string(p.width) + "x" + std::to_string(p.height), std::to_string(p.skip),
               std::to_string(p.file_bytes), std::to_string(p.bytes_read),
               percent(fraction_of(p.bytes_read, p.file_bytes)), seconds(p.whole_seconds),
               seconds(p.partial_seconds),
               ratio(p.partial_seconds > 0 ? p.whole_seconds / p.partial_seconds : 0)});
  }
  return out + table.markdown();
}

// --- 4. Bake ------------------------------------------------------------------------------------

void add_bake_rows(Table& table, const TreeBake& b) {
  for (const BakeRun& run : b.runs) {
    double wall = run.median_wall();
    table.add({b.label, run.what, seconds(wall), std::to_string(run.runs.size()),
               seconds(run.median_cpu()), fixed(wall > 0 ? run.median_cpu() / wall : 0, 2),
               wall >= kMinWallForOthers ? fixed(run.median_others(), 2) : "-",
               std::to_string(run.baked), std::to_string(run.up_to_date),
               std::to_string(run.failed),
               wall > 0 && run.bytes_in ? fixed(double(run.bytes_in) / 1e6 / wall, 1) : "-",
               mib(run.max_peak_rss())});
  }
}

// "- corpus (663 assets): -j2 speed-up ...", or "" when a run it quotes is missing.
std::string bake_summary_line(const TreeBake& b, unsigned jobs) {
  const BakeRun* one = b.find("default", 1, true);
  const BakeRun* n = b.find("default", jobs, true);
  const BakeRun* noop = b.find("default", jobs, false);
  if (!one || !n || !noop) return "";
  std::ostringstream out;
  out << "- " << b.label << " (" << b.assets << " assets): -j" << jobs << " speed-up "
      << ratio(one->median_wall() / n->median_wall()) << "; the -j1 per-file times allow at most "
      << ratio(b.bound_path_order) << " in path order, " << ratio(b.bound_longest_first)
      << " longest first; no-op rebuild " << percent(noop->median_wall() / n->median_wall())
      << " of the full bake; largest decoded asset " << mib(b.largest_decoded) << " MiB ("
      << b.largest_decoded_name << ").\n";
  return out.str();
}

std::string loader_line(const LoaderRss& loader) {
  if (!loader.measured) return "";
  return "- loader (load + unpack of every default-baked asset, one at a time, fresh buffers): "
         "peak RSS " +
         mib(loader.peak) + " MiB; the same process loading nothing " + mib(loader.baseline) +
         " MiB; largest asset file + unpacked " + mib(loader.largest_need) + " MiB (" +
         loader.largest_name + ").\n";
}

std::string bake_section(const Results& r) {
  std::string out = heading("4. Bake",
                            "`asset-baker <tree> -o <out> -j N -q --json ... --config <bench "
                            "config>`, run as a child process; wall "
                            "time from fork to exit, peak RSS from `wait4` (see docs/benchmarks.md "
                            "for why through a launcher). "
                            "Source MB/s = source bytes baked / wall time. *CPU / wall*: cores the "
                            "baker kept busy. *others*: cores "
                            "other processes used meanwhile (/proc/stat, 10 ms ticks: shown for "
                            "runs of 0.5 s or more), i.e. how "
                            "much of the machine the baker did not have.");
  Table table({"tree", "run", "wall (median)", "runs", "CPU", "CPU / wall", "others (cores)",
               "baked", "up to date", "failed", "source MB/s", "peak RSS MiB"});
  for (const TreeBake& b : r.bakes) add_bake_rows(table, b);
  out += table.markdown() + "\n";
  for (const TreeBake& b : r.bakes) out += bake_summary_line(b, r.jobs);
  return out + loader_line(r.loader);
}

// --- 5. Size ------------------------------------------------------------------------------------

void add_size_rows(Table& table, const std::vector<SizeRecord>& sizes, const std::string& tree,
                   const std::string& variant) {
  auto row = [&](const std::string& group, const std::function<bool(const SizeRecord&)>& keep) {
    auto s = summarize<SizeSummary>(sizes, [&](const SizeRecord& x) {
      return x.tree == tree && x.variant == variant && keep(x);
    });
    if (!s.files) return;
    table.add({tree, variant, group, std::to_string(s.files), mib(s.source_bytes),
               mib(s.baked_bytes), percent(fraction_of(s.baked_bytes, s.source_bytes)),
               mib(s.unpacked_bytes), percent(fraction_of(s.baked_bytes, s.unpacked_bytes))});
  };
  for (const std::string& f : distinct(sizes, [](const SizeRecord& s) { return s.format; })) {
    row(f, [&](const SizeRecord& x) { return x.format == f; });
  }
  add_type_rows(row);
  row("all", everything);
}

void add_codec_rows(Table& table, const std::vector<CodecLoad>& codec_loads, const TreeBake& b,
                    unsigned jobs) {
  const BakeRun* lz4_bake = b.find("default", jobs, true);
  const BakeRun* hc_bake = b.find("hc", jobs, true);
  auto row = [&](const std::string& group, const std::function<bool(const CodecLoad&)>& keep,
                 bool with_bake) {
    auto s = summarize<CodecSummary>(
        codec_loads, [&](const CodecLoad& c) { return c.tree == b.label && keep(c); });
    if (!s.files) return;
    table.add({b.label, group, std::to_string(s.files), mib(s.lz4_bytes), mib(s.hc_bytes),
               percent(1 - fraction_of(s.hc_bytes, s.lz4_bytes)), seconds(s.lz4_seconds),
               seconds(s.hc_seconds),
               fixed(s.lz4_seconds > 0 ? s.hc_seconds / s.lz4_seconds : 0, 2),
               with_bake && lz4_bake ? seconds(lz4_bake->median_wall()) : "",
               with_bake && hc_bake ? seconds(hc_bake->median_wall()) : ""});
  };
  add_type_rows([&](const std::string& group, const auto& keep) { row(group, keep, false); });
  row("all", everything, true);
}

// Whether LZ4-HC pays, by the rule of targets.h, or "" when nothing was compared.
std::string hc_verdict(const Results& r) {
  auto all = summarize<CodecSummary>(r.codec_loads, everything);
  if (!all.files) return "";
  double saved = 1 - fraction_of(all.hc_bytes, all.lz4_bytes);
  double load = all.lz4_seconds > 0 ? all.hc_seconds / all.lz4_seconds : 0;
  bool pays = saved >= kHcMinSaving && load <= kHcMaxLoadTime;
  const std::string slower = fixed((kHcMaxLoadTime - 1) * 100, 0) + "%";
  return "\nVerdict: LZ4-HC " + std::to_string(r.hc_level) + " saves " + percent(saved) +
         " of the baked bytes and loads in " + fixed(load, 2) +
         "x the time: " + (pays ? "it pays as a release-bake setting" : "it does not pay") +
         " (rule: pays when it saves >= " + fixed(kHcMinSaving * 100, 0) +
         "% and loads no more than " + slower + " slower, " + slower +
         " being the run-to-run noise of this comparison on a shared machine; bake time is an "
         "offline cost).\n";
}

std::string size_section(const Results& r) {
  std::string out =
      heading("5. Size",
              "Source bytes: the image or .obj file (.mtl not counted). Baked: the .tx/.mesh file. "
              "Unpacked: what the loader writes to staging (all mips; vertex + index buffers).");
  Table table({"tree", "variant", "type", "files", "source MiB", "baked MiB", "baked / source",
               "unpacked MiB", "baked / unpacked"});
  for (const std::string& tree : distinct(r.sizes, [](const SizeRecord& s) { return s.tree; })) {
    for (const std::string& variant :
         distinct(r.sizes, [](const SizeRecord& s) { return s.variant; })) {
      if (variant != "hc") add_size_rows(table, r.sizes, tree, variant);
    }
  }
  out += table.markdown();

  out += "\n### LZ4 vs LZ4-HC " + std::to_string(r.hc_level) +
         " (bake setting `lz4_hc_level`, same decoder)\n\nBoth bakes use the baker's defaults "
         "otherwise; load = "
         "load_binaryfile + unpack, side by side, summed.\n\n";
  Table hc({"tree", "type", "files", "LZ4 MiB", "LZ4-HC MiB", "HC saves", "LZ4 load (sum)",
            "HC load (sum)", "HC load time / LZ4", "LZ4 bake", "HC bake"});
  for (const TreeBake& b : r.bakes) add_codec_rows(hc, r.codec_loads, b, r.jobs);
  return out + hc.markdown() + hc_verdict(r);
}

// --- Notes and targets --------------------------------------------------------------------------

// The first 20 notes; the JSON has them all.
std::string notes_section(const std::vector<std::string>& notes) {
  if (notes.empty()) return "";
  std::string out = "\n## Notes\n\n";
  size_t shown = 0;
  for (const std::string& n : notes) {
    if (++shown > 20) {
      out += "- ... and " + std::to_string(notes.size() - 20) + " more (see the JSON)\n";
      break;
    }
    out += "- " + n + "\n";
  }
  return out;
}

}  // namespace

std::string render_report(const Results& r) {
  std::string out = header(r);
  out += load_section("1. Texture load",
                      "stb_image decode of the source (`stbi_load*` from the file, 4 channels) vs "
                      "`load_binaryfile` + "
                      "`read_texture_info` + `unpack_texture` of the baked file into a staging "
                      "buffer. Ratio = stb time "
                      "/ baked time, per file; *median ratio* is the median over the files, "
                      "*aggregate* total / total. "
                      "The baked side unpacks the whole mip chain; the stb side builds no mips and "
                      "is not charged the "
                      "copy to staging.",
                      "stb decode", r.texture_loads);
  out += load_section(
      "2. Mesh load",
      "tinyobjloader `LoadObj` + building indexed PNCV_F32 vertex and uint32 index arrays "
      "(identical "
      "corners merged with a hash map; no normal or tangent generation, no material grouping, no "
      "optimisation) vs `load_binaryfile` + `read_mesh_info` + `unpack_mesh` (+ `unpack_meshlets` "
      "when "
      "baked with meshlets) into staging buffers, in the baker's default vertex format.",
      "tinyobj + arrays", r.mesh_loads);
  out += limits_section(r);
  out += bake_section(r);
  out += size_section(r);
  out += tree_load_section(r);
  out += partial_read_section(r);
  out += peer_section(r);
  out += decoder_section(r);
  out += notes_section(r.notes);
  out += "\n## Targets\n\n```\n";
  for (const Target& t : r.targets) out += target_line(t) + "\n";
  return out + "```\n";
}

}  // namespace bench
