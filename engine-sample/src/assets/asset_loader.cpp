#include "assets/asset_loader.h"

#include "assets/asset_source.h"
#include "error.h"
#include "vk/upload_batch.h"
#include "vk/vulkan_context.h"

#include <assetlib/asset_file.h>
#include <assetlib/manifest.h>
#include <assetlib/unpack_jobs.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <utility>

namespace sample {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr VkDeviceSize kSpanAlignment = 16;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

[[noreturn]] void fail(const std::string& where, const std::string& reason) {
  throw SampleError(where, reason);
}

// For assetlib calls on bytes in memory: their messages name no file, so the error does.
[[noreturn]] void fail(const std::string& where, const assetlib::Status& status) {
  throw SampleError::from_memory_call(where, status);
}

// The metadata of each asset type, read the same way by the loader.
assetlib::Status read_info(const assetlib::AssetView& view, assetlib::MeshInfo& info) {
  return assetlib::read_mesh_info(view, info);
}
assetlib::Status read_info(const assetlib::AssetView& view, assetlib::MaterialInfo& info) {
  return assetlib::read_material_info(view, info);
}
assetlib::Status read_info(const assetlib::AssetView& view, assetlib::PrefabInfo& info) {
  return assetlib::read_prefab_info(view, info);
}
assetlib::Status read_info(const assetlib::AssetView& view, assetlib::SkeletonInfo& info) {
  return assetlib::read_skeleton_info(view, info);
}
assetlib::Status read_info(const assetlib::AssetView& view, assetlib::ClipInfo& info) {
  return assetlib::read_clip_info(view, info);
}

// Every VkBufferImageCopy the texture needs from level `first` down: the baked layout is the copy
// layout, so each level's bufferOffset is its offset in the unpacked data (counted from level
// `first`, which unpack_texture_mips puts at 0) and rows are tightly packed (rowLength 0).
std::vector<VkBufferImageCopy> mip_copy_regions(const assetlib::TextureInfo& info, uint32_t first) {
  std::vector<VkBufferImageCopy> regions;
  for (uint32_t level = first; level < info.mips.size(); ++level) {
    const assetlib::TextureMip& mip = info.mips[level];
    VkBufferImageCopy region{};
    region.bufferOffset = mip.offset - info.mips[first].offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - first, 0, 1};
    region.imageExtent = {mip.width, mip.height, 1};
    regions.push_back(region);
  }
  return regions;
}

// Slots that hold the largest single asset, as the manifest tells before any file is opened, so
// the staging memory is allocated once (UploadBatch holds the ring to the heap, and gives a larger
// upload a staging buffer of its own).
VkDeviceSize slot_size_for(std::span<const assetlib::ManifestEntry> entries,
                           const LoaderOptions& options) {
  VkDeviceSize largest = 0;
  for (const assetlib::ManifestEntry& entry : entries) {
    largest = std::max<VkDeviceSize>(largest, entry.raw_size + 2 * kSpanAlignment);
  }
  return std::max(options.staging_bytes / std::max(options.staging_slots, 1u), largest);
}

// Assets from `source` onto the GPU through the staging ring, one at a time.
class AssetLoader {
 public:
  AssetLoader(const VulkanContext& ctx, UploadBatch& batch, AssetSource& source, GpuScene& scene,
              uint32_t skip_mips)
      : ctx_(ctx), batch_(batch), source_(source), scene_(scene), skip_mips_(skip_mips) {}

  void upload_defaults();
  std::optional<AssetTiming> load(const assetlib::ManifestEntry& entry, uint32_t id);

 private:
  assetlib::AssetView read_asset(const assetlib::ManifestEntry& entry, const std::string& where,
                                 AssetTiming& timing);
  template <typename Info>
  assetlib::AssetView read_asset_info(const assetlib::ManifestEntry& entry,
                                      const std::string& where, Info& info, AssetTiming& timing);
  void check_raw_size(const assetlib::ManifestEntry& entry, const std::string& where,
                      uint64_t raw_size) const;
  void check_texture_format(const assetlib::TextureInfo& info, const std::string& where) const;
  uint32_t first_level_that_fits(const assetlib::TextureInfo& info, uint32_t first,
                                 const std::string& where) const;
  AssetTiming load_texture(const assetlib::ManifestEntry& entry, uint32_t id);
  std::optional<AssetTiming> load_mesh(const assetlib::ManifestEntry& entry, uint32_t id);
  void check_skin_format(const assetlib::MeshInfo& info, const std::string& where) const;
  AssetTiming load_clip(const assetlib::ManifestEntry& entry);
  std::vector<GpuMeshlet> unpack_meshlet_indices(const assetlib::MeshInfo& info,
                                                 const assetlib::AssetView& view,
                                                 const std::string& where, std::byte* out);
  template <typename Info>
  std::pair<AssetTiming, Info> load_metadata(const assetlib::ManifestEntry& entry);
  GpuImage upload_texel(const uint8_t rgba[4], const char* name);

  const VulkanContext& ctx_;
  UploadBatch& batch_;
  AssetSource& source_;
  GpuScene& scene_;
  uint32_t skip_mips_;
  std::vector<uint32_t> meshlet_section_;  // unpacked meshlet section, before expansion
};

GpuImage AssetLoader::upload_texel(const uint8_t rgba[4], const char* name) {
  ImageDesc desc{VK_FORMAT_R8G8B8A8_UNORM,
                 {1, 1},
                 1,
                 VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                 VK_IMAGE_ASPECT_COLOR_BIT};
  GpuImage image(ctx_, desc, name, scene_.memory.get());
  StagingSpan span = batch_.reserve(4, name);
  std::memcpy(span.data, rgba, 4);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {1, 1, 1};
  batch_.copy_to_image(span, image.handle(), 1, {&region, 1});
  return image;
}

void AssetLoader::upload_defaults() {
  const uint8_t white[4] = {255, 255, 255, 255};
  const uint8_t flat_normal[4] = {128, 128, 255, 255};
  scene_.white = upload_texel(white, "fallback white");
  scene_.flat_normal = upload_texel(flat_normal, "fallback flat normal");
  constexpr VkDeviceSize kZeroBytes = 16;
  scene_.zeros = GpuBuffer(ctx_, kZeroBytes,
                           VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                           MemoryUse::GpuOnly, "zero vertex inputs", scene_.memory.get());
  StagingSpan span = batch_.reserve(kZeroBytes, "zero vertex inputs");
  std::memset(span.data, 0, kZeroBytes);
  batch_.copy_to_buffer(span, 0, scene_.zeros.handle(), kZeroBytes);
}

std::optional<AssetTiming> AssetLoader::load(const assetlib::ManifestEntry& entry, uint32_t id) {
  if (entry.type == "TEXI") return load_texture(entry, id);
  if (entry.type == "MESH") return load_mesh(entry, id);
  if (entry.type == "MATL") {
    auto [timing, info] = load_metadata<assetlib::MaterialInfo>(entry);
    scene_.materials.insert_or_assign(entry.name, std::move(info));
    return timing;
  }
  if (entry.type == "PRFB") {
    auto [timing, info] = load_metadata<assetlib::PrefabInfo>(entry);
    scene_.prefabs.push_back({entry.name, std::move(info)});
    return timing;
  }
  if (entry.type == "SKEL") {
    auto [timing, info] = load_metadata<assetlib::SkeletonInfo>(entry);
    scene_.skeletons.insert_or_assign(entry.name, std::move(info));
    return timing;
  }
  if (entry.type == "CLIP") return load_clip(entry);
  std::fprintf(stderr, "warning: %s: asset type '%s' is not one this sample draws; skipped\n",
               entry.name.c_str(), entry.type.c_str());
  return std::nullopt;
}

// Reads the asset and splits it without copying; the view points into the source's bytes (a
// buffer reused for every file, or the mapped pack).
assetlib::AssetView AssetLoader::read_asset(const assetlib::ManifestEntry& entry,
                                            const std::string& where, AssetTiming& timing) {
  assetlib::AssetView view = source_.read(entry);
  if (std::string_view(view.type, 4) != entry.type) {
    fail(where, "manifest says type " + entry.type + ", the file is " + std::string(view.type, 4));
  }
  timing.name = entry.name;
  timing.type = entry.type;
  timing.disk_bytes = assetlib::kHeaderSize + view.json.size() + view.blob.size();
  return view;
}

// The "load" column: read the file, split it, parse its metadata into `info`.
template <typename Info>
assetlib::AssetView AssetLoader::read_asset_info(const assetlib::ManifestEntry& entry,
                                                 const std::string& where, Info& info,
                                                 AssetTiming& timing) {
  Clock::time_point start = Clock::now();
  assetlib::AssetView view = read_asset(entry, where, timing);
  if (assetlib::Status s = read_info(view, info); !s) fail(where, s);
  timing.load_ms = ms_since(start);
  return view;
}

void AssetLoader::check_raw_size(const assetlib::ManifestEntry& entry, const std::string& where,
                                 uint64_t raw_size) const {
  if (entry.raw_size != 0 && entry.raw_size != raw_size) {
    fail(where, "manifest says " + std::to_string(entry.raw_size) + " unpacked bytes, the file " +
                    std::to_string(raw_size) + " (stale manifest?)");
  }
}

void AssetLoader::check_texture_format(const assetlib::TextureInfo& info,
                                       const std::string& where) const {
  auto format = static_cast<VkFormat>(assetlib::texture_format_vk(info.format));
  const char* name = assetlib::texture_format_name(info.format);
  bool block_compressed =
      format >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && format <= VK_FORMAT_BC7_SRGB_BLOCK;
  if (block_compressed && !ctx_.enabled_features().textureCompressionBC) {
    fail(where, std::string(name) + " needs textureCompressionBC, which this device lacks");
  }
  // Linear filtering is optional per format; TextureBindings falls back to nearest without it.
  VkFormatFeatureFlags needed =
      VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if (format == VK_FORMAT_UNDEFINED || !has_format_features(ctx_, format, needed)) {
    fail(where, std::string("texture format ") + name + " cannot be sampled on this device");
  }
}

// The first level from `first` on that fits the device's image size limit, as an engine drops the
// top levels of a texture too large for the GPU at hand; fails when none does.
uint32_t AssetLoader::first_level_that_fits(const assetlib::TextureInfo& info, uint32_t first,
                                            const std::string& where) const {
  const uint32_t max_size = ctx_.properties().limits.maxImageDimension2D;
  for (uint32_t level = first; level < info.mips.size(); ++level) {
    if (info.mips[level].width <= max_size && info.mips[level].height <= max_size) return level;
  }
  fail(where, std::to_string(info.width) + "x" + std::to_string(info.height) + " exceeds this " +
                  "device's " + std::to_string(max_size) + " texel limit, and no mip level fits");
}

AssetTiming AssetLoader::load_texture(const assetlib::ManifestEntry& entry, uint32_t id) {
  const std::string where = source_.where(entry);
  AssetTiming timing;
  timing.name = entry.name;
  timing.type = entry.type;
  // Skipped levels are neither read from the file nor decompressed: the image simply starts
  // smaller.
  Clock::time_point start = Clock::now();
  TextureLevels levels = source_.read_texture_levels(entry, skip_mips_);
  if (uint32_t fits = first_level_that_fits(levels.info, levels.first_mip, where);
      fits > levels.first_mip) {
    std::fprintf(stderr,
                 "warning: %s: %ux%u exceeds this device's %u texel limit; loaded from mip level "
                 "%u (%ux%u)\n",
                 entry.name.c_str(), levels.info.width, levels.info.height,
                 ctx_.properties().limits.maxImageDimension2D, fits, levels.info.mips[fits].width,
                 levels.info.mips[fits].height);
    levels = source_.read_texture_levels(entry, fits);
  }
  timing.load_ms = ms_since(start);
  timing.disk_bytes = levels.bytes_read;
  assetlib::TextureInfo& info = levels.info;
  check_raw_size(entry, where, info.total_size);
  check_texture_format(info, where);

  const uint32_t first = levels.first_mip;
  auto mip_levels = static_cast<uint32_t>(info.mips.size()) - first;
  const assetlib::TextureMip& top = info.mips[first];
  ImageDesc desc{static_cast<VkFormat>(assetlib::texture_format_vk(info.format)),
                 {top.width, top.height},
                 mip_levels,
                 VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                 VK_IMAGE_ASPECT_COLOR_BIT};
  // BC4 holds grey data in R (docs/format.md): G and B read it too, as a packed
  // metallic-roughness map's roughness (G) and metalness (B) do.
  if (info.format == assetlib::TextureFormat::BC4_UNORM) {
    desc.components = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R,
                       VK_COMPONENT_SWIZZLE_ONE};
  }
  GpuImage image(ctx_, desc, entry.name, scene_.memory.get());

  uint64_t unpacked = info.total_size - top.offset;
  timing.unpacked_bytes = unpacked;
  StagingSpan span = batch_.reserve(unpacked, where);
  start = Clock::now();
  assetlib::UnpackJob job;
  if (assetlib::Status s = assetlib::texture_unpack_job(info, first, levels.blob, span.data,
                                                        span.size, job, levels.blob_offset);
      !s) {
    fail(where, s);
  }
  if (assetlib::Status s = assetlib::unpack_jobs(std::span<const assetlib::UnpackJob>(&job, 1));
      !s) {
    fail(where, s);
  }
  timing.unpack_ms = ms_since(start);

  std::vector<VkBufferImageCopy> regions = mip_copy_regions(info, first);
  batch_.begin_timing(span, id);
  batch_.copy_to_image(span, image.handle(), mip_levels, regions);
  batch_.end_timing(span);

  info.chunks.clear();  // the blob layout is of no use once unpacked
  scene_.textures.emplace(entry.name, GpuTexture{std::move(info), std::move(image)});
  return timing;
}

std::optional<AssetTiming> AssetLoader::load_mesh(const assetlib::ManifestEntry& entry,
                                                  uint32_t id) {
  const std::string where = source_.where(entry);
  AssetTiming timing;
  assetlib::MeshInfo info;
  assetlib::AssetView view = read_asset_info(entry, where, info, timing);
  uint64_t vb_size = info.vertex_buffer_size;
  uint64_t ib_size = info.index_buffer_size;
  uint64_t skin_size = info.skin_buffer_size;  // 0 for a rigid mesh
  timing.unpacked_bytes = vb_size + ib_size + skin_size;
  // The manifest counts every section: vertices, indices, meshlets and the skin stream.
  check_raw_size(entry, where, assetlib::mesh_unpacked_size(info));
  if (vb_size == 0 || ib_size == 0) {
    // Vulkan has no empty buffers, and there would be nothing to draw.
    std::fprintf(stderr, "warning: %s: mesh has no triangles; skipped\n", where.c_str());
    return std::nullopt;
  }
  if (skin_size != 0) check_skin_format(info, where);

  GpuMesh mesh;
  mesh.name = entry.name;
  mesh.vertices =
      GpuBuffer(ctx_, vb_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                MemoryUse::GpuOnly, entry.name + " vertices", scene_.memory.get());
  mesh.indices =
      GpuBuffer(ctx_, ib_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                MemoryUse::GpuOnly, entry.name + " indices", scene_.memory.get());
  if (skin_size != 0) {
    mesh.skin = GpuBuffer(ctx_, skin_size,
                          VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                          MemoryUse::GpuOnly, entry.name + " skin", scene_.memory.get());
  }
  // All buffers in one reservation, so every copy lands in the same batch: vertices, indices, the
  // skin stream, the meshlets' indices.
  VkDeviceSize index_offset = align_up(vb_size, kSpanAlignment);
  VkDeviceSize skin_offset = align_up(index_offset + ib_size, kSpanAlignment);
  VkDeviceSize meshlet_offset = align_up(skin_offset + skin_size, kSpanAlignment);
  uint64_t meshlet_ib_size = uint64_t{info.meshlet_triangle_count} * 3 * sizeof(uint32_t);
  if (meshlet_ib_size != 0) {
    mesh.meshlet_indices = GpuBuffer(
        ctx_, meshlet_ib_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
        MemoryUse::GpuOnly, entry.name + " meshlet indices", scene_.memory.get());
  }

  StagingSpan span = batch_.reserve(meshlet_offset + meshlet_ib_size, where);
  Clock::time_point start = Clock::now();
  if (assetlib::Status s =
          assetlib::unpack_mesh(info, view.blob.data(), view.blob.size(), span.data, vb_size,
                                span.data + index_offset, ib_size);
      !s) {
    fail(where, s);
  }
  // Read in place (host-cached staging), every index below vertex_count: the device is not asked
  // for robustBufferAccess, so a vertex fetch past the buffer would be undefined behaviour.
  if (assetlib::Status s = assetlib::check_mesh_indices(info, span.data + index_offset, ib_size);
      !s) {
    fail(where, s);
  }
  // The skin stream is checked as it is unpacked: every joint index below skin_joint_count.
  if (skin_size != 0) {
    if (assetlib::Status s = assetlib::unpack_mesh_skin(info, view.blob.data(), view.blob.size(),
                                                        span.data + skin_offset, skin_size);
        !s) {
      fail(where, s);
    }
  }
  if (meshlet_ib_size != 0) {
    mesh.meshlets = unpack_meshlet_indices(info, view, where, span.data + meshlet_offset);
    timing.unpacked_bytes += info.meshlet_data_size;
  }
  timing.unpack_ms = ms_since(start);

  batch_.begin_timing(span, id);
  batch_.copy_to_buffer(span, 0, mesh.vertices.handle(), vb_size);
  batch_.copy_to_buffer(span, index_offset, mesh.indices.handle(), ib_size);
  if (skin_size != 0) batch_.copy_to_buffer(span, skin_offset, mesh.skin.handle(), skin_size);
  if (meshlet_ib_size != 0) {
    batch_.copy_to_buffer(span, meshlet_offset, mesh.meshlet_indices.handle(), meshlet_ib_size);
  }
  batch_.end_timing(span);

  info.chunks.clear();
  mesh.info = std::move(info);
  scene_.meshes.push_back(std::move(mesh));
  return timing;
}

// The skin stream's joints and weights are vertex inputs (locations 6 and 7 of mesh_skinned.vert):
// the device must be able to read their formats from a vertex buffer.
void AssetLoader::check_skin_format(const assetlib::MeshInfo& info,
                                    const std::string& where) const {
  assetlib::VertexAttribute attributes[2];
  uint32_t count = assetlib::skin_format_attributes(info.skin_format, attributes);
  for (uint32_t i = 0; i < count; ++i) {
    auto format = static_cast<VkFormat>(attributes[i].vk_format);
    if (!has_buffer_format_features(ctx_, format, VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT)) {
      fail(where, std::string("skin format ") + assetlib::skin_format_name(info.skin_format) +
                      ": this device cannot read VkFormat " + std::to_string(format) +
                      " from a vertex buffer");
    }
  }
}

// A clip's keys are unpacked into memory of its own (they stay on the CPU, for sample_clip);
// unpack_clip checks every key, so sampling them later needs no checks.
AssetTiming AssetLoader::load_clip(const assetlib::ManifestEntry& entry) {
  const std::string where = source_.where(entry);
  AssetTiming timing;
  Clip clip;
  assetlib::AssetView view = read_asset_info(entry, where, clip.info, timing);
  const uint64_t unpacked = assetlib::clip_unpacked_size(clip.info);
  check_raw_size(entry, where, unpacked);
  // read_clip_info bounds the keys by the file's size (under 256 x), so this is no huge
  // allocation even for a hostile file.
  clip.keys.resize(clip.info.key_float_count);
  Clock::time_point start = Clock::now();
  if (assetlib::Status s = assetlib::unpack_clip(clip.info, view.blob.data(), view.blob.size(),
                                                 clip.keys.data(), clip.keys.size());
      !s) {
    fail(where, s);
  }
  timing.unpack_ms = ms_since(start);
  timing.unpacked_bytes = unpacked;
  clip.info.chunks.clear();
  scene_.clips.insert_or_assign(entry.name, std::move(clip));
  return timing;
}

// The meshlet section, unpacked and checked by assetlib, then each meshlet's triangles written to
// `out` as 32-bit indices into the vertex buffer (meshlet_triangle_count x 3 of them).
std::vector<GpuMeshlet> AssetLoader::unpack_meshlet_indices(const assetlib::MeshInfo& info,
                                                            const assetlib::AssetView& view,
                                                            const std::string& where,
                                                            std::byte* out) {
  // Reused from mesh to mesh, like the file buffer: no allocation per asset once it is large
  // enough.
  std::vector<uint32_t>& section = meshlet_section_;
  section.resize(std::max(section.size(), size_t((info.meshlet_data_size + 3) / 4)));
  if (assetlib::Status s = assetlib::unpack_meshlets(info, view.blob.data(), view.blob.size(),
                                                     section.data(), section.size() * 4);
      !s) {
    fail(where, s);
  }
  // unpack_meshlets checked every range and index: the view can be followed as it is. It did not
  // check that meshlets do not share triangles, so the total is bounded here.
  assetlib::MeshletView meshlets = assetlib::meshlet_view(info, section.data());
  std::vector<GpuMeshlet> result(info.meshlet_count);
  auto* indices = reinterpret_cast<uint32_t*>(out);
  const uint64_t capacity = uint64_t{info.meshlet_triangle_count} * 3;
  uint32_t cursor = 0;
  for (uint32_t i = 0; i < info.meshlet_count; ++i) {
    const assetlib::Meshlet& m = meshlets.meshlets[i];
    GpuMeshlet& g = result[i];
    g.first_index = cursor;
    g.index_count = m.triangle_count * 3;
    if (cursor + uint64_t{g.index_count} > capacity) {
      fail(where, "meshlets hold more triangles than the meshlet triangle array (" +
                      std::to_string(info.meshlet_triangle_count) + ")");
    }
    for (uint32_t k = 0; k < g.index_count; ++k) {
      indices[cursor++] =
          meshlets.vertices[m.vertex_offset + meshlets.triangles[m.triangle_offset + k]];
    }
    std::copy_n(m.center, 3, g.center);
    g.radius = m.radius;
    std::copy_n(m.cone_apex, 3, g.cone_apex);
    std::copy_n(m.cone_axis, 3, g.cone_axis);
    g.cone_cutoff = m.cone_cutoff;
  }
  return result;
}

// Materials and prefabs: metadata only, nothing to unpack or upload.
template <typename Info>
std::pair<AssetTiming, Info> AssetLoader::load_metadata(const assetlib::ManifestEntry& entry) {
  const std::string where = source_.where(entry);
  AssetTiming timing;
  Info info;
  read_asset_info(entry, where, info, timing);
  return {std::move(timing), std::move(info)};
}

// Every asset of `entries` from `source` into `scene`, whose memory arena this creates; the
// per-asset timings and the ring's figures, the wall time counted from `start`.
LoadReport load_scene_entries(const VulkanContext& ctx, AssetSource& source,
                              std::span<const assetlib::ManifestEntry> entries,
                              const LoaderOptions& options, GpuScene& scene,
                              Clock::time_point start) {
  scene.memory = std::make_unique<GpuMemoryArena>(ctx);
  UploadBatch batch(ctx, slot_size_for(entries, options), options.staging_slots);
  AssetLoader loader(ctx, batch, source, scene, options.skip_mips);
  loader.upload_defaults();
  LoadReport report;
  std::vector<uint32_t> ids;
  for (uint32_t id = 0; id < entries.size(); ++id) {
    std::optional<AssetTiming> timing = loader.load(entries[id], id);
    scene.sources.insert_or_assign(entries[id].name, entries[id]);
    if (!timing) continue;
    report.assets.push_back(std::move(*timing));
    ids.push_back(id);
  }
  batch.finish();
  report.wall_ms = ms_since(start);

  for (size_t i = 0; i < ids.size(); ++i)
    report.assets[i].upload_ms = batch.gpu_milliseconds(ids[i]);
  const UploadStats& stats = batch.stats();
  report.batches = stats.batches;
  report.staging_slot_bytes = stats.slot_size;
  report.staging_slots = stats.slot_count;
  report.fence_wait_ms = stats.fence_wait_ms;
  return report;
}

}  // namespace

LoadReport load_baked_folder(const VulkanContext& ctx, const fs::path& folder,
                             const LoaderOptions& options, GpuScene& scene) {
  Clock::time_point start = Clock::now();
  const fs::path manifest_path = folder / "manifest.json";
  assetlib::Manifest manifest;
  if (assetlib::Status s = assetlib::load_manifest(manifest_path.string(), manifest); !s) {
    throw SampleError::from_file_call(manifest_path.string(), s);
  }
  FolderSource source(folder);
  return load_scene_entries(ctx, source, manifest.assets, options, scene, start);
}

LoadReport load_pack(const VulkanContext& ctx, const fs::path& pack, const LoaderOptions& options,
                     GpuScene& scene) {
  Clock::time_point start = Clock::now();
  PackSource source(pack);  // mapped until every asset is unpacked into staging
  return load_scene_entries(ctx, source, source.entries(), options, scene, start);
}

bool is_asset_failure(const SampleError& error) {
  VkResult result = error.vk_result();
  return result == VK_SUCCESS || result == VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

std::vector<AssetError> load_assets(const VulkanContext& ctx, const fs::path& folder,
                                    const LoaderOptions& options,
                                    std::span<const assetlib::ManifestEntry> entries,
                                    GpuScene& out) {
  std::vector<AssetError> errors;
  if (entries.empty()) return errors;
  UploadBatch batch(ctx, slot_size_for(entries, options), options.staging_slots);
  FolderSource source(folder);
  AssetLoader loader(ctx, batch, source, out, options.skip_mips);
  for (uint32_t id = 0; id < entries.size(); ++id) {
    // Each asset either lands in `out` whole or not at all: the loader adds it last, and copies
    // are recorded only once it has unpacked without error.
    try {
      loader.load(entries[id], id);
      out.sources.insert_or_assign(entries[id].name, entries[id]);
    } catch (const SampleError& e) {
      if (!is_asset_failure(e)) throw;
      errors.push_back({entries[id].name, e.what()});
    }
  }
  batch.finish();
  return errors;
}

}  // namespace sample
