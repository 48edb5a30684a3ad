// assetlib-bench: per-file records summed up into the figures the tables and targets quote.
#pragma once

#include "results.h"

#include <functional>
#include <string>
#include <vector>

namespace bench {

// A group of load comparisons. The median ratio is the median of the per-file ratios; the
// aggregate ratio is total source time / total baked time (loading the whole group once).
struct LoadSummary {
  size_t files = 0;
  uint64_t source_bytes = 0, baked_bytes = 0, unpacked_bytes = 0;
  double source_seconds = 0, baked_seconds = 0;
  double median_ratio = 0, min_ratio = 0, max_ratio = 0;
  double aggregate_ratio() const { return baked_seconds > 0 ? source_seconds / baked_seconds : 0; }
};
LoadSummary summarize_loads(const std::vector<LoadComparison>& all,
                            const std::function<bool(const LoadComparison&)>& keep);

// A group of limits records: throughputs are total unpacked bytes / total time.
struct LimitsSummary {
  size_t files = 0;
  uint64_t file_bytes = 0, unpacked_bytes = 0, raw_stored_bytes = 0;
  double load_unpack = 0, mapped_unpack = 0, lz4_only = 0, memcpy_only = 0, read_only = 0;  // total seconds
  double median_file_ratio = 0;  // median over files of lz4_only / load_unpack
  double load_vs_lz4() const { return load_unpack > 0 ? lz4_only / load_unpack : 0; }
  double mapped_vs_lz4() const { return mapped_unpack > 0 ? lz4_only / mapped_unpack : 0; }
};
LimitsSummary summarize_limits(const std::vector<LimitsRecord>& all,
                               const std::function<bool(const LimitsRecord&)>& keep);

struct SizeSummary {
  size_t files = 0;
  uint64_t source_bytes = 0, baked_bytes = 0, unpacked_bytes = 0;
};
SizeSummary summarize_sizes(const std::vector<SizeRecord>& all, const std::function<bool(const SizeRecord&)>& keep);

struct CodecSummary {
  size_t files = 0;
  uint64_t lz4_bytes = 0, hc_bytes = 0, unpacked_bytes = 0;
  double lz4_seconds = 0, hc_seconds = 0;
};
CodecSummary summarize_codec(const std::vector<CodecLoad>& all, const std::function<bool(const CodecLoad&)>& keep);

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

// The tree the bake targets are judged on: the one with the most assets (the corpus).
const TreeBake* main_bake(const Results& results);

}  // namespace bench
