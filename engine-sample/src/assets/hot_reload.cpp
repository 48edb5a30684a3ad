#include "assets/hot_reload.h"

#include "error.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <algorithm>
#include <cstdio>
#include <thread>
#include <utility>

namespace sample {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Often enough that a rebake shows within a blink, rarely enough to cost nothing.
constexpr std::chrono::milliseconds kPollInterval{250};

bool same_asset(const assetlib::ManifestEntry& a, const assetlib::ManifestEntry& b) {
  return a.hash == b.hash && a.path == b.path && a.type == b.type && a.file_size == b.file_size;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Removes the asset `name` from every collection of `scene` (its type may have changed).
void erase_asset(GpuScene& scene, const std::string& name) {
  scene.textures.erase(name);
  scene.materials.erase(name);
  scene.skeletons.erase(name);
  scene.clips.erase(name);
  std::erase_if(scene.meshes, [&](const GpuMesh& mesh) { return mesh.name == name; });
  std::erase_if(scene.prefabs, [&](const Prefab& prefab) { return prefab.name == name; });
}

// Keeps `items` in manifest order (by name), as the loader made them: the grid layout places
// meshes and prefabs in that order, so a reloaded one stays in its cell.
template <typename T>
void insert_by_name(std::vector<T>& items, T&& item) {
  auto at = std::lower_bound(items.begin(), items.end(), item.name,
                             [](const T& a, const std::string& name) { return a.name < name; });
  items.insert(at, std::move(item));
}

// Moves the asset `name` from `from` (what load_assets produced) into `to`, in place of the
// version `to` had. An asset load_assets skipped (an empty mesh) is simply gone from `to`.
void take_asset(GpuScene& from, GpuScene& to, const std::string& name) {
  erase_asset(to, name);
  if (auto it = from.textures.find(name); it != from.textures.end())
    to.textures.insert_or_assign(name, std::move(it->second));
  if (auto it = from.materials.find(name); it != from.materials.end())
    to.materials.insert_or_assign(name, std::move(it->second));
  if (auto it = from.skeletons.find(name); it != from.skeletons.end())
    to.skeletons.insert_or_assign(name, std::move(it->second));
  if (auto it = from.clips.find(name); it != from.clips.end())
    to.clips.insert_or_assign(name, std::move(it->second));
  for (GpuMesh& mesh : from.meshes) {
    if (mesh.name == name) insert_by_name(to.meshes, std::move(mesh));
  }
  for (Prefab& prefab : from.prefabs) {
    if (prefab.name == name) insert_by_name(to.prefabs, std::move(prefab));
  }
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void print_result(const ReloadResult& result, double ms) {
  for (const std::string& name : result.reloaded) std::printf("reloaded %s\n", name.c_str());
  for (const std::string& name : result.removed) std::printf("removed %s\n", name.c_str());
  std::printf("hot reload: %zu reloaded, %zu removed, %zu failed%s in %.1f ms\n",
              result.reloaded.size(), result.removed.size(), result.failed.size(),
              result.whole_scene ? " (whole scene loaded again)" : "", ms);
  std::fflush(stdout);
}

}  // namespace

FileWatch::FileWatch(fs::path path, std::chrono::milliseconds interval)
    : path_(std::move(path)), interval_(interval), next_look_(Clock::now() + interval) {
  stamp_ = look();
}

FileWatch::Stamp FileWatch::look() const {
  Stamp stamp;
  std::error_code time_error, size_error;
  stamp.time = fs::last_write_time(path_, time_error);
  stamp.size = fs::file_size(path_, size_error);
  stamp.exists = !time_error && !size_error;
  if (!stamp.exists) stamp = {};
  return stamp;
}

bool FileWatch::changed() {
  Clock::time_point now = Clock::now();
  if (now < next_look_) return false;
  next_look_ = now + interval_;
  Stamp current = look();
  if (current == stamp_) return false;
  stamp_ = current;
  return true;
}

HotReload::HotReload(const VulkanContext& ctx, fs::path folder, const LoaderOptions& options)
    : ctx_(ctx),
      folder_(std::move(folder)),
      options_(options),
      manifest_(folder_ / "manifest.json", kPollInterval) {}

bool HotReload::poll(const GpuScene& scene) {
  if (!manifest_.changed()) return false;
  const std::string path = manifest_.path().string();
  assetlib::Manifest manifest;
  if (assetlib::Status s = assetlib::load_manifest(path, manifest); !s) {
    std::fprintf(stderr,
                 "hot reload: error: %s; keeping the loaded assets until it changes again\n",
                 SampleError::from_file_call(path, s).what());
    return false;
  }
  changed_.clear();
  removed_.clear();
  for (const assetlib::ManifestEntry& entry : manifest.assets) {
    auto loaded = scene.sources.find(entry.name);
    if (loaded == scene.sources.end() || !same_asset(loaded->second, entry))
      changed_.push_back(entry);
  }
  for (const auto& [name, entry] : scene.sources) {
    if (!assetlib::find_asset(manifest, name)) removed_.push_back(name);
  }
  return !changed_.empty() || !removed_.empty();
}

ReloadResult HotReload::apply(GpuScene& scene) {
  Clock::time_point start = Clock::now();
  // Frames in flight may still read the resources about to be replaced.
  vk_check(vkDeviceWaitIdle(ctx_.device()), "vkDeviceWaitIdle(hot reload)");
  ReloadResult result = changed_.size() > kMostAssetsReloadedAlone ? reload_whole_scene(scene)
                                                                   : reload_changed(scene);
  changed_.clear();
  removed_.clear();
  print_result(result, ms_since(start));
  return result;
}

// The new versions are loaded beside the old ones first, so an asset that fails leaves its old
// version untouched; only then are they swapped in.
ReloadResult HotReload::reload_changed(GpuScene& scene) {
  ReloadResult result;
  GpuScene incoming;
  for (const AssetError& error : load_assets(ctx_, folder_, options_, changed_, incoming)) {
    std::fprintf(stderr, "hot reload: error: %s; keeping the loaded %s\n", error.message.c_str(),
                 error.name.c_str());
    result.failed.push_back(error.name);
  }
  for (const assetlib::ManifestEntry& entry : changed_) {
    if (contains(result.failed, entry.name)) continue;
    take_asset(incoming, scene, entry.name);
    scene.sources.insert_or_assign(entry.name, entry);
    result.reloaded.push_back(entry.name);
  }
  for (const std::string& name : removed_) {
    erase_asset(scene, name);
    scene.sources.erase(name);
    result.removed.push_back(name);
  }
  return result;
}

// Everything into a fresh scene (and arena), swapped in only once all of it has loaded: one bad
// asset keeps the whole loaded scene.
ReloadResult HotReload::reload_whole_scene(GpuScene& scene) {
  std::printf("hot reload: %zu assets changed; loading the whole scene again\n", changed_.size());
  ReloadResult result;
  GpuScene fresh;
  try {
    load_baked_folder(ctx_, folder_, options_, fresh);
  } catch (const SampleError& e) {
    if (!is_asset_failure(e)) throw;
    std::fprintf(stderr, "hot reload: error: %s; keeping the loaded scene\n", e.what());
    for (const assetlib::ManifestEntry& entry : changed_) result.failed.push_back(entry.name);
    return result;
  }
  // The old scene is destroyed when `old` goes, members in reverse order: its arena last.
  GpuScene old = std::move(scene);
  scene = std::move(fresh);
  result.whole_scene = true;
  for (const assetlib::ManifestEntry& entry : changed_) result.reloaded.push_back(entry.name);
  result.removed = removed_;
  return result;
}

SampleError no_reload_within(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return SampleError(std::string("--reload-wait: nothing was reloaded within ") + text +
                     " s (manifest.json did not change, or every asset that changed failed to "
                     "load)");
}

bool HotReload::wait_for_change(GpuScene& scene, std::chrono::duration<double> timeout) {
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout);
  while (Clock::now() < deadline) {
    if (poll(scene) && apply(scene).scene_changed()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace sample
