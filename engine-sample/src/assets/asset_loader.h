// The point of the sample: baked files become GPU resources with a read, an unpack straight into
// mapped staging memory and a copy. Reads the manifest, loads every texture and mesh in it, and
// times each step per asset.
#pragma once

#include "assets/gpu_scene.h"
#include "assets/load_report.h"

#include <vulkan/vulkan.h>

#include <filesystem>

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
LoadReport load_baked_folder(const VulkanContext& ctx, const std::filesystem::path& folder,
                             const LoaderOptions& options, GpuScene& scene);

}  // namespace sample
