#include "pipeline/bake_job.h"

#include "bake/bake_gltf.h"
#include "bake/bake_image.h"
#include "bake/bake_obj.h"
#include "common/asset_kinds.h"
#include "common/asset_names.h"
#include "common/content_hash.h"
#include "common/source_paths.h"
#include "import/image_import.h"
#include "pipeline/cached_bake.h"
#include "pipeline/source_files.h"
#include "pipeline/unpack_check.h"

#include <assetlib/clip_asset.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/texture_asset.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <new>

namespace baker {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTextureDependency = "texture:";
constexpr std::string_view kAbsentTexture = "absent";
// Then the image's content hash. No texture name starts with '/' (names are root-relative paths).
constexpr std::string_view kFailedTexture = "/failed ";

// A texture dependency's state: "texture:<role>:<what the slot got>".
std::string texture_state(TextureRole role, std::string_view got) {
  return std::string(kTextureDependency) + texture_role_name(role) + ":" + std::string(got);
}

// The dependency on the texture a material names for `image` in `role`: which name the bake gave
// it (or "absent"). Rebaked when that changes: the image appears or goes, or its role changes.
std::string texture_dependency(const TexturePlan& plan, const std::string& image,
                               TextureRole role) {
  std::optional<std::string> name = plan.texture_name(image, role);
  return texture_state(role, name.value_or(std::string(kAbsentTexture)));
}

// The dependency on a slot left untextured because its image failed to bake this run: with the
// image's content hash when the failure was the image's own, so that the model is not baked twice
// again while the image stays broken; "absent" otherwise (the next bake tries again).
std::string failed_texture_dependency(TextureRole role, const std::string& image_hash) {
  return texture_state(role, image_hash.empty() ? std::string(kAbsentTexture)
                                                : std::string(kFailedTexture) + image_hash);
}

// True when the dependency still holds: a file with the same content (or still missing), the
// same texture name, or a failed image still with the content it failed with.
bool dependency_holds(JobContext& context, const Dependency& dep) {
  if (std::optional<TextureDependency> texture = texture_dependency_of(dep)) {
    // The image failed this run: a model naming its texture is baked again, never restored
    // (rebake_models_naming_failed_images).
    if (names_failed_image(context, dep)) return false;
    if (texture->failed_image_hash) {
      return context.textures.texture_name(dep.path, texture->role) &&
             context.file_hash(dep.path) == *texture->failed_image_hash;
    }
    return texture_dependency(context.textures, dep.path, texture->role) == dep.state;
  }
  if (dep.state.rfind(kTextureDependency, 0) == 0) return false;  // damaged: bake again
  // A file the bake looked for and did not find holds while it is still missing.
  return context.file_hash(dep.path).value_or(kAbsentFile) == dep.state;
}

// True when the inputs are unchanged (same_inputs) and each output still holds what was written:
// its size, and its hash whenever its modification time moved or is too recent to tell
// (stamp_trusted): a damaged or replaced file is rebaked. `outputs` gets the old records with the
// modification times seen now.
// An entry of the output folder's own cache (or a bake-one record) is judged as one of the shared
// cache: a planted one claiming another source's outputs is never taken for up to date.
bool up_to_date(JobContext& context, const CacheEntry& old, const Source& source,
                const std::string& settings_key, const std::string& source_hash,
                std::vector<OutputRecord>& outputs) {
  if (!owns_outputs(source, old)) return false;
  if (!same_inputs(context, old, source.kind, settings_key, source_hash)) return false;
  outputs = old.outputs;
  for (OutputRecord& record : outputs) {
    std::optional<FileStat> now = context.output.file_stat(record.path);
    if (!now || now->size != record.size) return false;
    bool same_stamp =
        now->mtime_ns == record.mtime_ns && stamp_trusted(context.previous, record.mtime_ns);
    if (!same_stamp && context.output.file_hash(record.path) != record.hash) return false;
    record.mtime_ns = now->mtime_ns;
  }
  return true;
}

// What a model's import may read: files (each recorded with its hash) and texture names (each
// recorded with the name given). A file that is there but cannot be read sets `read_failure`: the
// import goes on as without it, and the bake then fails with that I/O error, keeping the previous
// outputs (an .mtl the system refused is no reason to bake the model untextured).
ImportInputs model_inputs(JobContext& context, CacheEntry& entry, BakeStatus& read_failure) {
  ImportInputs inputs;
  inputs.read_file = [&context, &entry,
                      &read_failure](const std::string& path) -> std::optional<std::string> {
    std::vector<std::byte> data;
    if (BakeStatus s = read_source(context.input, path, data); !s) {
      if (s.code == BakeError::IoError && read_failure) read_failure = s;
      entry.deps.push_back({path, kAbsentFile});
      return std::nullopt;
    }
    std::string hash = hash_string(hash_bytes(data.data(), data.size()));
    context.remember(path, hash);
    entry.deps.push_back({path, hash});
    return std::string(reinterpret_cast<const char*>(data.data()), data.size());
  };
  inputs.texture_name = [&context, &entry](const std::string& path, TextureRole role,
                                           std::string& why) -> std::optional<std::string> {
    auto failed = context.failed_images.find(path);
    if (failed != context.failed_images.end() && context.textures.texture_name(path, role)) {
      entry.deps.push_back({path, failed_texture_dependency(role, failed->second)});
      why = "failed to bake";
      return std::nullopt;
    }
    entry.deps.push_back({path, texture_dependency(context.textures, path, role)});
    std::optional<std::string> name = context.textures.texture_name(path, role);
    if (std::optional<std::string> glob = exclusion_above(context.config, path); !name && glob)
      why = "is excluded by baker.json ('" + *glob + "')";
    return name;
  };
  return inputs;
}

BakeStatus bake_source(JobContext& context, const Source& source, const BakeSettings& settings,
                       std::span<const std::byte> bytes, CacheEntry& entry, BakedAssets& baked,
                       std::vector<std::string>& warnings) {
  const std::string& relative = source.relative;
  if (source.kind == AssetKind::Texture) {
    return bake_image(bytes, relative, context.textures.targets(relative), settings,
                      context.threads_per_job, baked, warnings);
  }
  BakeStatus read_failure;
  ImportInputs inputs = model_inputs(context, entry, read_failure);
  BakeStatus status;
  if (source.kind == AssetKind::Scene) {
    status = bake_gltf(bytes, relative, inputs, settings, context.threads_per_job, baked, warnings);
  } else {
    std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    status = bake_obj(text, relative, inputs, settings, baked, warnings);
  }
  if (!read_failure) {
    return BakeStatus::failure(BakeError::IoError, relative, "its input " + read_failure.message());
  }
  return status;
}

// What baking `source` may hold in memory at its peak, so the jobs' sum stays within the budget.
// Textures, per pixel: the decoded image, the mip chain in working precision (float for HDR), the
// block-compressed chain and the packed blob (measured: a 16384² RGBA8 PNG peaks at 9 bytes per
// pixel). Meshes: tinyobjloader's arrays and the triangle soup, about 24 times the OBJ text. glTF:
// its buffers decoded into the soup, and the images it embeds decoded (a JPEG expands some 10 to
// 50 times): 64 times the file.
uint64_t estimated_bake_memory(AssetKind kind, std::span<const std::byte> source) {
  if (kind == AssetKind::Mesh) return 24 * uint64_t(source.size());
  if (kind == AssetKind::Scene) return 64 * uint64_t(source.size());
  std::optional<ImageHeader> header = probe_image(source);
  if (!header) return source.size();
  uint64_t pixels = uint64_t(header->width) * header->height;
  uint64_t working = header->bytes_per_channel == 4 ? 16 : 4 * uint64_t(header->bytes_per_channel);
  uint64_t per_pixel_x3 =
      3 * 4 * uint64_t(header->bytes_per_channel) + 4 * working + 2 * 4;  // x3: mips add 1/3
  return source.size() + pixels * per_pixel_x3 / 3;
}

// The settings key of a source: its settings and, for an image, the roles it bakes in with how
// each is sampled.
std::string source_settings_key(const JobContext& context, const Source& source,
                                const BakeSettings& settings) {
  if (source.kind != AssetKind::Texture) return settings.key;
  std::string key = settings.key + " roles:";
  for (const TextureTarget& target : context.textures.targets(source.relative)) {
    key += std::string(" ") + texture_role_name(target.role) + ":" + sampling_name(target.sampling);
  }
  return key;
}

JobResult bake_one(JobContext& context, const Source& source, JobClock& clock) {
  const std::string& relative = source.relative;
  JobResult result;
  auto old = context.previous.entries.end();
  std::optional<std::string> source_hash;
  std::string key;
  auto fail = [&](BakeStatus s) {
    result.outcome = Outcome::Failed;
    result.status = std::move(s);
    result.inputs_unchanged = source_hash && old != context.previous.entries.end() &&
                              same_inputs(context, old->second, source.kind, key, *source_hash);
    return result;
  };
  BakeSettings settings;
  if (BakeStatus s = settings_for(context.config, relative, source.kind, settings); !s)
    return fail(s);
  key = source_settings_key(context, source, settings);

  source_hash = context.file_hash(relative);
  if (!source_hash) {
    // Gone since the scan, or no longer a regular file: the source's doing. Still there: the
    // system's (bake_source's read says the same).
    return fail(stat_file(context.input / relative)
                    ? BakeStatus::failure(BakeError::IoError, relative, kUnreadableReason)
                    : BakeStatus::failure(BakeError::UnreadableSource, relative,
                                          "vanished or is no longer a regular file"));
  }
  old = context.previous.entries.find(relative);
  if (!context.force && old != context.previous.entries.end() &&
      up_to_date(context, old->second, source, key, *source_hash, result.entry.outputs)) {
    result.outcome = Outcome::UpToDate;
    CacheEntry entry = old->second;
    entry.outputs = std::move(result.entry.outputs);
    result.entry = std::move(entry);
    result.warnings = result.entry.warnings;
    return result;
  }

  bool stale_in_cache = false;
  if (context.shared_cache && !context.force) {
    CacheLookup found = restore_from_cache(context, source, key, *source_hash, result);
    if (found == CacheLookup::Restored) return result;
    if (found == CacheLookup::Failed) return fail(result.status);
    stale_in_cache = found == CacheLookup::Stale;
  }

  std::vector<std::byte> bytes;
  if (BakeStatus s = read_source(context.input, relative, bytes); !s) return fail(s);
  result.bytes_in = bytes.size();
  MemoryBudget::Grant memory = context.budget.acquire(estimated_bake_memory(source.kind, bytes));
  clock.start();
  CacheEntry& entry = result.entry;
  entry.kind = kind_name(source.kind);
  entry.settings = key;
  entry.source_hash = hash_string(hash_bytes(bytes.data(), bytes.size()));
  BakedAssets baked;
  if (BakeStatus s = bake_source(context, source, settings, bytes, entry, baked, result.warnings);
      !s)
    return fail(s);
  bytes = {};
  entry.warnings = result.warnings;
  if (BakeStatus s = context.commit(baked, entry.outputs); !s) return fail(s);
  if (context.verify) {
    for (const OutputRecord& record : entry.outputs) {
      UnpackedAsset written;
      if (BakeStatus s =
              unpack_whole_asset((context.output.root() / record.path).string(), written);
          !s)
        return fail(BakeStatus::failure(s.code, relative, "--verify: " + s.reason));
    }
  }
  if (context.shared_cache) store_in_cache(context, source, entry, stale_in_cache);
  result.outcome = Outcome::Baked;
  return result;
}

// Unpacked bytes of a baked asset (the manifest's raw_size): 0 for metadata-only assets.
uint64_t unpacked_size(const assetlib::AssetFile& file) {
  if (assetlib::has_type(file, "TEXI")) {
    assetlib::TextureInfo info;
    return assetlib::read_texture_info(file, info) ? info.total_size : 0;
  }
  if (assetlib::has_type(file, "MESH")) {
    assetlib::MeshInfo info;
    return assetlib::read_mesh_info(file, info) ? assetlib::mesh_unpacked_size(info) : 0;
  }
  if (assetlib::has_type(file, "CLIP")) {
    assetlib::ClipInfo info;
    return assetlib::read_clip_info(file, info) ? assetlib::clip_unpacked_size(info) : 0;
  }
  return 0;
}

}  // namespace

bool names_failed_image(const JobContext& context, const Dependency& dep) {
  std::optional<TextureDependency> texture = texture_dependency_of(dep);
  return texture && texture->name && context.failed_images.count(dep.path) > 0;
}

std::optional<TextureDependency> texture_dependency_of(const Dependency& dep) {
  std::string_view state = dep.state;
  if (state.rfind(kTextureDependency, 0) != 0) return std::nullopt;
  state.remove_prefix(kTextureDependency.size());
  size_t colon = state.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::optional<TextureRole> role = texture_role_from_name(state.substr(0, colon));
  if (!role) return std::nullopt;
  std::string_view name = state.substr(colon + 1);
  if (name == kAbsentTexture) return TextureDependency{*role, std::nullopt, std::nullopt};
  if (name.rfind(kFailedTexture, 0) == 0) {
    name.remove_prefix(kFailedTexture.size());
    return TextureDependency{*role, std::nullopt, std::string(name)};
  }
  return TextureDependency{*role, std::string(name), std::nullopt};
}

// True when every output `entry` names is one `source` writes (its planned outputs, or a file in
// its parts folder) under a name of its own, and every planned output is there: an entry planted
// in a shared cache cannot write over another source's outputs.
bool owns_outputs(const Source& source, const CacheEntry& entry) {
  std::set<std::string> paths;
  for (const OutputRecord& o : entry.outputs) {
    bool planned =
        std::find(source.outputs.begin(), source.outputs.end(), o.path) != source.outputs.end();
    bool part = !source.parts.empty() && o.path.size() > source.parts.size() &&
                o.path.compare(0, source.parts.size(), source.parts) == 0;
    bool named = o.name == source.relative || o.name.rfind(source.relative + "#", 0) == 0;
    if ((!planned && !part) || !named || o.type.size() != 4 || !is_baked_type(o.type.data()) ||
        !paths.insert(o.path).second)
      return false;
  }
  return std::all_of(source.outputs.begin(), source.outputs.end(),
                     [&](const std::string& path) { return paths.count(path) > 0; });
}

bool same_inputs(JobContext& context, const CacheEntry& old, AssetKind kind,
                 const std::string& settings_key, const std::string& source_hash) {
  if (old.kind != kind_name(kind) || old.settings != settings_key ||
      old.source_hash != source_hash) {
    return false;
  }
  return std::all_of(old.deps.begin(), old.deps.end(),
                     [&](const Dependency& dep) { return dependency_holds(context, dep); });
}

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::Baked: return "baked";
    case Outcome::UpToDate: return "up to date";
    case Outcome::Failed: return "failed";
    case Outcome::NotRun: return "not run";
  }
  return "?";
}

BakeStatus JobContext::commit(const BakedAssets& baked, std::vector<OutputRecord>& records) {
  // Serialised and staged first: a failure here (a full disk) leaves every old file in place.
  std::vector<StagedFile> staged(baked.size());
  records.clear();
  for (size_t i = 0; i < baked.size(); ++i) {
    const BakedAsset& asset = baked[i];
    std::vector<std::byte> head = assetlib::serialize_binaryfile_head(asset.file);
    const std::span<const std::byte> parts[] = {head, asset.file.blob};
    if (BakeStatus s = output.stage(asset.path, parts, staged[i]); !s) return s;
    records.push_back({asset.name, asset.path, std::string(asset.file.type, 4),
                       hash_string(hash_parts(parts)), head.size() + asset.file.blob.size(), 0,
                       unpacked_size(asset.file)});
  }
  return publish(staged, records);
}

BakeStatus JobContext::publish(std::vector<StagedFile>& staged,
                               std::vector<OutputRecord>& records) {
  std::shared_lock lock(commit_mutex_);
  if (commits_stopped_) {
    return BakeStatus::failure(BakeError::IoError, records.empty() ? "" : records.front().path,
                               "not written: the bake stopped before this output");
  }
  for (const StagedFile& file : staged) {
    if (BakeStatus s = output.replaceable(file); !s) return s;
  }
  if (journal) {
    std::vector<std::pair<std::string, std::string>> noted;
    for (const OutputRecord& r : records) noted.emplace_back(r.path, r.hash);
    if (BakeStatus s = journal->note(noted); !s) return s;
  }
  for (size_t i = 0; i < staged.size(); ++i) {
    if (BakeStatus s = output.publish(staged[i]); !s) return s;
    if (std::optional<FileStat> written = output.file_stat(records[i].path))
      records[i].mtime_ns = written->mtime_ns;
  }
  return {};
}

void JobContext::stop_commits() {
  // A commit stuck in the file system (a hung network folder) must not hang the bake too.
  std::unique_lock lock(commit_mutex_, std::defer_lock);
  (void)lock.try_lock_for(std::chrono::seconds(10));
  commits_stopped_ = true;
}

void JobClock::start() {
  started_ns_.store(std::chrono::steady_clock::now().time_since_epoch().count());
}

void JobClock::leave_out(std::chrono::steady_clock::time_point resumed,
                         std::chrono::steady_clock::duration gap) {
  int64_t started = started_ns_.load();
  while (started != 0 && started < resumed.time_since_epoch().count() &&
         !started_ns_.compare_exchange_weak(started, started + gap.count())) {
  }
}

double JobClock::seconds() const {
  int64_t started = started_ns_.load();
  if (started == 0) return 0;
  auto now = std::chrono::steady_clock::now().time_since_epoch();
  return std::chrono::duration<double>(now - std::chrono::steady_clock::duration(started)).count();
}

std::optional<std::string> JobContext::file_hash(const std::string& relative) {
  std::optional<fs::path> path = inside_root(input, relative);
  std::optional<FileStamp> now = path ? stat_file(*path) : std::nullopt;
  if (!now) return std::nullopt;
  {
    std::lock_guard lock(mutex_);
    auto known = stamps_.find(relative);
    if (known != stamps_.end() && known->second.size == now->size &&
        known->second.mtime_ns == now->mtime_ns) {
      return known->second.hash;
    }
  }
  auto old = previous.stamps.find(relative);
  if (old != previous.stamps.end() && old->second.size == now->size &&
      old->second.mtime_ns == now->mtime_ns && stamp_trusted(previous, now->mtime_ns)) {
    now->hash = old->second.hash;
  } else {
    uint64_t h = 0;
    if (!hash_file(path->string(), h)) return std::nullopt;
    now->hash = hash_string(h);
  }
  std::lock_guard lock(mutex_);
  stamps_[relative] = *now;
  return now->hash;
}

void JobContext::remember(const std::string& relative, const std::string& hash) {
  std::optional<fs::path> path = inside_root(input, relative);
  std::optional<FileStamp> now = path ? stat_file(*path) : std::nullopt;
  if (!now) return;
  now->hash = hash;
  std::lock_guard lock(mutex_);
  stamps_[relative] = *now;
}

std::map<std::string, FileStamp> JobContext::take_stamps() {
  std::lock_guard lock(mutex_);
  return std::move(stamps_);
}

JobResult run_job(JobContext& context, const Source& source, JobClock& clock) {
  const std::string& relative = source.relative;
  auto start = std::chrono::steady_clock::now();
  JobResult result;
  try {
    result = bake_one(context, source, clock);
  } catch (const std::bad_alloc&) {
    result = JobResult{};
    result.outcome = Outcome::Failed;
    // The machine's limit, not the source's fault: its previous output is kept.
    result.status = BakeStatus::failure(
        BakeError::Internal, relative,
        "out of memory while baking (fewer parallel jobs, -j, leave more for each)");
  } catch (const std::exception& e) {
    // An importer threw (out of memory on a hostile file, a library bug): this source fails, the
    // bake goes on.
    result = JobResult{};
    result.outcome = Outcome::Failed;
    result.status = BakeStatus::failure(BakeError::Internal, relative, e.what());
  }
  clock.stop();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace baker
