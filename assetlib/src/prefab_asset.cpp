#include "legacy_vkguide.h"
#include "metadata.h"
#include "name_table.h"
#include "no_throw.h"

#include <assetlib/prefab_asset.h>
#include <assetlib/skeleton_asset.h>

#include <array>
#include <cmath>
#include <cstring>

namespace assetlib {
namespace {

using detail::json;

constexpr std::array kCameraTypes = {std::pair{CameraType::Perspective, "perspective"},
                                     std::pair{CameraType::Orthographic, "orthographic"}};
constexpr std::array kLightTypes = {std::pair{LightType::Directional, "directional"},
                                    std::pair{LightType::Point, "point"},
                                    std::pair{LightType::Spot, "spot"}};

json floats(const float* v, size_t n) { return json(std::vector<float>(v, v + n)); }

json node_to_json(const PrefabNode& n) {
  json instances = json::array();
  for (const PrefabInstance& i : n.instances) {
    std::vector<float> trs(i.translation, i.translation + 3);
    trs.insert(trs.end(), i.rotation, i.rotation + 4);
    trs.insert(trs.end(), i.scale, i.scale + 3);
    instances.push_back(trs);
  }
  return {{"name", n.name},
          {"parent", n.parent},
          {"matrix", n.has_matrix ? floats(n.matrix, 16) : json::array()},
          {"translation", floats(n.translation, 3)},
          {"rotation", floats(n.rotation, 4)},
          {"scale", floats(n.scale, 3)},
          {"mesh", n.mesh},
          {"materials", n.materials},
          {"skin", n.skin},
          {"camera", n.camera},
          {"light", n.light},
          {"instances", instances}};
}

json camera_to_json(const PrefabCamera& c) {
  return {{"name", c.name},   {"type", camera_type_name(c.type)},
          {"yfov", c.yfov},   {"aspect", c.aspect},
          {"xmag", c.xmag},   {"ymag", c.ymag},
          {"znear", c.znear}, {"zfar", c.zfar}};
}

json light_to_json(const PrefabLight& l) {
  return {{"name", l.name},
          {"type", light_type_name(l.type)},
          {"color", floats(l.color, 3)},
          {"intensity", l.intensity},
          {"range", l.range},
          {"inner_cone_angle", l.inner_cone_angle},
          {"outer_cone_angle", l.outer_cone_angle}};
}

// An array of exactly `count` finite numbers, read into `out`.
void read_floats(detail::JsonReader& reader, detail::JsonArray values, float* out, size_t count,
                 const char* what) {
  if (!reader.ok()) return;
  if (values.size() != count) {
    reader.fail(ErrorCode::InvalidValue,
                std::string(what) + " must hold " + std::to_string(count) + " numbers");
    return;
  }
  size_t k = 0;
  for (detail::JsonValue v : values) {
    double value = 0;
    if (!detail::get_double(v, value) || !detail::is_finite_float(value)) {
      reader.fail(ErrorCode::InvalidValue, std::string(what) + " must hold finite floats");
      return;
    }
    out[k++] = float(value);
  }
}

void read_node(detail::JsonReader& reader, detail::JsonValue j, int32_t index, int32_t cameras,
               int32_t lights, PrefabNode& n) {
  n.name = reader.string(j, "name");
  n.parent = reader.i32(j, "parent", -1, index - 1);
  detail::JsonArray matrix = reader.array(j, "matrix");
  n.has_matrix = !matrix.empty();
  if (n.has_matrix) read_floats(reader, matrix, n.matrix, 16, "a node's matrix");
  reader.f32_array(j, "translation", n.translation, 3);
  reader.f32_array(j, "rotation", n.rotation, 4);
  reader.f32_array(j, "scale", n.scale, 3);
  n.mesh = reader.string(j, "mesh");
  for (detail::JsonValue m : reader.entries(j, "materials")) {
    if (!reader.ok()) return;
    std::string_view material;
    if (!detail::get_string(m, material))
      return reader.fail(ErrorCode::WrongKeyType, "materials must be strings");
    n.materials.emplace_back(material);
  }
  // Optional: prefabs baked before skins have no "skin".
  n.skin = reader.optional_string(j, "skin", "");
  n.camera = reader.i32(j, "camera", -1, cameras - 1);
  n.light = reader.i32(j, "light", -1, lights - 1);
  for (detail::JsonValue i : reader.entries(j, "instances")) {
    float trs[10];
    read_floats(reader, detail::JsonArray::of(i), trs, 10, "an instance");
    if (!reader.ok()) return;
    PrefabInstance instance;
    std::memcpy(instance.translation, trs, sizeof instance.translation);
    std::memcpy(instance.rotation, trs + 3, sizeof instance.rotation);
    std::memcpy(instance.scale, trs + 7, sizeof instance.scale);
    n.instances.push_back(instance);
  }
}

void read_camera(detail::JsonReader& reader, detail::JsonValue j, PrefabCamera& c) {
  c.name = reader.string(j, "name");
  c.type = reader.named(j, "type", camera_type_from_name);
  c.yfov = reader.f32(j, "yfov");
  c.aspect = reader.f32(j, "aspect");
  c.xmag = reader.f32(j, "xmag");
  c.ymag = reader.f32(j, "ymag");
  c.znear = reader.f32(j, "znear");
  c.zfar = reader.f32(j, "zfar");
}

void read_light(detail::JsonReader& reader, detail::JsonValue j, PrefabLight& l) {
  l.name = reader.string(j, "name");
  l.type = reader.named(j, "type", light_type_from_name);
  reader.f32_array(j, "color", l.color, 3);
  l.intensity = reader.f32(j, "intensity");
  l.range = reader.f32(j, "range");
  l.inner_cone_angle = reader.f32(j, "inner_cone_angle");
  l.outer_cone_angle = reader.f32(j, "outer_cone_angle");
}

// "clips": optional (prefabs baked before clips have none), an array of strings.
void read_clip_names(detail::JsonReader& reader, detail::JsonValue meta,
                     std::vector<std::string>& clips) {
  if (!reader.ok() || !detail::has_key(meta, "clips")) return;
  for (detail::JsonValue c : reader.entries(meta, "clips")) {
    std::string_view name;
    if (!detail::get_string(c, name))
      return reader.fail(ErrorCode::WrongKeyType, "clips must be strings");
    clips.emplace_back(name);
  }
}

// Prefabs are read once per scene, not per asset: built in a PrefabInfo of their own (allocating),
// then moved into `info`.
Status read_prefab_info_throwing(const AssetView& file, PrefabInfo& info) {
  detail::ParsedJson parsed;
  if (Status s = detail::parse_metadata(file, "PRFB", parsed); !s) return s;
  detail::JsonValue meta = parsed.root();
  detail::JsonReader reader("PRFB metadata");
  PrefabInfo p;
  if (detail::vkguide::is_prefab(meta)) {
    detail::vkguide::read_prefab(reader, meta, file.blob, p);
    if (!reader.ok()) return reader.status();
    info = std::move(p);
    return {};
  }
  p.original_file = reader.string(meta, "original_file");
  for (detail::JsonValue c : reader.entries(meta, "cameras")) {
    if (!reader.ok()) break;
    read_camera(reader, c, p.cameras.emplace_back());
  }
  for (detail::JsonValue l : reader.entries(meta, "lights")) {
    if (!reader.ok()) break;
    read_light(reader, l, p.lights.emplace_back());
  }
  read_clip_names(reader, meta, p.clips);
  int32_t index = 0;
  for (detail::JsonValue node : reader.entries(meta, "nodes")) {
    if (!reader.ok()) break;
    read_node(reader, node, index++, int32_t(p.cameras.size()), int32_t(p.lights.size()),
              p.nodes.emplace_back());
  }
  detail::read_no_blob(reader, meta, file.blob.size());
  if (!reader.ok()) return reader.status();
  info = std::move(p);
  return {};
}

// What read_prefab_info checks, for the writer: it must not write what readers refuse.
Status check_prefab(const PrefabInfo& p) {
  auto invalid = [](const std::string& what) {
    return Status::error(ErrorCode::InvalidArgument, "pack_prefab: " + what);
  };
  if (p.nodes.size() > detail::kMaxArrayEntries || p.cameras.size() > detail::kMaxArrayEntries ||
      p.lights.size() > detail::kMaxArrayEntries || p.clips.size() > detail::kMaxArrayEntries) {
    return invalid("more than 2^20 nodes, cameras, lights or clips");
  }
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    const PrefabNode& n = p.nodes[i];
    std::string where = "node " + std::to_string(i);
    if (n.parent < -1 || n.parent >= int32_t(i)) return invalid(where + ": parent is not earlier");
    if (n.camera < -1 || n.camera >= int32_t(p.cameras.size()))
      return invalid(where + ": camera out of range");
    if (n.light < -1 || n.light >= int32_t(p.lights.size()))
      return invalid(where + ": light out of range");
  }
  for (const PrefabCamera& c : p.cameras) {
    if (c.type == CameraType::Unknown) return invalid("a camera's type is Unknown");
  }
  for (const PrefabLight& l : p.lights) {
    if (l.type == LightType::Unknown) return invalid("a light's type is Unknown");
  }
  return {};
}

Status pack_prefab_throwing(const PrefabInfo& p, AssetFile& out) {
  if (Status s = check_prefab(p); !s) return s;
  json nodes = json::array(), cameras = json::array(), lights = json::array();
  for (const PrefabNode& n : p.nodes) nodes.push_back(node_to_json(n));
  for (const PrefabCamera& c : p.cameras) cameras.push_back(camera_to_json(c));
  for (const PrefabLight& l : p.lights) lights.push_back(light_to_json(l));
  json meta = {{"nodes", std::move(nodes)},
               {"cameras", std::move(cameras)},
               {"lights", std::move(lights)},
               {"clips", p.clips},
               {"original_file", p.original_file}};
  // Finiteness, as the reader checks it: a round trip through the reader's own code.
  AssetFile candidate;
  detail::write_no_blob(meta);
  if (Status s = detail::finish_asset(candidate, "PRFB", meta, {}, "pack_prefab"); !s) return s;
  PrefabInfo reread;
  if (Status s = read_prefab_info_throwing(candidate, reread); !s) {
    return Status::error(ErrorCode::InvalidArgument, "pack_prefab: " + s.message);
  }
  out = std::move(candidate);
  return {};
}

}  // namespace

const char* camera_type_name(CameraType type) { return detail::name_of(kCameraTypes, type); }
CameraType camera_type_from_name(std::string_view name) {
  return detail::value_of(kCameraTypes, name);
}
const char* light_type_name(LightType type) { return detail::name_of(kLightTypes, type); }
LightType light_type_from_name(std::string_view name) {
  return detail::value_of(kLightTypes, name);
}

void prefab_local_matrix(const PrefabNode& n, float m[16]) {
  if (n.has_matrix) {
    std::memcpy(m, n.matrix, sizeof n.matrix);
    return;
  }
  NodePose pose;
  std::memcpy(pose.translation, n.translation, sizeof pose.translation);
  std::memcpy(pose.rotation, n.rotation, sizeof pose.rotation);
  std::memcpy(pose.scale, n.scale, sizeof pose.scale);
  node_pose_matrix(pose, m);
}

Status pack_prefab(const PrefabInfo& info, AssetFile& out) {
  return detail::no_throw("pack_prefab", [&] { return pack_prefab_throwing(info, out); });
}

Status read_prefab_info(const AssetView& file, PrefabInfo& info) {
  return detail::no_throw("PRFB metadata", [&] { return read_prefab_info_throwing(file, info); });
}

}  // namespace assetlib
