#include "pipeline/cached_bake.h"

#include "pipeline/shared_cache.h"

#include <algorithm>
#include <set>

namespace baker {

CacheLookup restore_from_cache(JobContext& context, const Source& source,
                               const std::string& settings_key, const std::string& source_hash,
                               JobResult& result) {
  const SharedCache& cache = *context.shared_cache;
  std::string key = SharedCache::key(source.relative, source.kind, settings_key, source_hash);
  std::optional<CacheEntry> entry = cache.find(key, source.relative);
  std::vector<StagedFile> staged;
  if (entry && (!owns_outputs(source, *entry) ||
                !same_inputs(context, *entry, source.kind, settings_key, source_hash))) {
    cache.count(CacheEvent::Miss);
    return CacheLookup::Stale;
  }
  if (!entry || !cache.restore(key, *entry, context.output, staged)) {
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

void store_in_cache(JobContext& context, const Source& source, const CacheEntry& entry,
                    bool replace) {
  const SharedCache& cache = *context.shared_cache;
  std::string key =
      SharedCache::key(source.relative, source.kind, entry.settings, entry.source_hash);
  if (BakeStatus s = cache.store(key, source.relative, entry, context.output, replace); !s)
    cache.store_failed(s);
}

}  // namespace baker
