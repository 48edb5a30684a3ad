#include "load_comparison.h"

#include "baked_load.h"
#include "progress.h"

namespace bench {

void compare_loads(const BakedTree& tree, const std::string& type, const std::string& decoder,
                   const std::function<SourceDecoder(const BakedAsset&)>& source_side, const TimingPolicy& policy,
                   std::vector<LoadComparison>& out, std::vector<std::string>& notes) {
  const std::string kind = type == "TEXI" ? "texture" : "mesh";
  size_t total = 0, done = 0;
  for (const BakedAsset& a : tree.assets) total += a.type == type;
  Progress progress(kind + " load " + tree.label + " " + tree.variant, total);
  StagingBuffers staging;
  for (const BakedAsset& a : tree.assets) {
    if (a.type != type) continue;
    progress.step(++done);
    const std::string what = tree.label + "/" + a.name;
    if (!warm_page_cache(a.source) || !warm_page_cache(a.baked)) {
      notes.push_back(what + ": cannot read; " + kind + " load skipped");
      continue;
    }
    const std::function<bool()> sides[] = {source_side(a), [&] { return load_asset(a.baked, staging); }};
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok || !t[1].ok) {
      // The source decoder refusing a file the baker took is a note; assetlib failing is an error.
      notes.push_back((t[0].failed ? "" : "error: ") + what + ": " + (t[0].failed ? decoder : "baked load") +
                      " failed; " + kind + " load skipped");
      continue;
    }
    out.push_back({tree.label, tree.variant, a.name, a.format, a.source_bytes, a.file_bytes, a.unpacked_bytes,
                   t[0].median, t[1].median});
  }
}

}  // namespace bench
