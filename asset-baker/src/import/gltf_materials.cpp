#include "import/gltf_materials.h"

#include "import/gltf_document.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string_view>

namespace baker {
namespace {

// A slot of a glTF material: where its textureInfo sits and the role it gives the image.
struct SlotSpec {
  const char* parent;  // "pbrMetallicRoughness" or "" for the material itself
  const char* key;
  TextureRole role;
  assetlib::TextureSlot assetlib::MaterialInfo::*slot;
};

constexpr std::array<SlotSpec, 5> kSlots = {{
    {"pbrMetallicRoughness", "baseColorTexture", TextureRole::Color,
     &assetlib::MaterialInfo::base_color},
    {"pbrMetallicRoughness", "metallicRoughnessTexture", TextureRole::Data,
     &assetlib::MaterialInfo::metallic_roughness},
    {"", "normalTexture", TextureRole::Normal, &assetlib::MaterialInfo::normal},
    {"", "occlusionTexture", TextureRole::Data, &assetlib::MaterialInfo::occlusion},
    {"", "emissiveTexture", TextureRole::Color, &assetlib::MaterialInfo::emissive},
}};

// The textureInfo of `spec` in `material` (at `path`, which is updated to its path), or nullptr.
const Json* texture_info(const Json& material, std::string& path, const SlotSpec& spec) {
  const Json* parent = &material;
  if (*spec.parent) {
    parent = &object_or_empty(material, path, spec.parent);
    path = json_path(path, spec.parent);
  }
  const Json* info = member(*parent, path, spec.key);
  path = json_path(path, spec.key);
  if (info && !info->is_object()) throw GltfError(path, "must be an object");
  return info;
}

// The image textures[index] shows, or nullopt when it has none glTF core can read.
std::optional<uint32_t> texture_image(const Json& root, uint32_t texture) {
  std::string path = json_path("textures", texture);
  return index_or_none(root["textures"][texture], path, "source", array_size(root, "images"),
                       "image");
}

assetlib::TextureWrap wrap_of(uint64_t gl, const std::string& path) {
  switch (gl) {
    case 10497: return assetlib::TextureWrap::Repeat;
    case 33071: return assetlib::TextureWrap::ClampToEdge;
    case 33648: return assetlib::TextureWrap::MirroredRepeat;
  }
  throw GltfError(path, "is not a wrap mode (10497, 33071 or 33648)");
}

// The filters glTF allows (the GL enums): magnification NEAREST or LINEAR; minification those
// and the four mipmap modes.
constexpr uint64_t kNearest = 9728, kLinear = 9729, kNearestMipmapNearest = 9984,
                   kLinearMipmapLinear = 9987;

// The sampler of textures[texture], if it has one.
std::optional<uint32_t> sampler_of(const Json& root, uint32_t texture) {
  return index_or_none(root["textures"][texture], json_path("textures", texture), "sampler",
                       array_size(root, "samplers"), "sampler");
}

// The wrapS and wrapT of the sampler `s` (at JSON path `sp`), repeat by default.
SlotSampling sampler_wrap(const Json& s, const std::string& sp) {
  return {wrap_of(uint_or(s, sp, "wrapS", 10497), json_path(sp, "wrapS")),
          wrap_of(uint_or(s, sp, "wrapT", 10497), json_path(sp, "wrapT")), std::nullopt};
}

// How textures[texture] wraps: as its sampler says; repeat without one.
SlotSampling texture_wrap(const Json& root, uint32_t texture) {
  std::optional<uint32_t> sampler = sampler_of(root, texture);
  if (!sampler) return {};
  return sampler_wrap(root["samplers"][*sampler], json_path("samplers", *sampler));
}

// The sampler settings of textures[texture] into `slot`. A minFilter that takes the nearest texel
// adds the sampler to `nearest_minification`: a material asset keeps magnification only, and
// minifies linearly through the mip chain.
void read_sampler(const Json& root, uint32_t texture, assetlib::TextureSlot& slot,
                  std::set<uint32_t>& nearest_minification) {
  std::optional<uint32_t> sampler = sampler_of(root, texture);
  if (!sampler) return;
  std::string sp = json_path("samplers", *sampler);
  const Json& s = root["samplers"][*sampler];
  const SlotSampling wrap = sampler_wrap(s, sp);
  slot.wrap_u = wrap.u;
  slot.wrap_v = wrap.v;
  const uint64_t mag = uint_or(s, sp, "magFilter", kLinear);
  if (mag != kNearest && mag != kLinear)
    throw GltfError(json_path(sp, "magFilter"), "is not a magnification filter (9728 or 9729)");
  slot.nearest = mag == kNearest;
  const uint64_t min = uint_or(s, sp, "minFilter", kLinearMipmapLinear);
  if (min != kNearest && min != kLinear &&
      (min < kNearestMipmapNearest || min > kLinearMipmapLinear))
    throw GltfError(json_path(sp, "minFilter"),
                    "is not a minification filter (9728, 9729 or 9984..9987)");
  // NEAREST_MIPMAP_LINEAR (old exporters' default) blends levels, close to the trilinear filter
  // engines use; NEAREST and NEAREST_MIPMAP_NEAREST ask for the blocky look of pixel art.
  if (min == kNearest || min == kNearestMipmapNearest) nearest_minification.insert(*sampler);
}

// KHR_texture_transform of a textureInfo, and its texCoord override.
void read_transform(const Json& info, const std::string& path, assetlib::TextureSlot& slot) {
  const Json& ext = object_or_empty(object_or_empty(info, path, "extensions"),
                                    json_path(path, "extensions"), "KHR_texture_transform");
  std::string tp = json_path(path, "extensions.KHR_texture_transform");
  numbers(ext, tp, "offset", slot.offset, 2);
  slot.rotation = float(number_or(ext, tp, "rotation", 0));
  numbers(ext, tp, "scale", slot.scale, 2);
  slot.uv_set = uint32_t(std::min<uint64_t>(uint_or(ext, tp, "texCoord", slot.uv_set), UINT32_MAX));
}

// glTF's ranges for material factors (its schema's minimum and maximum). A value outside is not
// valid glTF, yet exporters write such values (a roughness of 1.2, an emissive factor of 5 for a
// bright light), and an engine would shade with them as given: each is clamped into its range
// and named in one warning per material.
class FactorRanges {
 public:
  float unit(double value, const std::string& where) { return clamped(value, 0, 1, where); }
  float not_negative(double value, const std::string& where) {
    return clamped(value, 0, HUGE_VALF, where);
  }
  void unit(float* values, size_t count, const std::string& where) {
    for (size_t i = 0; i < count; ++i) values[i] = unit(values[i], json_path(where, i));
  }
  void warn(const std::string& source, const std::string& material,
            std::vector<std::string>& warnings) const {
    if (clamped_.empty()) return;
    std::string list;
    for (const std::string& c : clamped_) list += (list.empty() ? "" : ", ") + c;
    warnings.push_back(source + ": " + material + ": outside glTF's range, clamped: " + list);
  }

 private:
  // Judged on the float the material holds: 1.0000000000000002 is 1.
  float clamped(double value, float low, float high, const std::string& where) {
    const float as_read = float(value), in_range = std::clamp(as_read, low, high);
    if (in_range != as_read) clamped_.push_back(where + " " + number_text(as_read));
    return in_range;
  }
  static std::string number_text(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", double(value));
    return text;
  }
  std::vector<std::string> clamped_;
};

// The cutoff a masked material tests its base colour texture's alpha against: the material's,
// divided by the alpha of the base colour factor, which multiplies the texture's (both within
// glTF's ranges, as read_material takes them). nullopt for a material that is not masked, and
// where the test keeps or drops every texel.
std::optional<float> masked_cutoff(const Json& material, const std::string& path) {
  if (string_or(material, path, "alphaMode", "OPAQUE") != "MASK") return std::nullopt;
  float factor[4] = {1, 1, 1, 1};
  const Json& pbr = object_or_empty(material, path, "pbrMetallicRoughness");
  numbers(pbr, json_path(path, "pbrMetallicRoughness"), "baseColorFactor", factor, 4);
  FactorRanges ranges;
  return masked_texture_cutoff(
      ranges.not_negative(number_or(material, path, "alphaCutoff", 0.5), "alphaCutoff"),
      ranges.unit(factor[3], "baseColorFactor"));
}

assetlib::TextureSlot read_slot(const Json& root, const Json& info, const std::string& path,
                                TextureRole role, const std::string& source,
                                const GltfTextureName& texture_name,
                                std::set<uint32_t>& nearest_minification,
                                std::vector<std::string>& warnings) {
  assetlib::TextureSlot slot;
  uint32_t texture = index_of(info, path, "index", array_size(root, "textures"), "texture");
  slot.uv_set = uint32_t(std::min<uint64_t>(uint_or(info, path, "texCoord", 0), UINT32_MAX));
  read_transform(info, path, slot);
  read_sampler(root, texture, slot, nearest_minification);
  if (slot.uv_set > 1) {
    warnings.push_back(source + ": " + path + " samples TEXCOORD_" + std::to_string(slot.uv_set) +
                       "; only sets 0 and 1 are baked, so it samples set 0");
    slot.uv_set = 0;
  }
  std::optional<uint32_t> image = texture_image(root, texture);
  std::string why;
  std::optional<std::string> name = image ? texture_name(*image, role, why) : std::nullopt;
  if (!name) {
    warnings.push_back(
        source + ": " + path + ": texture " + std::to_string(texture) +
        (image ? ": images[" + std::to_string(*image) + "] " + why : " has no PNG or JPEG image") +
        "; slot left untextured");
    return {};
  }
  slot.texture = *name;
  return slot;
}

assetlib::MaterialInfo read_material(const Json& root, size_t index, const std::string& source,
                                     const GltfTextureName& texture_name,
                                     std::set<uint32_t>& nearest_minification,
                                     std::vector<std::string>& warnings) {
  std::string path = json_path("materials", index);
  const Json& m = root["materials"][index];
  assetlib::MaterialInfo out;
  out.original_file = source;
  out.name = string_or(m, path, "name", "");
  const Json& pbr = object_or_empty(m, path, "pbrMetallicRoughness");
  std::string pp = json_path(path, "pbrMetallicRoughness");
  FactorRanges ranges;
  numbers(pbr, pp, "baseColorFactor", out.base_color_factor, 4);
  ranges.unit(out.base_color_factor, 4, "pbrMetallicRoughness.baseColorFactor");
  out.metallic_factor =
      ranges.unit(number_or(pbr, pp, "metallicFactor", 1), "pbrMetallicRoughness.metallicFactor");
  out.roughness_factor =
      ranges.unit(number_or(pbr, pp, "roughnessFactor", 1), "pbrMetallicRoughness.roughnessFactor");
  numbers(m, path, "emissiveFactor", out.emissive_factor, 3);
  ranges.unit(out.emissive_factor, 3, "emissiveFactor");
  std::string mode = string_or(m, path, "alphaMode", "OPAQUE");
  out.alpha_mode = assetlib::alpha_mode_from_name(mode);
  if (out.alpha_mode == assetlib::AlphaMode::Unknown)
    throw GltfError(json_path(path, "alphaMode"), "'" + mode + "' is not OPAQUE, MASK or BLEND");
  out.alpha_cutoff = ranges.not_negative(number_or(m, path, "alphaCutoff", 0.5), "alphaCutoff");
  out.double_sided = bool_or(m, path, "doubleSided", false);
  const Json& ext = object_or_empty(m, path, "extensions");
  std::string ep = json_path(path, "extensions");
  out.unlit = member(ext, ep, "KHR_materials_unlit") != nullptr;
  out.emissive_strength = ranges.not_negative(
      number_or(object_or_empty(ext, ep, "KHR_materials_emissive_strength"),
                json_path(ep, "KHR_materials_emissive_strength"), "emissiveStrength", 1),
      "extensions.KHR_materials_emissive_strength.emissiveStrength");
  for (const SlotSpec& spec : kSlots) {
    std::string slot_path = path;
    const Json* info = texture_info(m, slot_path, spec);
    if (!info) continue;
    assetlib::TextureSlot& slot = out.*spec.slot;
    slot = read_slot(root, *info, slot_path, spec.role, source, texture_name, nearest_minification,
                     warnings);
    if (spec.role == TextureRole::Normal)
      out.normal_scale = float(number_or(*info, slot_path, "scale", 1));
    if (spec.slot == &assetlib::MaterialInfo::occlusion) {
      out.occlusion_strength =
          ranges.unit(number_or(*info, slot_path, "strength", 1), "occlusionTexture.strength");
    }
  }
  ranges.warn(source, path, warnings);
  return out;
}

}  // namespace

std::vector<GltfImageUse> gltf_image_uses(const Json& root) {
  std::vector<GltfImageUse> uses;
  const Json& materials = array_or_empty(root, "", "materials");
  for (size_t i = 0; i < materials.size(); ++i) {
    for (const SlotSpec& spec : kSlots) {
      std::string path = json_path("materials", i);
      const Json* info = texture_info(materials[i], path, spec);
      if (!info) continue;
      uint32_t texture = index_of(*info, path, "index", array_size(root, "textures"), "texture");
      std::optional<uint32_t> image = texture_image(root, texture);
      if (!image) continue;
      SlotSampling sampling = texture_wrap(root, texture);
      if (spec.slot == &assetlib::MaterialInfo::base_color)
        sampling.alpha_cutoff = masked_cutoff(materials[i], json_path("materials", i));
      uses.push_back({*image, spec.role, sampling});
    }
  }
  return uses;
}

namespace {

// The JSON text of a .gltf (the whole file) or .glb (its first chunk, when the header is sound;
// else the whole file).
std::string_view json_text(std::span<const std::byte> bytes) {
  std::string_view all(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (all.size() < 20 || all.substr(0, 4) != "glTF") return all;
  uint32_t length = 0;
  std::memcpy(&length, all.data() + 12, 4);
  if (all.substr(16, 4) != "JSON" || length > all.size() - 20) return all;
  return all.substr(20, length);
}

// False only when the JSON cannot name an image: no "images" key, literally or with \u escapes
// (the one escape that spells letters). The texture plan then skips parsing a file that its bake
// parses anyway.
bool may_name_images(std::string_view json) {
  return json.find("\"images\"") != std::string_view::npos ||
         json.find("\\u") != std::string_view::npos;
}

}  // namespace

std::vector<ImageUse> gltf_texture_references(std::span<const std::byte> bytes,
                                              const std::string& source) {
  std::vector<ImageUse> references;
  if (!may_name_images(json_text(bytes))) return references;
  try {
    Json root;
    std::optional<std::span<const std::byte>> bin;
    parse_gltf_container(bytes, root, bin);
    for (const GltfImageUse& use : gltf_image_uses(root)) {
      std::string path = json_path("images", use.image);
      std::string uri = string_or(root["images"][use.image], path, "uri", "");
      std::string why;
      std::optional<std::string> file =
          uri.empty() || is_data_uri(uri) ? std::nullopt : resolve_gltf_uri(source, uri, why);
      if (file) references.push_back({*file, use.role, use.sampling});
    }
  } catch (const GltfError&) {
    return {};
  }
  return references;
}

std::vector<assetlib::MaterialInfo> gltf_materials(const Json& root, const std::string& source,
                                                   const GltfTextureName& texture_name,
                                                   std::vector<std::string>& warnings) {
  std::vector<assetlib::MaterialInfo> out;
  std::set<uint32_t> nearest_minification;
  const Json& materials = array_or_empty(root, "", "materials");
  for (size_t i = 0; i < materials.size(); ++i)
    out.push_back(read_material(root, i, source, texture_name, nearest_minification, warnings));
  if (!nearest_minification.empty()) {
    std::string list;
    for (uint32_t s : nearest_minification) list += (list.empty() ? "" : ", ") + std::to_string(s);
    warnings.push_back(source + ": samplers " + list +
                       ": minFilter takes the nearest texel; baked materials keep magFilter only "
                       "and minify linearly through the mip chain");
  }
  return out;
}

bool samples_uv_set(const assetlib::MaterialInfo& m, uint32_t uv_set) {
  for (const assetlib::TextureSlot* s :
       {&m.base_color, &m.metallic_roughness, &m.normal, &m.occlusion, &m.emissive}) {
    if (!s->texture.empty() && s->uv_set == uv_set) return true;
  }
  return false;
}

}  // namespace baker
