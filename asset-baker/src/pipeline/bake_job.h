// Baking one source: decide whether it is up to date, else import, pack, and write all its
// assets atomically (all or none).
#pragma once

#include "bake/baked_asset.h"
#include "pipeline/bake_cache.h"
#include "pipeline/bake_config.h"
#include "pipeline/memory_budget.h"
#include "pipeline/output_journal.h"
#include "pipeline/output_tree.h"
#include "pipeline/texture_plan.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

namespace baker {

// One source of a bake and the outputs it owns.
struct Source {
  std::string relative;  // root-relative, '/'
  AssetKind kind;
  // Output-relative paths it writes, known before it bakes: its main output, or for an image one
  // texture per role (texture_plan.h). OBJ and glTF files also write parts under `parts`.
  std::vector<std::string> outputs;
  std::string parts;   // parts_folder(relative) for OBJ and glTF, else empty
  uint64_t bytes = 0;  // its size when the folder was walked (for ordering and progress)
};

struct CacheEntry;

// True when every output `entry` names is one `source` writes (its planned outputs, or a file in
// its parts folder) under a name of its own, and every planned output is there: an entry planted
// in a cache or a record cannot claim another source's outputs.
bool owns_outputs(const Source& source, const CacheEntry& entry);

// What a dependency on a material's texture slot says (written by the bake of a model): the image,
// its role, and the texture name the bake gave it (nullopt: the image was absent, or failed).
struct TextureDependency {
  TextureRole role;
  std::optional<std::string> name;
  // The content hash of an image whose bake failed for a reason of its own (the slot was left
  // untextured): the slot holds while the image still has that content.
  std::optional<std::string> failed_image_hash;
};
// nullopt for a dependency on a file's content.
std::optional<TextureDependency> texture_dependency_of(const Dependency& dep);

// NotRun: the bake was interrupted before this source started, or stopped while it ran.
enum class Outcome { NotRun, Baked, UpToDate, Failed };
const char* to_string(Outcome outcome);

struct JobResult {
  Outcome outcome = Outcome::NotRun;
  BakeStatus status;  // when failed: what and why
  std::vector<std::string> warnings;
  CacheEntry entry;       // when baked or up to date
  uint64_t bytes_in = 0;  // source bytes read (0 when up to date)
  // When failed: the source, its settings and everything it read are what the previous bake
  // succeeded with. The failure is then not the source's (the machine ran out of memory, the
  // disk filled up), whatever the error says, and the previous outputs stay.
  bool inputs_unchanged = false;
  bool from_cache = false;  // baked by restoring the shared cache's entry (shared_cache.h)
  double seconds = 0;
};

class SharedCache;

// State shared by all jobs of one bake. Read-only but for the stamp table, which has its own lock.
class JobContext {
 public:
  JobContext(std::filesystem::path input_root, const OutputTree& output_tree,
             const BakeConfig& bake_config, const BakeCache& previous_cache,
             MemoryBudget& memory_budget)
      : input(std::move(input_root)),
        output(output_tree),
        config(bake_config),
        previous(previous_cache),
        budget(memory_budget) {}

  std::filesystem::path input;
  const OutputTree& output;  // every write goes through it
  const BakeConfig& config;
  const BakeCache& previous;
  MemoryBudget& budget;  // shared by all jobs: what they may hold in memory together
  bool force = false;
  bool verify = false;
  int64_t started_ns = 0;            // wall-clock start of the run, before any file was looked at
  std::optional<Shard> shard;        // a --shard bake: the shard it bakes
  OutputJournal* journal = nullptr;  // where outputs are noted before they are put in place
  unsigned threads_per_job = 1;      // inner parallelism (block compression) each job may use
  TexturePlan textures;              // every image of this bake and the roles models use it in
  std::map<std::string, PlannedModel> planned;  // what the plan read of each model (PlanMemory)
  // Images whose bake failed this run, each with its content hash when the failure was its own
  // ("" otherwise): models baked again after the texture jobs leave their slots untextured
  // (rebake_models_naming_failed_images, bake_tree.cpp). Set only while no job runs.
  std::map<std::string, std::string> failed_images;
  const SharedCache* shared_cache = nullptr;  // where outputs are restored from and stored; none

  // Writes every asset of `baked` through `output`, all or none: each is staged beside its target
  // first, then all are renamed into place. Unless stop_commits() was called: then it writes
  // nothing and fails (IoError). `records` gets what was written.
  BakeStatus commit(const BakedAssets& baked, std::vector<OutputRecord>& records);
  // The second half of commit(), for files staged elsewhere (the shared cache): renames every one
  // into place and sets the modification times of `records` (one per staged file, in order).
  BakeStatus publish(std::vector<StagedFile>& staged, std::vector<OutputRecord>& records);
  // Once this returns, no job changes the output folder any more (commits in progress are waited
  // for, up to a few seconds). The bake that abandons a job calls it before it writes the manifest.
  void stop_commits();

  // Content hash of a root-relative file, reusing the previous run's when size and mtime match.
  std::optional<std::string> file_hash(const std::string& relative);
  // Records the hash of bytes just read, so the next run need not hash them again.
  void remember(const std::string& relative, const std::string& hash);
  std::map<std::string, FileStamp> take_stamps();

 private:
  std::mutex mutex_;
  std::map<std::string, FileStamp> stamps_;
  std::shared_timed_mutex commit_mutex_;
  std::atomic<bool> commits_stopped_{false};  // atomic: set without the lock when a commit hangs
};

// When the job on one worker began baking (once its memory was granted: waiting for memory is not
// baking), for the per-file time limit. Written by the worker, read by the thread that watches.
class JobClock {
 public:
  void start();
  void stop() { started_ns_.store(0); }
  // Seconds since start(); 0 while no job is baking.
  double seconds() const;
  // Leaves `gap` out of the running job's time when the job started before `resumed` (when the
  // gap ended): the process did not run then (stopped by Ctrl-Z, SIGSTOP or `docker pause`), and a
  // source is not blamed for it. Called by the thread that watches.
  void leave_out(std::chrono::steady_clock::time_point resumed,
                 std::chrono::steady_clock::duration gap);

 private:
  std::atomic<int64_t> started_ns_{0};
};

// True when the source (its kind, settings key and hash) and everything the bake of `old` read
// (files by content, texture names) are what they are now.
bool same_inputs(JobContext& context, const CacheEntry& old, AssetKind kind,
                 const std::string& settings_key, const std::string& source_hash);

// Bakes `source` unless it is up to date; `clock` runs while it bakes.
JobResult run_job(JobContext& context, const Source& source, JobClock& clock);

// True when `dep` is a texture slot given the texture of an image that failed to bake this run
// (JobContext::failed_images).
bool names_failed_image(const JobContext& context, const Dependency& dep);

}  // namespace baker
