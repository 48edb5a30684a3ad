// A source's bake through the shared cache (shared_cache.h): restored from a stored entry when
// one matches its key and everything its bake read, stored after it was encoded.
#pragma once

#include "pipeline/bake_job.h"

#include <string>

namespace baker {

enum class CacheLookup {
  Miss,      // nothing usable stored: bake it
  Restored,  // `result` is the source's, baked from the cache
  Failed,    // the outputs could not be written (result.status says why)
  Stale,     // an entry is stored under the key but was made from other inputs (an edited .mtl)
             // or claims other outputs: bake it, and store the new entry in its place
};

// Looks up `source` (with its settings key and content hash) in context.shared_cache. A stored
// entry is used only when every output it names is one the source owns (Source::outputs, or a
// part under Source::parts) and everything it read holds now (same_inputs); its outputs are then
// staged from the cache, each verified, and published all or none.
CacheLookup restore_from_cache(JobContext& context, const Source& source,
                               const std::string& settings_key, const std::string& source_hash,
                               JobResult& result);

// Stores the outputs `entry` records, just written by encoding `source`. A cache that cannot be
// written costs later bakes their hits, not this one its result: counted
// (CacheEvent::StoreFailed), not failed.
// With `replace` (the lookup was Stale), the new entry takes the stored one's place.
void store_in_cache(JobContext& context, const Source& source, const CacheEntry& entry,
                    bool replace);

}  // namespace baker
