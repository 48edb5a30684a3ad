// Hot reload: when a bake rewrites <baked-dir>/manifest.json (asset-baker --watch, or any bake
// into the same folder), the assets whose manifest entries changed are loaded again and swapped
// into the scene, so an artist sees an edited texture in seconds. Only the manifest is watched,
// not the asset files: the baker writes it last, once every file it lists is in place, and its
// entries' hashes say which files changed.
#pragma once

#include "assets/asset_loader.h"
#include "assets/gpu_scene.h"
#include "error.h"

#include <assetlib/manifest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sample {

class VulkanContext;

// Whether a file changed since it was last looked at, found cheaply enough to ask every frame: at
// most one look (its modification time and size) per interval.
class FileWatch {
 public:
  // Takes the first stamp now: a change from this moment on is reported.
  FileWatch(std::filesystem::path path, std::chrono::milliseconds interval);

  // True when the interval has passed since the last look and the stamp differs from then. A
  // missing file has a stamp of its own, so its reappearance counts as a change.
  bool changed();
  const std::filesystem::path& path() const { return path_; }

 private:
  struct Stamp {
    bool exists = false;
    std::filesystem::file_time_type time;
    uintmax_t size = 0;
    bool operator==(const Stamp&) const = default;
  };
  Stamp look() const;

  std::filesystem::path path_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point next_look_;
  Stamp stamp_;
};

// What one HotReload::apply() did, by logical name.
struct ReloadResult {
  std::vector<std::string> reloaded;  // loaded again from their new manifest entries
  std::vector<std::string> removed;   // no longer in the manifest: dropped from the scene
  std::vector<std::string> failed;    // kept at their loaded version; tried again on next change
  bool whole_scene = false;           // the fallback for large changes: everything loaded again

  // Whatever points into the scene (a renderer's draws) must be rebuilt.
  bool scene_changed() const { return !reloaded.empty() || !removed.empty(); }
};

class HotReload {
 public:
  // More changed assets than this and the whole scene is loaded again instead, into a fresh
  // memory arena: each asset reloaded alone gets memory of its own (load_assets), and drivers
  // allow only so many allocations.
  static constexpr size_t kMostAssetsReloadedAlone = 64;

  // Watches <folder>/manifest.json from now on: construct it before loading the scene, so that a
  // bake finishing during the load is not missed. `options` are the scene's loader options.
  HotReload(const VulkanContext& ctx, std::filesystem::path folder, const LoaderOptions& options);

  // Cheap enough for every frame. True when manifest.json changed and now lists assets that
  // differ from `scene.sources` (new, changed or gone); apply() then loads them. A manifest that
  // cannot be read (say, half-written by a tool that does not rename) is reported and skipped:
  // the next change is read again.
  bool poll(const GpuScene& scene);

  // Loads what poll() found and swaps it into `scene`, one line per asset on stdout ("reloaded
  // textures/bricks.png"). Waits for the device to be idle first. Anything that points into
  // `scene` must be rebuilt afterwards when the result's scene_changed(). An asset that fails to
  // load keeps its loaded version, the error printed; it is tried again on the next change.
  // Throws only when the device fails.
  ReloadResult apply(GpuScene& scene);

  // For headless runs: polls and applies until the scene has changed or `timeout` has passed.
  // False on timeout.
  bool wait_for_change(GpuScene& scene, std::chrono::duration<double> timeout);

 private:
  ReloadResult reload_changed(GpuScene& scene);
  ReloadResult reload_whole_scene(GpuScene& scene);

  const VulkanContext& ctx_;
  std::filesystem::path folder_;
  LoaderOptions options_;
  FileWatch manifest_;
  // From the last poll() that found changes: the new entries to load, the names to drop.
  std::vector<assetlib::ManifestEntry> changed_;
  std::vector<std::string> removed_;
};

// The error a --reload-wait run ends with when nothing was reloaded within `seconds`.
SampleError no_reload_within(double seconds);

}  // namespace sample
