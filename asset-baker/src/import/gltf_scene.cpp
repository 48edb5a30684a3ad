#include "import/gltf_scene.h"

#include "import/gltf_morph.h"
#include "import/gltf_transforms.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

namespace baker {
namespace {

// The nodes a prefab may hold (assetlib's array limit): nodes shared by several parents are
// instanced under each, and a file can make that grow exponentially.
constexpr size_t kMaxPrefabNodes = size_t(1) << 20;

// Instancing may multiply a file's nodes by this much (plus kSpareInstances) before the file is
// refused: a prefab node costs a few hundred bytes, so 40 nodes that double at each level must not
// reach the 2^20 nodes of kMaxPrefabNodes (400 MB) first.
constexpr size_t kMaxInstancing = 16, kSpareInstances = 4096;

// The root nodes of the default scene; a file without scenes gives the nodes no node lists as a
// child.
std::vector<uint32_t> scene_roots(const Json& root, const std::string& source,
                                  std::vector<std::string>& warnings) {
  size_t scenes = array_size(root, "scenes"), count = array_size(root, "nodes");
  std::vector<uint32_t> roots;
  // "scene" must name one of "scenes", also when there are none.
  std::optional<uint32_t> scene = index_or_none(root, "", "scene", scenes, "scene");
  if (scenes == 0) {
    std::vector<bool> child(count, false);
    for (size_t n = 0; n < count; ++n) {
      std::string path = json_path("nodes", n);
      const Json& children = array_or_empty(root["nodes"][n], path, "children");
      for (size_t c = 0; c < children.size(); ++c)
        child[index_value(children[c], json_path(json_path(path, "children"), c), count, "node")] =
            true;
    }
    for (uint32_t n = 0; n < count; ++n) {
      if (!child[n]) roots.push_back(n);
    }
    if (count > 0) warnings.push_back(source + ": no scene; the prefab holds every root node");
    return roots;
  }
  if (scenes > 1) {
    warnings.push_back(source + ": " + std::to_string(scenes - 1) +
                       " scene(s) besides the default one not baked");
  }
  std::string path = json_path("scenes", scene.value_or(0));
  const Json& nodes = array_or_empty(root["scenes"][scene.value_or(0)], path, "nodes");
  for (size_t i = 0; i < nodes.size(); ++i)
    roots.push_back(index_value(nodes[i], json_path(json_path(path, "nodes"), i), count, "node"));
  return roots;
}

// EXT_mesh_gpu_instancing: TRANSLATION, ROTATION, SCALE accessors of one count, every value
// finite. Rotations are floats or normalized signed bytes or shorts (the extension's rule: an
// integer or unsigned quaternion is no rotation a renderer can use) and are made unit as node
// rotations are; `renormalised` counts the float ones more than 1e-3 off (quantised ones cannot be
// exactly unit). Integer translations and scales, outside the extension's float rule, are read
// as their values, as viewers read them.
std::vector<assetlib::PrefabInstance> read_instances(GltfData& data, const Json& node,
                                                     const std::string& path,
                                                     size_t& renormalised) {
  const Json& ext = object_or_empty(object_or_empty(node, path, "extensions"),
                                    json_path(path, "extensions"), "EXT_mesh_gpu_instancing");
  if (ext.empty()) return {};
  std::string ep = json_path(path, "extensions.EXT_mesh_gpu_instancing.attributes");
  const Json& attributes =
      object_or_empty(ext, json_path(path, "extensions.EXT_mesh_gpu_instancing"), "attributes");
  const Json& doc = data.document().json;
  std::vector<assetlib::PrefabInstance> out;
  bool quantised_rotations = false;
  auto read = [&](const char* name, const char* type, size_t offset, size_t n) {
    std::optional<uint32_t> accessor =
        index_or_none(attributes, ep, name, array_size(doc, "accessors"), "accessor");
    if (!accessor) return;
    std::string ap = json_path(ep, name);
    AccessorValues values = data.floats(*accessor, ap, {type});
    if (n == 4) {
      const uint32_t component = values.component_type;
      quantised_rotations = values.normalized && (component == 5120 || component == 5122);
      if (component != kFloatComponent && !quantised_rotations) {
        throw GltfError(ap, "accessor " + std::to_string(*accessor) + " has componentType " +
                                std::to_string(component) +
                                (values.normalized ? " (normalized)" : "") +
                                "; instance rotations must be floats or normalized signed bytes "
                                "or shorts");
      }
    }
    if (out.empty()) out.resize(values.count);
    if (values.count != out.size())
      throw GltfError(ap, "has another count than the other attributes");
    for (uint32_t i = 0; i < values.count; ++i) {
      const float* value = values.element(i);
      if (!std::all_of(value, value + n, [](float v) { return std::isfinite(v); }))
        throw GltfError(ap, "instance " + std::to_string(i) + " is not finite");
      auto* fields = reinterpret_cast<float*>(&out[i]);  // translation, rotation, scale: 10 floats
      std::memcpy(fields + offset, value, n * sizeof(float));
    }
  };
  static_assert(sizeof(assetlib::PrefabInstance) == 10 * sizeof(float));
  read("TRANSLATION", "VEC3", 0, 3);
  read("ROTATION", "VEC4", 3, 4);
  read("SCALE", "VEC3", 7, 3);
  for (assetlib::PrefabInstance& instance : out) {
    bool off_unit = make_unit_rotation(instance.rotation);
    renormalised += off_unit && !quantised_rotations;
  }
  return out;
}

// "<source>: <count><what>" when `count` is not 0: one warning per kind of problem, counting its
// cases.
void warn_count(std::vector<std::string>& warnings, const std::string& source, size_t count,
                const std::string& what) {
  if (count > 0) warnings.push_back(source + ": " + std::to_string(count) + what);
}

// A value as a message shows it: 1e-07, not 0.000000.
std::string shown(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// A camera or light value outside glTF's rules is an error naming it: baked as given it would reach
// a renderer as a division by zero, an inverted depth range or a negative light, with exit 0.
// (number_or has refused non-finite numbers already.)
void require(bool ok, double value, const std::string& where, const std::string& rule) {
  if (!ok) throw GltfError(where, shown(value) + " " + rule);
}

// A number glTF requires (no default to fall back on).
float required_number(const Json& obj, const std::string& path, const char* key) {
  if (!member(obj, path, key)) throw GltfError(json_path(path, key), "is required");
  return float(number_or(obj, path, key, 0));
}

// A yfov of pi or more is no projection (its tangent of half the angle is infinite or negative):
// refused, though the specification only says SHOULD.
assetlib::PrefabCamera read_perspective(const Json& p, const std::string& pp) {
  assetlib::PrefabCamera c;
  c.yfov = required_number(p, pp, "yfov");
  c.znear = required_number(p, pp, "znear");
  c.aspect = float(number_or(p, pp, "aspectRatio", 0));
  c.zfar = float(number_or(p, pp, "zfar", 0));
  require(c.yfov > 0 && c.yfov < 3.14159265f, c.yfov, json_path(pp, "yfov"), "is not in (0, pi)");
  require(c.znear > 0, c.znear, json_path(pp, "znear"), "is not above 0");
  if (member(p, pp, "aspectRatio"))
    require(c.aspect > 0, c.aspect, json_path(pp, "aspectRatio"), "is not above 0");
  if (member(p, pp, "zfar"))
    require(c.zfar > c.znear, c.zfar, json_path(pp, "zfar"),
            "is not beyond znear " + shown(c.znear));
  return c;
}

assetlib::PrefabCamera read_orthographic(const Json& o, const std::string& op) {
  assetlib::PrefabCamera c;
  c.type = assetlib::CameraType::Orthographic;
  c.xmag = required_number(o, op, "xmag");
  c.ymag = required_number(o, op, "ymag");
  c.znear = required_number(o, op, "znear");
  c.zfar = required_number(o, op, "zfar");
  require(c.xmag != 0, c.xmag, json_path(op, "xmag"), "is 0");
  require(c.ymag != 0, c.ymag, json_path(op, "ymag"), "is 0");
  require(c.znear >= 0, c.znear, json_path(op, "znear"), "is below 0");
  require(c.zfar > c.znear, c.zfar, json_path(op, "zfar"), "is not beyond znear " + shown(c.znear));
  return c;
}

void read_cameras(const Json& root, assetlib::PrefabInfo& out) {
  const Json& cameras = array_or_empty(root, "", "cameras");
  for (size_t i = 0; i < cameras.size(); ++i) {
    std::string path = json_path("cameras", i);
    std::string type = string_or(cameras[i], path, "type", "");
    if (type != "perspective" && type != "orthographic")
      throw GltfError(json_path(path, "type"), "'" + type + "' is not perspective or orthographic");
    const char* other = type == "perspective" ? "orthographic" : "perspective";
    if (member(cameras[i], path, other))
      throw GltfError(json_path(path, other), "must not be given for a " + type + " camera");
    if (!member(cameras[i], path, type.c_str()))
      throw GltfError(json_path(path, type.c_str()), "is required");
    const Json& params = object_or_empty(cameras[i], path, type.c_str());
    std::string pp = json_path(path, type.c_str());
    assetlib::PrefabCamera& c = out.cameras.emplace_back(
        type == "perspective" ? read_perspective(params, pp) : read_orthographic(params, pp));
    c.name = string_or(cameras[i], path, "name", "");
  }
}

// KHR_lights_punctual. A range of 0 is infinite (the first schema's default, still in files); a
// spot light without its `spot` object gets the default cone, as viewers draw it, with a warning; a
// spot whose inner cone equals its outer one (three.js and Blender export it by default: no
// penumbra, no blend) is kept as a hard edge, with a warning: the extension's own falloff code
// guards that division.
void read_lights(const Json& root, assetlib::PrefabInfo& out, const std::string& source,
                 std::vector<std::string>& warnings) {
  const Json& ext =
      object_or_empty(object_or_empty(root, "", "extensions"), "extensions", "KHR_lights_punctual");
  std::string base = "extensions.KHR_lights_punctual";
  const Json& lights = array_or_empty(ext, base, "lights");
  size_t hard_edged = 0, no_cone = 0;
  for (size_t i = 0; i < lights.size(); ++i) {
    std::string path = json_path(json_path(base, "lights"), i);
    assetlib::PrefabLight& l = out.lights.emplace_back();
    l.name = string_or(lights[i], path, "name", "");
    std::string type = string_or(lights[i], path, "type", "");
    l.type = assetlib::light_type_from_name(type);
    if (l.type == assetlib::LightType::Unknown)
      throw GltfError(json_path(path, "type"), "'" + type + "' is not directional, point or spot");
    numbers(lights[i], path, "color", l.color, 3);
    for (size_t k = 0; k < 3; ++k) {
      require(l.color[k] >= 0 && l.color[k] <= 1, l.color[k],
              json_path(json_path(path, "color"), k), "is not in [0, 1] (a linear RGB colour)");
    }
    l.intensity = float(number_or(lights[i], path, "intensity", 1));
    require(l.intensity >= 0, l.intensity, json_path(path, "intensity"), "is below 0");
    l.range = float(number_or(lights[i], path, "range", 0));
    require(l.range >= 0, l.range, json_path(path, "range"), "is below 0");
    if (l.type != assetlib::LightType::Spot) continue;
    no_cone += !member(lights[i], path, "spot");
    const Json& spot = object_or_empty(lights[i], path, "spot");
    std::string sp = json_path(path, "spot");
    l.inner_cone_angle = float(number_or(spot, sp, "innerConeAngle", 0));
    l.outer_cone_angle = float(number_or(spot, sp, "outerConeAngle", 0.7853981634));
    require(l.outer_cone_angle > 0 && l.outer_cone_angle <= 1.57079633f, l.outer_cone_angle,
            json_path(sp, "outerConeAngle"), "is not in (0, pi/2]");
    require(l.inner_cone_angle >= 0 && l.inner_cone_angle <= l.outer_cone_angle, l.inner_cone_angle,
            json_path(sp, "innerConeAngle"), "is not in [0, outerConeAngle]");
    hard_edged += l.inner_cone_angle == l.outer_cone_angle;
  }
  warn_count(warnings, source, no_cone,
             " spot light(s) have no `spot` object (glTF requires one); the default "
             "cone is used (inner 0, outer pi/4)");
  warn_count(warnings, source, hard_edged,
             " spot light(s) have innerConeAngle equal to outerConeAngle (glTF wants "
             "it below); kept as a hard-edged cone");
}

}  // namespace

GltfScene import_gltf_scene(GltfData& data, const std::vector<std::optional<GltfMeshRef>>& meshes,
                            size_t skin_count, std::vector<std::string>& warnings) {
  const Json& root = data.document().json;
  const std::string& source = data.document().source;
  GltfScene scene;
  assetlib::PrefabInfo& out = scene.prefab;
  out.original_file = source;
  read_cameras(root, out);
  read_lights(root, out, source, warnings);
  // Depth first from the roots, parents before children. glTF forbids a node with two parents
  // (or a scene root that is also a child), but exporters write them and viewers draw the node
  // under each: so is it here, instanced once per parent. A node that is its own ancestor is an
  // error: it would never end.
  struct Step {
    uint32_t node;
    int32_t parent;  // prefab index
    bool leave;      // the node's subtree is done
  };
  size_t count = array_size(root, "nodes");
  const size_t max_nodes = std::min(kMaxPrefabNodes, count * kMaxInstancing + kSpareInstances);
  std::vector<bool> on_path(count, false);
  std::vector<uint32_t> visits(count, 0);
  scene.instances.resize(count);
  size_t unused_skins = 0, rigid_skinned = 0, matrix_and_trs = 0, renormalised = 0,
         instances_renormalised = 0, other_weights = 0;
  MeshDefaultWeights default_weights(root);
  std::vector<Step> pending;
  std::vector<uint32_t> roots = scene_roots(root, source, warnings);
  for (size_t i = roots.size(); i-- > 0;) pending.push_back({roots[i], -1, false});
  while (!pending.empty()) {
    Step step = pending.back();
    pending.pop_back();
    uint32_t n = step.node;
    if (step.leave) {
      on_path[n] = false;
      continue;
    }
    std::string path = json_path("nodes", n);
    if (on_path[n]) throw GltfError(path, "is its own ancestor (the node hierarchy has a cycle)");
    if (out.nodes.size() >= max_nodes) {
      throw GltfError(path, "the scene expands to more than " + std::to_string(max_nodes) +
                                " nodes (nodes with several parents are instanced under each)");
    }
    ++visits[n];
    const Json& node = root["nodes"][n];
    assetlib::PrefabNode& out_node = out.nodes.emplace_back();
    int32_t self = int32_t(out.nodes.size() - 1);
    scene.instances[n].push_back(uint32_t(self));
    out_node.name = string_or(node, path, "name", "");
    out_node.parent = step.parent;
    TransformNotes transform = read_node_transform(node, path, out_node);
    matrix_and_trs += visits[n] == 1 && transform.matrix_and_trs;
    renormalised += visits[n] == 1 && transform.renormalised;
    std::optional<uint32_t> skin = index_or_none(node, path, "skin", skin_count, "skin");
    std::string skeleton;  // of the node's mesh, when it is skinned
    if (std::optional<uint32_t> m = index_or_none(node, path, "mesh", meshes.size(), "mesh")) {
      other_weights += visits[n] == 1 && node_has_other_weights(node, path, default_weights, *m);
      if (meshes[*m]) {
        out_node.mesh = meshes[*m]->mesh;
        out_node.materials = meshes[*m]->materials;
        skeleton = meshes[*m]->skeleton;
      }
    }
    if (skin && !skeleton.empty()) out_node.skin = skeleton;
    unused_skins += skin && skeleton.empty() && visits[n] == 1;
    rigid_skinned += !skin && !skeleton.empty() && visits[n] == 1;
    out_node.camera = int32_t(
        index_or_none(node, path, "camera", out.cameras.size(), "camera").value_or(UINT32_MAX));
    const Json& light = object_or_empty(object_or_empty(node, path, "extensions"),
                                        json_path(path, "extensions"), "KHR_lights_punctual");
    out_node.light = int32_t(index_or_none(light, json_path(path, "extensions.KHR_lights_punctual"),
                                           "light", out.lights.size(), "light")
                                 .value_or(UINT32_MAX));
    size_t instance_rotations = 0;
    out_node.instances = read_instances(data, node, path, instance_rotations);
    if (visits[n] == 1) instances_renormalised += instance_rotations;
    on_path[n] = true;
    pending.push_back({n, self, true});
    const Json& children = array_or_empty(node, path, "children");
    for (size_t c = children.size(); c-- > 0;) {
      std::string cp = json_path(json_path(path, "children"), c);
      pending.push_back({index_value(children[c], cp, count, "node"), self, false});
    }
  }
  size_t shared =
      size_t(std::count_if(visits.begin(), visits.end(), [](uint32_t v) { return v > 1; }));
  // One warning per kind of problem, counting its nodes.
  const std::pair<size_t, const char*> notes[] = {
      {shared, " node(s) have several parents (invalid glTF); instanced under each"},
      {rigid_skinned, " node(s) draw a skinned mesh without a skin; drawn rigid, in bind pose"},
      {matrix_and_trs,
       " node(s) have both a matrix and translation, rotation or scale (invalid "
       "glTF); the matrix is used"},
      {renormalised,
       " node rotation(s) are not unit quaternions (invalid glTF); made unit (length 0: "
       "no rotation)"},
      {instances_renormalised,
       " EXT_mesh_gpu_instancing rotation(s) are not unit quaternions (invalid "
       "glTF); made unit (length 0: no rotation)"},
      {other_weights,
       " node(s) give their mesh morph weights of their own; the mesh is baked at its default "
       "weights"},
      {unused_skins,
       " node(s) have a skin but no skinned mesh (JOINTS_0, WEIGHTS_0); the "
       "skin does not apply"},
  };
  for (const auto& [cases, what] : notes) warn_count(warnings, source, cases, what);
  return scene;
}

}  // namespace baker
