#include "summary.h"

#include "timing.h"

#include <algorithm>

namespace bench {

LoadSummary summarize_loads(const std::vector<LoadComparison>& all,
                            const std::function<bool(const LoadComparison&)>& keep) {
  LoadSummary s;
  std::vector<double> ratios;
  for (const LoadComparison& c : all) {
    if (!keep(c)) continue;
    ++s.files;
    s.source_bytes += c.source_bytes;
    s.baked_bytes += c.baked_bytes;
    s.unpacked_bytes += c.unpacked_bytes;
    s.source_seconds += c.source_seconds;
    s.baked_seconds += c.baked_seconds;
    ratios.push_back(c.ratio());
  }
  if (!ratios.empty()) {
    s.median_ratio = median_of(ratios);
    s.min_ratio = *std::min_element(ratios.begin(), ratios.end());
    s.max_ratio = *std::max_element(ratios.begin(), ratios.end());
  }
  return s;
}

LimitsSummary summarize_limits(const std::vector<LimitsRecord>& all,
                               const std::function<bool(const LimitsRecord&)>& keep) {
  LimitsSummary s;
  std::vector<double> ratios;
  for (const LimitsRecord& r : all) {
    if (!keep(r)) continue;
    ++s.files;
    s.file_bytes += r.file_bytes;
    s.unpacked_bytes += r.unpacked_bytes;
    s.raw_stored_bytes += r.raw_stored_bytes;
    s.load_unpack += r.load_unpack;
    s.mapped_unpack += r.mapped_unpack;
    s.lz4_only += r.lz4_only;
    s.memcpy_only += r.memcpy_only;
    s.read_only += r.read_only;
    if (r.load_unpack > 0) ratios.push_back(r.lz4_only / r.load_unpack);
  }
  s.median_file_ratio = median_of(ratios);
  return s;
}

SizeSummary summarize_sizes(const std::vector<SizeRecord>& all, const std::function<bool(const SizeRecord&)>& keep) {
  SizeSummary s;
  for (const SizeRecord& r : all) {
    if (!keep(r)) continue;
    ++s.files;
    s.source_bytes += r.source_bytes;
    s.baked_bytes += r.baked_bytes;
    s.unpacked_bytes += r.unpacked_bytes;
  }
  return s;
}

CodecSummary summarize_codec(const std::vector<CodecLoad>& all, const std::function<bool(const CodecLoad&)>& keep) {
  CodecSummary s;
  for (const CodecLoad& c : all) {
    if (!keep(c)) continue;
    ++s.files;
    s.lz4_bytes += c.lz4_bytes;
    s.hc_bytes += c.hc_bytes;
    s.unpacked_bytes += c.unpacked_bytes;
    s.lz4_seconds += c.lz4_seconds;
    s.hc_seconds += c.hc_seconds;
  }
  return s;
}

const TreeBake* main_bake(const Results& results) {
  const TreeBake* best = nullptr;
  for (const TreeBake& b : results.bakes) {
    if (!best || b.assets > best->assets) best = &b;
  }
  return best;
}

}  // namespace bench
