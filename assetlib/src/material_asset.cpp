#include "legacy_vkguide.h"
#include "metadata.h"
#include "name_table.h"
#include "no_throw.h"

#include <assetlib/material_asset.h>

#include <array>
#include <cmath>

namespace assetlib {
namespace {

using detail::json;

constexpr std::array kAlphaModes = {std::pair{AlphaMode::Opaque, "OPAQUE"},
                                    std::pair{AlphaMode::Mask, "MASK"},
                                    std::pair{AlphaMode::Blend, "BLEND"}};

constexpr std::array kWraps = {std::pair{TextureWrap::Repeat, "repeat"},
                               std::pair{TextureWrap::ClampToEdge, "clamp_to_edge"},
                               std::pair{TextureWrap::MirroredRepeat, "mirrored_repeat"}};

// The slots in the order docs/format.md lists them, with their JSON keys.
template <typename Info>
auto slots(Info& m) {
  return std::array{std::pair{"base_color_texture", &m.base_color},
                    std::pair{"metallic_roughness_texture", &m.metallic_roughness},
                    std::pair{"normal_texture", &m.normal},
                    std::pair{"occlusion_texture", &m.occlusion},
                    std::pair{"emissive_texture", &m.emissive}};
}

json slot_to_json(const TextureSlot& t) {
  return {{"texture", t.texture},
          {"uv_set", t.uv_set},
          {"offset", {t.offset[0], t.offset[1]}},
          {"rotation", t.rotation},
          {"scale", {t.scale[0], t.scale[1]}},
          {"wrap", {texture_wrap_name(t.wrap_u), texture_wrap_name(t.wrap_v)}},
          {"filter", t.nearest ? "nearest" : "linear"}};
}

// The keys read from MATL metadata and from each texture slot, in the order pack_material writes
// them (nlohmann::json sorts keys).
constexpr detail::KeySet kMaterialKeys{"alpha_cutoff",
                                       "alpha_mode",
                                       "base_color_factor",
                                       "base_color_texture",
                                       "chunks",
                                       "compression",
                                       "double_sided",
                                       "emissive_factor",
                                       "emissive_strength",
                                       "emissive_texture",
                                       "metallic_factor",
                                       "metallic_roughness_texture",
                                       "name",
                                       "normal_scale",
                                       "normal_texture",
                                       "occlusion_strength",
                                       "occlusion_texture",
                                       "original_file",
                                       "roughness_factor",
                                       "unlit"};
constexpr detail::KeySet kSlotKeys{"filter",  "offset", "rotation", "scale",
                                   "texture", "uv_set", "wrap"};
using SlotMembers = detail::Members<kSlotKeys>;

// The slot's "wrap": two of repeat, clamp_to_edge, mirrored_repeat.
void read_wraps(detail::JsonReader& reader, const SlotMembers& slot, TextureSlot& t) {
  detail::JsonArray wrap = reader.array(slot["wrap"]);
  TextureWrap w[2] = {TextureWrap::Unknown, TextureWrap::Unknown};
  if (wrap.size() == 2) {
    size_t i = 0;
    for (detail::JsonValue v : wrap) {
      std::string_view name;
      if (detail::get_string(v, name)) w[i] = texture_wrap_from_name(name);
      ++i;
    }
  }
  if (reader.ok() && (w[0] == TextureWrap::Unknown || w[1] == TextureWrap::Unknown))
    reader.fail(ErrorCode::InvalidValue,
                "wrap must be two of repeat, clamp_to_edge, mirrored_repeat");
  t.wrap_u = w[0];
  t.wrap_v = w[1];
}

void read_slot(detail::JsonReader& reader, const detail::Member& member, TextureSlot& t) {
  SlotMembers slot(reader, reader.object(member));
  t.texture = reader.string(slot["texture"]);
  t.uv_set = reader.u32(slot["uv_set"]);
  reader.f32_array(slot["offset"], t.offset, 2);
  t.rotation = reader.f32(slot["rotation"]);
  reader.f32_array(slot["scale"], t.scale, 2);
  read_wraps(reader, slot, t);
  std::string_view filter = reader.string(slot["filter"]);
  t.nearest = filter == "nearest";
  if (reader.ok() && filter != "nearest" && filter != "linear")
    reader.fail(ErrorCode::InvalidValue, "filter must be linear or nearest");
  if (reader.ok() && t.uv_set > 1) reader.fail(ErrorCode::InvalidValue, "uv_set must be 0 or 1");
}

// Every float a material holds, for the writer's finiteness check.
bool all_finite(const MaterialInfo& m) {
  std::vector<float> values(m.base_color_factor, m.base_color_factor + 4);
  values.insert(values.end(), m.emissive_factor, m.emissive_factor + 3);
  values.insert(values.end(), {m.metallic_factor, m.roughness_factor, m.emissive_strength,
                               m.normal_scale, m.occlusion_strength, m.alpha_cutoff});
  for (const auto& [key, slot] : slots(m)) {
    values.insert(values.end(), {slot->offset[0], slot->offset[1], slot->rotation, slot->scale[0],
                                 slot->scale[1]});
  }
  for (float v : values) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

Status pack_material_throwing(const MaterialInfo& m, AssetFile& out) {
  auto invalid = [](const char* what) {
    return Status::error(ErrorCode::InvalidArgument, std::string("pack_material: ") + what);
  };
  if (!all_finite(m)) return invalid("a factor or texture transform is not finite");
  if (m.alpha_mode == AlphaMode::Unknown) return invalid("alpha_mode is Unknown");
  json meta = {
      {"name", m.name},
      {"base_color_factor",
       {m.base_color_factor[0], m.base_color_factor[1], m.base_color_factor[2],
        m.base_color_factor[3]}},
      {"metallic_factor", m.metallic_factor},
      {"roughness_factor", m.roughness_factor},
      {"emissive_factor", {m.emissive_factor[0], m.emissive_factor[1], m.emissive_factor[2]}},
      {"emissive_strength", m.emissive_strength},
      {"normal_scale", m.normal_scale},
      {"occlusion_strength", m.occlusion_strength},
      {"alpha_mode", alpha_mode_name(m.alpha_mode)},
      {"alpha_cutoff", m.alpha_cutoff},
      {"double_sided", m.double_sided},
      {"unlit", m.unlit},
      {"original_file", m.original_file}};
  for (const auto& [key, slot] : slots(m)) {
    if (slot->uv_set > 1) return invalid("a texture slot's uv_set is over 1");
    if (slot->wrap_u == TextureWrap::Unknown || slot->wrap_v == TextureWrap::Unknown)
      return invalid("a texture slot's wrap is Unknown");
    meta[key] = slot_to_json(*slot);
  }
  detail::write_no_blob(meta);
  return detail::finish_asset(out, "MATL", meta, {}, "pack_material");
}

// `info` as a default MaterialInfo that keeps the memory of its strings.
void reset_keeping_memory(MaterialInfo& info) {
  MaterialInfo fresh;
  fresh.name.swap(info.name);
  fresh.original_file.swap(info.original_file);
  auto kept = slots(info), cleared = slots(fresh);
  for (size_t i = 0; i < kept.size(); ++i) cleared[i].second->texture.swap(kept[i].second->texture);
  fresh.name.clear();
  fresh.original_file.clear();
  for (const auto& [key, slot] : cleared) slot->texture.clear();
  info = std::move(fresh);
}

size_t bytes_held(const MaterialInfo& info) {
  size_t bytes = info.name.capacity() + info.original_file.capacity();
  for (const auto& [key, slot] : slots(info)) bytes += slot->texture.capacity();
  return bytes;
}

// A legacy vkguide material: type "MATX" as vkguide writes it, or "MATL" with its keys.
Status read_legacy_material(detail::JsonValue meta, uint64_t blob_size, const char* context,
                            MaterialInfo& m) {
  m = MaterialInfo{};
  detail::JsonReader reader(context);
  detail::vkguide::read_material(reader, meta, blob_size, m);
  return reader.status();
}

// Fills `m` (reset first) from parsed MATL metadata.
Status read_material(detail::JsonValue meta, uint64_t blob_size, MaterialInfo& m) {
  detail::JsonReader reader("MATL metadata");
  detail::Members<kMaterialKeys> keys(reader, meta);
  // Legacy metadata has no "alpha_mode": only then is it worth looking for vkguide's keys.
  if (!keys["alpha_mode"].found() && detail::vkguide::is_material(meta))
    return read_legacy_material(meta, blob_size, "MATL metadata", m);
  reset_keeping_memory(m);
  m.name = reader.string(keys["name"]);
  reader.f32_array(keys["base_color_factor"], m.base_color_factor, 4);
  m.metallic_factor = reader.f32(keys["metallic_factor"]);
  m.roughness_factor = reader.f32(keys["roughness_factor"]);
  reader.f32_array(keys["emissive_factor"], m.emissive_factor, 3);
  m.emissive_strength = reader.f32(keys["emissive_strength"]);
  m.normal_scale = reader.f32(keys["normal_scale"]);
  m.occlusion_strength = reader.f32(keys["occlusion_strength"]);
  m.alpha_mode = reader.named(keys["alpha_mode"], alpha_mode_from_name);
  m.alpha_cutoff = reader.f32(keys["alpha_cutoff"]);
  m.double_sided = reader.boolean(keys["double_sided"]);
  m.unlit = reader.boolean(keys["unlit"]);
  m.original_file = reader.string(keys["original_file"]);
  // The slots in the order slots() lists them.
  read_slot(reader, keys["base_color_texture"], m.base_color);
  read_slot(reader, keys["metallic_roughness_texture"], m.metallic_roughness);
  read_slot(reader, keys["normal_texture"], m.normal);
  read_slot(reader, keys["occlusion_texture"], m.occlusion);
  read_slot(reader, keys["emissive_texture"], m.emissive);
  detail::read_no_blob(reader, keys["compression"], keys["chunks"], blob_size);
  return reader.status();
}

// Allocates nothing once this thread's parser and scratch info, and `info`, have grown.
Status read_material_info_throwing(const AssetView& file, MaterialInfo& info) {
  detail::ParsedJson meta;
  const bool matx = has_type(file, "MATX");
  Status parsed = matx ? detail::parse_metadata(file, "MATX", meta)
                       : detail::parse_metadata(file, "MATL", meta);
  if (!parsed) return parsed;
  return detail::read_reusing(info, bytes_held, [&](MaterialInfo& m) {
    return matx ? read_legacy_material(meta.root(), file.blob.size(), "MATX metadata", m)
                : read_material(meta.root(), file.blob.size(), m);
  });
}

}  // namespace

const char* alpha_mode_name(AlphaMode mode) { return detail::name_of(kAlphaModes, mode); }

AlphaMode alpha_mode_from_name(std::string_view name) {
  return detail::value_of(kAlphaModes, name);
}

const char* texture_wrap_name(TextureWrap wrap) { return detail::name_of(kWraps, wrap); }

TextureWrap texture_wrap_from_name(std::string_view name) { return detail::value_of(kWraps, name); }

Status pack_material(const MaterialInfo& info, AssetFile& out) {
  return detail::no_throw("pack_material", [&] { return pack_material_throwing(info, out); });
}

Status read_material_info(const AssetView& file, MaterialInfo& info) {
  return detail::no_throw("MATL metadata", [&] { return read_material_info_throwing(file, info); });
}

}  // namespace assetlib
