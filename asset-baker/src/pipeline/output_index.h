// The index of an output folder (its cache, .assetlib-cache.json, and its manifest.json) written
// from source entries gathered from elsewhere: the shards `asset-baker merge` joins, the records of
// `asset-baker bake-one` runs that `asset-baker collect` gathers. A whole-folder bake writes its
// own (bake_tree.cpp).
#pragma once

#include "common/bake_status.h"
#include "pipeline/bake_cache.h"
#include "pipeline/output_tree.h"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace baker {

// True when every output `entry` records is in `output` with its size, and with its hash whenever
// its modification time moved or is too recent to trust by `previous` (stamp_trusted); the
// records then take the times seen now. What an up-to-date check does for a whole bake.
bool outputs_hold(const OutputTree& output, const BakeCache& previous, CacheEntry& entry);

// Whether `output`'s manifest.json may be replaced: absent, an assetlib manifest, or beside the
// baker's cache (a manifest of ours that was damaged). Another program's manifest.json (a web
// app's) in a folder no bake wrote is refused (Config, naming it), before anything is baked.
BakeStatus check_manifest_replaceable(const OutputTree& output);

// Deletes the outputs `previous` lists that no entry of `next` does (while they still hold what the
// baker wrote: OutputTree::remove_if_unchanged), then writes `next` as the cache and its outputs as
// the manifest, the manifest last. `removed` counts the deleted files; `kept` gets the paths of
// those left in place because they changed since (kept_output_warning).
BakeStatus write_index(const OutputTree& output, const BakeCache& previous, const BakeCache& next,
                       size_t& removed, std::vector<std::string>& kept);

// Deletes the outputs `previous` lists that stand where `incoming` (the files about to be written)
// go: a file where one of them needs a folder (a.tx; a.tx/b.tx), or one inside a folder where one
// of them is a file. Removed as write_index would at the end, and first: the incoming files need
// their place. Returns the paths dealt with (removed, or left with a warning in `kept`).
std::set<std::string> clear_way_for_files(const OutputTree& output, const BakeCache& previous,
                                          const std::set<std::string>& incoming, size_t& removed,
                                          std::vector<std::string>& kept);

// The texture names the entries of `cache` hold (outputs of type TEXI).
std::set<std::string> held_textures(const BakeCache& cache);
// The textures `entry`'s materials name that are not in `held`: logical name -> image path.
std::map<std::string, std::string> unheld_textures(const CacheEntry& entry,
                                                   const std::set<std::string>& held);

// A warning for each source of `next` whose materials name a texture no entry of `next` holds: its
// image was deleted after the plan, or failed to bake. `check` fails such a folder, so collect and
// merge, which assemble an index from records and shards, fail too.
std::vector<std::string> unheld_texture_warnings(const BakeCache& next);

// What a bake says of an output no source makes any more that it leaves in place, as it no longer
// holds what the baker wrote: `check` then reports it as not listed, and nothing else would say
// why.
std::string kept_output_warning(const std::string& path);

}  // namespace baker
