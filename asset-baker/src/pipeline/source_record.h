// What one `asset-baker bake-one` run leaves for `asset-baker collect`: a record per source in the
// output folder, `.assetlib-records/<source>.json`. Many bake-one runs write one folder at once, so
// none of them may write the shared cache file or the manifest; each writes its own record, and
// collect (one run, after them) folds the records into both.
//
//   { "record_version": 1, "source": "<root-relative>", "run_started_ns": <int>,
//     "failed": <bool>, "keep_previous": <bool>, "entry": <cache entry> | null,
//     "stamps": { "<root-relative>": [<size>, <mtime_ns>, "<hash>"], ... } }
#pragma once

#include "common/bake_status.h"
#include "pipeline/bake_cache.h"
#include "pipeline/output_tree.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace baker {

inline constexpr const char* kRecordFolder = ".assetlib-records";
inline constexpr uint32_t kRecordVersion = 1;

struct SourceRecord {
  std::string source;
  int64_t run_started_ns = 0;  // when the run began: every time it recorded is later
  bool failed = false;
  // When failed: the failure is not the source's (bake_tree.cpp, keeps_previous), so its previous
  // outputs stay listed while they still hold what was written.
  bool keep_previous = false;
  std::optional<CacheEntry> entry;  // when not failed
  std::map<std::string, FileStamp> stamps;
};

// The path of the record of `source`, relative to the output folder.
std::string record_path(const std::string& source);

BakeStatus write_record(const OutputTree& output, const SourceRecord& record);

// True when the output folder may hold records (anything named like their folder is there). A
// whole bake then writes its cache even when nothing else changed: its newer indexed_ns is what
// tells collect that the records were folded in or replaced.
bool may_hold_records(const OutputTree& output);

// The record of `source` when there is one the baker could have written (its entry passes
// trustworthy_entry); nullopt otherwise.
std::optional<SourceRecord> read_record(const OutputTree& output, const std::string& source);

}  // namespace baker
