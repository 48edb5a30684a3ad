// assetlib-bench: what the report and the targets quote. Per-file records summed up by group,
// Markdown tables (readable in a terminal) and the number formats every table uses.
#pragma once

#include "bench.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// --- Groups of per-file records -----------------------------------------------------------------

// A group of load comparisons. The median ratio is the median of the per-file ratios; the
// aggregate ratio is total source time / total baked time (loading the whole group once).
struct LoadSummary {
  size_t files = 0;
  uint64_t source_bytes = 0, baked_bytes = 0, unpacked_bytes = 0;
  double source_seconds = 0, baked_seconds = 0;
  std::vector<double> ratios;  // per file

  void add(const LoadComparison& c);
  double median_ratio() const { return median_of(ratios); }
  double min_ratio() const;
  double max_ratio() const;
  double aggregate_ratio() const { return baked_seconds > 0 ? source_seconds / baked_seconds : 0; }
};

// A group of limits records: throughputs are total unpacked bytes / total time.
struct LimitsSummary {
  size_t files = 0;
  uint64_t file_bytes = 0, unpacked_bytes = 0, raw_stored_bytes = 0;
  double load_unpack = 0, mapped_unpack = 0, lz4_only = 0, memcpy_only = 0, read_only = 0,
         pack_unpack = 0;             // total seconds
  std::vector<double> file_ratios;    // per file, lz4_only / load_unpack
  std::vector<double> pack_overhead;  // per file, pack_unpack - lz4_only (seconds)
  std::vector<double> load_overhead;  // per file, load_unpack - lz4_only (seconds)
  std::vector<double> info_seconds;   // per file, info_only

  void add(const LimitsRecord& r);
  double median_file_ratio() const { return median_of(file_ratios); }
  double load_vs_lz4() const { return load_unpack > 0 ? lz4_only / load_unpack : 0; }
  double mapped_vs_lz4() const { return mapped_unpack > 0 ? lz4_only / mapped_unpack : 0; }
  double pack_vs_lz4() const { return pack_unpack > 0 ? lz4_only / pack_unpack : 0; }
  // The least an engine could do per file: read() it, then LZ4 alone; against the library,
  // from loose files and from the pack.
  double load_vs_read_lz4() const {
    return load_unpack > 0 ? (read_only + lz4_only) / load_unpack : 0;
  }
  double pack_vs_read_lz4() const {
    return pack_unpack > 0 ? (read_only + lz4_only) / pack_unpack : 0;
  }
};

struct SizeSummary {
  size_t files = 0;
  uint64_t source_bytes = 0, baked_bytes = 0, unpacked_bytes = 0;
  void add(const SizeRecord& r);
};

struct CodecSummary {
  size_t files = 0;
  uint64_t lz4_bytes = 0, hc_bytes = 0, unpacked_bytes = 0;
  double lz4_seconds = 0, hc_seconds = 0;
  void add(const CodecLoad& c);
};

// The records of `all` that `keep` accepts, summed into a Summary.
template <typename Summary, typename Record, typename Keep>
Summary summarize(const std::vector<Record>& all, Keep keep) {
  Summary s;
  for (const Record& r : all) {
    if (!keep(r)) continue;
    ++s.files;
    s.add(r);
  }
  return s;
}

// A `keep` for summarize(): every record counts.
inline constexpr auto everything = [](const auto&) { return true; };

// Distinct values of a field, in first-seen order.
template <typename T, typename F>
std::vector<std::string> distinct(const std::vector<T>& all, F field) {
  std::vector<std::string> out;
  for (const T& x : all) {
    std::string v = field(x);
    bool seen = false;
    for (const std::string& o : out) seen = seen || o == v;
    if (!seen) out.push_back(v);
  }
  return out;
}

// The bake variants ("default", "rgba8") of `loads`, in first-seen order.
std::vector<std::string> variants_of(const std::vector<LoadComparison>& loads);

// The tree the bake targets are judged on: the one with the most assets (the corpus).
const TreeBake* main_bake(const Results& results);
// The whole-tree load the load targets are judged on: the one with the most assets.
const TreeLoad* main_tree_load(const Results& results);

// The size groups of the report ("< 64 KiB", ...), and the one an unpacked size falls in.
const std::vector<std::string>& size_classes();
const std::string& size_class(uint64_t unpacked_bytes);

// --- Tables and numbers -------------------------------------------------------------------------

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Columns padded to their widest cell; the first column left-aligned, the others right-aligned.
  std::string markdown() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

std::string fixed(double value, int decimals);
std::string mib(uint64_t bytes);             // "12.3"
std::string seconds(double s);               // "850 ns", "12.3 us", "4.56 ms", "1.23 s"
std::string ratio(double r);                 // "123x", "4.5x"
std::string percent(double fraction);        // "87%", "0.31%"
std::string gbps(uint64_t bytes, double s);  // GB/s (10^9 bytes per second)

}  // namespace bench
