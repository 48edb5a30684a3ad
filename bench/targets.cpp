// The five targets of the issue, each judged on the figures measured in this run.
#include "report.h"
#include "summary.h"
#include "table.h"

#include <algorithm>

namespace bench {
namespace {

constexpr double kLoadRatio = 50;        // baked loads at least 50x faster than decoding sources
constexpr double kLz4Fraction = 0.85;    // load + unpack at least 85% of LZ4-only throughput
constexpr double kNoopFraction = 0.02;   // no-op rebuild at most 2% of the full bake
constexpr double kSpeedupFraction = 0.85;  // -jN at least 0.85 x N speed-up
constexpr size_t kSpeedupMinAssets = 20;
constexpr uint64_t kRssSlack = 64ull << 20;  // RSS budget: 4 x largest x jobs + 64 MiB
constexpr uint64_t kLargeAsset = 1ull << 20;  // "real size" breakdown shown beside two targets

Target load_vs_source(const Results& r) {
  Target t{"load_vs_source", false, "", 0, kLoadRatio};
  std::string figure;
  double worst = -1;
  for (const std::string& variant : distinct(r.texture_loads, [](const LoadComparison& c) { return c.variant; })) {
    LoadSummary s = summarize_loads(r.texture_loads, [&](const LoadComparison& c) { return c.variant == variant; });
    figure += (figure.empty() ? "textures " : ", ") + ratio(s.median_ratio) + " (" + variant + ", " +
              std::to_string(s.files) + " files)";
    worst = worst < 0 ? s.median_ratio : std::min(worst, s.median_ratio);
  }
  if (figure.empty()) figure = "textures not measured";
  LoadSummary m = summarize_loads(r.mesh_loads, [](const LoadComparison&) { return true; });
  if (m.files) {
    figure += "; meshes " + ratio(m.median_ratio) + " (" + std::to_string(m.files) + " files)";
    worst = worst < 0 ? m.median_ratio : std::min(worst, m.median_ratio);
  } else {
    figure += "; meshes not measured";
  }
  t.value = std::max(worst, 0.0);
  t.met = !r.texture_loads.empty() && m.files && t.value >= kLoadRatio;
  // Context, not the target: the same medians over the assets of real size only.
  std::string large;
  auto big = [](const LoadComparison& c) { return c.unpacked_bytes >= kLargeAsset; };
  for (const std::string& variant : distinct(r.texture_loads, [](const LoadComparison& c) { return c.variant; })) {
    LoadSummary s = summarize_loads(r.texture_loads, [&](const LoadComparison& c) { return c.variant == variant && big(c); });
    if (s.files) large += (large.empty() ? "textures " : ", ") + ratio(s.median_ratio) + " (" + variant + ", " +
                          std::to_string(s.files) + ")";
  }
  LoadSummary mb = summarize_loads(r.mesh_loads, big);
  if (mb.files) large += (large.empty() ? "" : ", ") + std::string("meshes ") + ratio(mb.median_ratio) + " (" +
                         std::to_string(mb.files) + ")";
  t.figure = figure + "; median of per-file ratios, need >= " + ratio(kLoadRatio) +
             (large.empty() ? "" : " [files >= 1 MiB unpacked only: " + large + "]");
  return t;
}

Target unpack_vs_lz4(const Results& r) {
  Target t{"unpack_vs_lz4", false, "", 0, kLz4Fraction};
  LimitsSummary s = summarize_limits(r.limits, [](const LimitsRecord&) { return true; });
  t.value = s.load_vs_lz4();
  t.met = s.files && t.value >= kLz4Fraction;
  LimitsSummary big = summarize_limits(r.limits, [](const LimitsRecord& x) { return x.unpacked_bytes >= kLargeAsset; });
  t.figure = "load_binaryfile + unpack " + percent(t.value) + " of LZ4-only throughput (" +
             gbps(s.unpacked_bytes, s.load_unpack) + " vs " + gbps(s.unpacked_bytes, s.lz4_only) + " GB/s, " +
             std::to_string(s.files) + " files, " + mib(s.unpacked_bytes) + " MiB unpacked); mapped file " +
             percent(s.mapped_vs_lz4()) + "; need >= " + percent(kLz4Fraction);
  if (big.files) {
    t.figure += " [files >= 1 MiB unpacked only: " + percent(big.load_vs_lz4()) + ", mapped " +
                percent(big.mapped_vs_lz4()) + ", " + std::to_string(big.files) + " files]";
  }
  return t;
}

Target noop_rebuild(const Results& r) {
  Target t{"noop_rebuild", false, "", 0, kNoopFraction};
  const TreeBake* b = main_bake(r);
  const BakeRun* full = b ? b->find("default", r.jobs, true) : nullptr;
  const BakeRun* noop = b ? b->find("default", r.jobs, false) : nullptr;
  if (!full || !noop || full->median_wall() <= 0) {
    t.figure = "not measured";
    return t;
  }
  t.value = noop->median_wall() / full->median_wall();
  t.met = t.value <= kNoopFraction && noop->baked == 0;
  t.figure = percent(t.value) + " of the full bake (" + seconds(noop->median_wall()) + " no-op vs " +
             seconds(full->median_wall()) + " full, -j" + std::to_string(r.jobs) + ", " + b->label + ", " +
             std::to_string(b->assets) + " assets, " + std::to_string(noop->baked) + " rebaked); need <= " +
             percent(kNoopFraction);
  return t;
}

Target bake_speedup(const Results& r) {
  Target t{"bake_speedup", false, "", 0, kSpeedupFraction};
  const TreeBake* b = main_bake(r);
  const BakeRun* one = b ? b->find("default", 1, true) : nullptr;
  const BakeRun* n = b ? b->find("default", r.jobs, true) : nullptr;
  if (!one || !n || r.jobs < 2 || n->median_wall() <= 0) {
    t.figure = "not measured (needs -jN with N >= 2)";
    return t;
  }
  double speedup = one->median_wall() / n->median_wall();
  t.value = speedup / double(r.jobs);
  t.met = t.value >= kSpeedupFraction && b->assets >= kSpeedupMinAssets;
  t.figure = ratio(speedup) + " with -j" + std::to_string(r.jobs) + " on " + std::to_string(r.machine.cores) +
             " cores = " + fixed(t.value, 3) + " x N (" + seconds(one->median_wall()) + " -j1, " +
             seconds(n->median_wall()) + " -j" + std::to_string(r.jobs) + ", " + b->label + ", " +
             std::to_string(b->assets) + " assets; bound from -j1 per-file times: " + ratio(b->bound_path_order) +
             " path order, " + ratio(b->bound_largest_first) + " largest first";
  if (n->median_wall() >= 0.5) {
    t.figure += "; other processes used " + fixed(one->median_others(), 2) + " / " + fixed(n->median_others(), 2) +
                " cores during -j1 / -j" + std::to_string(r.jobs);
  }
  t.figure += "); need >= " + fixed(kSpeedupFraction, 2) + " x N";
  if (b->assets < kSpeedupMinAssets) {
    t.figure += "; only " + std::to_string(b->assets) + " assets, the target needs 20+";
  }
  return t;
}

Target baker_rss(const Results& r) {
  Target t{"baker_rss", false, "", 0, 1};
  const TreeBake* b = main_bake(r);
  if (!b || b->largest_decoded == 0) {
    t.figure = "not measured";
    return t;
  }
  std::string runs;
  bool all_met = true;
  double worst = 0;
  for (const BakeRun& run : b->runs) {
    if (!run.force) continue;
    uint64_t budget = 4 * b->largest_decoded * run.jobs + kRssSlack;
    uint64_t peak = run.max_peak_rss();
    all_met = all_met && peak < budget;
    worst = std::max(worst, double(peak) / double(budget));
    runs += (runs.empty() ? "" : ", ") + run.what + " " + mib(peak) + " of " + mib(budget) + " MiB";
  }
  t.value = worst;
  t.met = all_met && !runs.empty();
  t.figure = "peak RSS " + runs + " (budget 4 x " + mib(b->largest_decoded) + " MiB x jobs + 64 MiB; largest decoded: " +
             b->largest_decoded_name + ", " + b->label + ")";
  return t;
}

}  // namespace

void compute_targets(Results& results) {
  results.targets = {load_vs_source(results), unpack_vs_lz4(results), noop_rebuild(results),
                     bake_speedup(results), baker_rss(results)};
}

std::string target_line(const Target& target) {
  return "TARGET " + target.name + ": " + (target.met ? "met " : "missed ") + target.figure;
}

}  // namespace bench
