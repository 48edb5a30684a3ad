#include "render/material_bindings.h"

#include "vk/descriptor_sets.h"
#include "vk/vk_check.h"
#include "vk/vulkan_context.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace sample {
namespace {

// A material made from a mesh's own summary (meshes baked without MATL assets): a rough
// dielectric in the summary's diffuse colour.
assetlib::MaterialInfo from_summary(const assetlib::MeshMaterial& summary) {
  assetlib::MaterialInfo info;
  info.name = summary.name;
  std::copy(std::begin(summary.base_color), std::end(summary.base_color), info.base_color_factor);
  info.metallic_factor = 0;
  info.roughness_factor = 0.8f;
  // See-through colour blends; an opaque one still cuts out where its texture's alpha is low.
  info.alpha_mode =
      summary.base_color[3] < 1 ? assetlib::AlphaMode::Blend : assetlib::AlphaMode::Mask;
  info.base_color.texture = summary.base_color_texture;
  info.normal.texture = summary.normal_texture;
  return info;
}

// The slots in binding order (mesh.frag's set 1, bindings 0..4).
template <typename Material>
auto& slot(Material& m, uint32_t i) {
  switch (i) {
    case 0: return m.base_color;
    case 1: return m.metallic_roughness;
    case 2: return m.normal;
    case 3: return m.occlusion;
    default: return m.emissive;
  }
}
constexpr const char* kSlotNames[kMaterialTextureSlots] = {"base_color", "metallic_roughness",
                                                           "normal", "occlusion", "emissive"};

// glTF's KHR_texture_transform as two rows: uv' = offset + R(rotation) * (scale * uv), with
// R = [[cos, sin], [-sin, cos]] (material_asset.h).
void write_uv_transform(const assetlib::TextureSlot& s, float rows[2][4]) {
  float c = std::cos(s.rotation), n = std::sin(s.rotation);
  float r0[4] = {c * s.scale[0], n * s.scale[1], s.offset[0], static_cast<float>(s.uv_set)};
  float r1[4] = {-n * s.scale[0], c * s.scale[1], s.offset[1], 0};
  std::memcpy(rows[0], r0, sizeof r0);
  std::memcpy(rows[1], r1, sizeof r1);
}

MaterialParams params_of(const assetlib::MaterialInfo& m) {
  MaterialParams p{};
  std::copy(std::begin(m.base_color_factor), std::end(m.base_color_factor), p.base_color);
  for (int i = 0; i < 3; ++i) p.emissive[i] = m.emissive_factor[i] * m.emissive_strength;
  p.surface[0] = m.metallic_factor;
  p.surface[1] = m.roughness_factor;
  p.surface[2] = m.normal_scale;
  p.surface[3] = m.occlusion_strength;
  p.alpha[0] = m.alpha_mode == assetlib::AlphaMode::Mask    ? 1.0f
               : m.alpha_mode == assetlib::AlphaMode::Blend ? 2.0f
                                                            : 0.0f;
  p.alpha[1] = m.alpha_cutoff;
  p.alpha[2] = m.unlit ? 1.0f : 0.0f;
  for (uint32_t i = 0; i < kMaterialTextureSlots; ++i)
    write_uv_transform(slot(m, i), p.uv_transform[i]);
  return p;
}

VkSamplerAddressMode address_mode(assetlib::TextureWrap wrap) {
  switch (wrap) {
    case assetlib::TextureWrap::ClampToEdge: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case assetlib::TextureWrap::MirroredRepeat: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    default: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
  }
}

}  // namespace

MaterialBindings::MaterialBindings(const VulkanContext& ctx, const GpuScene& scene)
    : ctx_(ctx), scene_(scene) {}

MaterialBindings::~MaterialBindings() {
  VkDevice device = ctx_.device();
  if (pool_) vkDestroyDescriptorPool(device, pool_, nullptr);  // frees its sets
  for (auto& [key, sampler] : samplers_) vkDestroySampler(device, sampler, nullptr);
}

uint32_t MaterialBindings::resolve(const std::string& name, const assetlib::MeshMaterial& summary,
                                   const std::string& user) {
  if (!name.empty()) {
    auto found = scene_.materials.find(name);
    if (found != scene_.materials.end()) return add(found->second, name, user);
    if (warned_.insert("material\n" + name).second) {
      std::fprintf(stderr,
                   "warning: %s: material '%s' is not in the baked folder; using the mesh's own "
                   "material summary\n",
                   user.c_str(), name.c_str());
    }
  }
  return add(from_summary(summary), user, user);
}

uint32_t MaterialBindings::add(assetlib::MaterialInfo info, const std::string& key,
                               const std::string& user) {
  auto found = by_key_.find(key);
  if (found != by_key_.end()) return found->second;
  for (uint32_t i = 0; i < kMaterialTextureSlots; ++i)
    check_texture(slot(info, i), kSlotNames[i], user);
  auto index = static_cast<uint32_t>(materials_.size());
  materials_.push_back(std::move(info));
  by_key_.emplace(key, index);
  return index;
}

// A texture the folder lacks is dropped from the slot (the stand-in is sampled), with a warning.
void MaterialBindings::check_texture(assetlib::TextureSlot& slot, const char* slot_name,
                                     const std::string& user) {
  if (slot.texture.empty() || scene_.textures.contains(slot.texture)) return;
  if (warned_.insert("texture\n" + slot.texture).second) {
    std::fprintf(stderr,
                 "warning: %s: %s texture '%s' is not in the baked folder; using a stand-in\n",
                 user.c_str(), slot_name, slot.texture.c_str());
  }
  slot.texture.clear();
}

VkSampler MaterialBindings::sampler(const assetlib::TextureSlot& slot, VkFormat format) {
  // Linear filtering is optional per format: without it, nearest. Minification stays linear where
  // the format allows: "nearest" is about magnified pixel art.
  bool filterable =
      has_format_features(ctx_, format, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
  VkFilter min = filterable ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  VkFilter mag = filterable && !slot.nearest ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  SamplerKey key{slot.wrap_u, slot.wrap_v, mag, min};
  auto found = samplers_.find(key);
  if (found != samplers_.end()) return found->second;
  VkSamplerCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  info.magFilter = mag;
  info.minFilter = min;
  info.mipmapMode = info.minFilter == VK_FILTER_LINEAR ? VK_SAMPLER_MIPMAP_MODE_LINEAR
                                                       : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = address_mode(slot.wrap_u);
  info.addressModeV = address_mode(slot.wrap_v);
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  // Every baked mip is used; no anisotropy, which would need an optional device feature.
  info.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler = VK_NULL_HANDLE;
  vk_check(vkCreateSampler(ctx_.device(), &info, nullptr, &sampler), "vkCreateSampler");
  samplers_.emplace(key, sampler);
  return sampler;
}

void MaterialBindings::upload(VkDescriptorSetLayout layout) {
  // A scene without meshes still binds nothing but must not create empty Vulkan objects.
  auto count = static_cast<uint32_t>(materials_.size());
  if (count == 0) return;
  params_ = GpuBuffer(ctx_, sizeof(MaterialParams) * count, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                      MemoryUse::Upload, "material factors");
  auto* out = reinterpret_cast<MaterialParams*>(params_.mapped());
  for (uint32_t i = 0; i < count; ++i) out[i] = params_of(materials_[i]);
  params_.flush(0, params_.size());

  sets_.resize(count);
  pool_ = allocate_descriptor_sets(ctx_, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                   kMaterialTextureSlots, layout, sets_);
  for (uint32_t i = 0; i < count; ++i) write_set(i);
}

void MaterialBindings::write_set(uint32_t material) {
  const assetlib::MaterialInfo& m = materials_[material];
  ctx_.set_name(VK_OBJECT_TYPE_DESCRIPTOR_SET, sets_[material], "material " + m.name);
  VkDescriptorImageInfo images[kMaterialTextureSlots]{};
  VkWriteDescriptorSet writes[kMaterialTextureSlots]{};
  for (uint32_t i = 0; i < kMaterialTextureSlots; ++i) {
    const assetlib::TextureSlot& s = slot(m, i);
    const GpuImage& fallback = i == 2 ? scene_.flat_normal : scene_.white;
    const GpuImage& image =
        s.texture.empty() ? fallback : scene_.textures.find(s.texture)->second.image;
    images[i] = {sampler(s, image.desc().format), image.view(),
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = sets_[material];
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[i].pImageInfo = &images[i];
  }
  vkUpdateDescriptorSets(ctx_.device(), kMaterialTextureSlots, writes, 0, nullptr);
}

}  // namespace sample
