#include "pipeline/cached_bake.h"

#include "pipeline/shared_cache.h"

#include <algorithm>
#include <set>

namespace baker {
namespace {

bool known_type(const std::string& type) {
  return type == "TEXI" || type == "MESH" || type == "MATL" || type == "PRFB" || type == "SKEL" ||
         type == "CLIP";
}

// True when every output `entry` names is one `source` writes (its planned outputs, or a file in
// its parts folder) under a name of its own, and every planned output is there: an entry planted
// in a shared cache cannot write over another source's outputs.
bool owned_by(const Source& source, const CacheEntry& entry) {
  std::set<std::string> paths;
  for (const OutputRecord& o : entry.outputs) {
    bool planned =
        std::find(source.outputs.begin(), source.outputs.end(), o.path) != source.outputs.end();
    bool part = !source.parts.empty() && o.path.size() > source.parts.size() &&
                o.path.compare(0, source.parts.size(), source.parts) == 0;
    bool named = o.name == source.relative || o.name.rfind(source.relative + "#", 0) == 0;
    if ((!planned && !part) || !named || !known_type(o.type) || !paths.insert(o.path).second)
      return false;
  }
  return std::all_of(source.outputs.begin(), source.outputs.end(),
                     [&](const std::string& path) { return paths.count(path) > 0; });
}

}  // namespace

CacheLookup restore_from_cache(JobContext& context, const Source& source,
                               const std::string& settings_key, const std::string& source_hash,
                               JobResult& result) {
  const SharedCache& cache = *context.shared_cache;
  std::string key = SharedCache::key(source.relative, source.kind, settings_key, source_hash);
  std::optional<CacheEntry> entry = cache.find(key, source.relative);
  std::vector<StagedFile> staged;
  if (!entry || !owned_by(source, *entry) ||
      !same_inputs(context, *entry, source.kind, settings_key, source_hash) ||
      !cache.restore(key, *entry, context.output, staged)) {
    cache.count(CacheEvent::Miss);
    return CacheLookup::Miss;
  }
  result.entry = std::move(*entry);
  if (BakeStatus s = context.publish(staged, result.entry.outputs); !s) {
    result.status = std::move(s);
    return CacheLookup::Failed;
  }
  cache.count(CacheEvent::Hit);
  result.outcome = Outcome::Baked;
  result.from_cache = true;
  result.warnings = result.entry.warnings;
  return CacheLookup::Restored;
}

void store_in_cache(JobContext& context, const Source& source, const CacheEntry& entry) {
  const SharedCache& cache = *context.shared_cache;
  std::string key =
      SharedCache::key(source.relative, source.kind, entry.settings, entry.source_hash);
  if (BakeStatus s = cache.store(key, source.relative, entry, context.output); !s)
    cache.store_failed(s);
}

}  // namespace baker
