// The point of the sample: baked files become GPU resources with a read, an unpack straight into
// mapped staging memory and a copy. Reads the manifest (or a pack's table), loads every texture
// and mesh in it (a skinned mesh's skin stream as a buffer of its own), reads the metadata-only
// assets (materials, prefabs, skeletons) and unpacks clips' keys into memory, and times each step
// per asset.
#pragma once

#include "assets/gpu_scene.h"
#include "assets/load_report.h"
#include "error.h"

#include <vulkan/vulkan.h>

#include <assetlib/manifest.h>

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace sample {

class VulkanContext;

struct LoaderOptions {
  VkDeviceSize staging_bytes = VkDeviceSize{64}
                               << 20;  // whole ring; grows to fit the largest asset
  uint32_t staging_slots = 2;  // two: the CPU fills one while the GPU copies out of the other
  uint32_t skip_mips = 0;  // low-memory setting: drop this many of each texture's largest levels
};

// Loads everything `<folder>/manifest.json` lists into `scene`; returns the per-asset timings.
// Throws SampleError naming the file and the reason on any unreadable or inconsistent asset.
// Records each manifest entry in scene.sources.
LoadReport load_baked_folder(const VulkanContext& ctx, const std::filesystem::path& folder,
                             const LoaderOptions& options, GpuScene& scene);

// The same from one pack file (asset-baker pack): mapped read-only, its tables checked once, then
// every asset it holds found by logical name and unpacked from the mapping (assets/asset_source.h).
// Errors name the pack and the entry. scene.sources gets an entry per asset made from the pack's
// table (no path: a pack is not hot reloaded).
LoadReport load_pack(const VulkanContext& ctx, const std::filesystem::path& pack,
                     const LoaderOptions& options, GpuScene& scene);

// An asset load_assets could not load: its logical name and the error (naming the file).
struct AssetError {
  std::string name;
  std::string message;
};

// Whether a load that threw `error` failed for the asset's sake (a bad file, or a new, larger asset
// that does not fit in device memory: the old one can stay), not the device's (then nothing can).
bool is_asset_failure(const SampleError& error);

// Hot reload's loader: loads just `entries` (from a newer manifest of `folder`) into `out`, an
// empty scene that receives only those assets and their scene.sources entries; returns when they
// are GPU-ready. An asset that fails is left out and reported, not thrown, so the caller keeps its
// old version. `out` has no memory arena: every resource gets memory of its own, freed when a
// later reload replaces it (an arena frees only all at once). Vulkan failures still throw.
std::vector<AssetError> load_assets(const VulkanContext& ctx, const std::filesystem::path& folder,
                                    const LoaderOptions& options,
                                    std::span<const assetlib::ManifestEntry> entries,
                                    GpuScene& out);

}  // namespace sample
