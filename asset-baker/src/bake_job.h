// Baking one source: decide whether it is up to date, else import, pack, write atomically.
#pragma once

#include "bake_cache.h"
#include "bake_config.h"

#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace baker {

enum class Outcome { Baked, UpToDate, Failed };
const char* to_string(Outcome outcome);

struct JobResult {
  Outcome outcome = Outcome::Failed;
  std::string error;                  // when failed: "<source>: <reason>"
  std::vector<std::string> warnings;
  CacheEntry entry;                   // when baked or up to date
  uint64_t bytes_in = 0;              // source bytes read (0 when up to date)
  double seconds = 0;
};

// State shared by all jobs of one bake. Read-only but for the stamp table, which has its own lock.
class JobContext {
 public:
  JobContext(std::filesystem::path input_root, std::filesystem::path output_root, const BakeConfig& bake_config,
             const BakeCache& previous_cache)
      : input(std::move(input_root)), output(std::move(output_root)), config(bake_config), previous(previous_cache) {}

  std::filesystem::path input, output;
  const BakeConfig& config;
  const BakeCache& previous;
  bool force = false;
  bool verify = false;
  unsigned threads_per_job = 1;    // inner parallelism (block compression) each job may use
  std::set<std::string> textures;  // root-relative paths of every texture source in this bake

  // Content hash of a root-relative file, reusing the previous run's when size and mtime match.
  std::optional<std::string> file_hash(const std::string& relative);
  // Records the hash of bytes just read, so the next run need not hash them again.
  void remember(const std::string& relative, const std::string& hash);
  std::map<std::string, FileStamp> take_stamps();

 private:
  std::mutex mutex_;
  std::map<std::string, FileStamp> stamps_;
};

JobResult run_job(JobContext& context, const std::string& relative, AssetKind kind, const std::string& output);

}  // namespace baker
