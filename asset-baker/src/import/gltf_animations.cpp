#include "import/gltf_animations.h"

#include <cmath>
#include <set>
#include <utility>

namespace baker {
namespace {

// A sampler read once, for every channel that uses it.
struct Sampler {
  assetlib::ClipInterpolation interpolation = assetlib::ClipInterpolation::Linear;
  std::vector<float> times;
  uint32_t input = 0, output = 0;  // accessors
};

assetlib::ClipInterpolation interpolation_of(const std::string& name) {
  if (name == "LINEAR") return assetlib::ClipInterpolation::Linear;
  if (name == "STEP") return assetlib::ClipInterpolation::Step;
  if (name == "CUBICSPLINE") return assetlib::ClipInterpolation::CubicSpline;
  return assetlib::ClipInterpolation::Unknown;
}

Sampler read_sampler(GltfData& data, const Json& sampler, const std::string& path) {
  const Json& root = data.document().json;
  size_t accessors = array_size(root, "accessors");
  Sampler out;
  std::string name = string_or(sampler, path, "interpolation", "LINEAR");
  out.interpolation = interpolation_of(name);
  if (out.interpolation == assetlib::ClipInterpolation::Unknown) {
    throw GltfError(json_path(path, "interpolation"),
                    "'" + name + "' is not LINEAR, STEP or CUBICSPLINE");
  }
  out.input = index_of(sampler, path, "input", accessors, "accessor");
  out.output = index_of(sampler, path, "output", accessors, "accessor");
  std::string ip = json_path(path, "input");
  AccessorValues times = data.floats(out.input, ip, {"SCALAR"});
  if (times.component_type != kFloatComponent) {
    throw GltfError(ip, "accessor " + std::to_string(out.input) + " has componentType " +
                            std::to_string(times.component_type) +
                            "; key times must be floats (5126)");
  }
  out.times = std::move(times.values);
  for (size_t k = 0; k < out.times.size(); ++k) {
    float t = out.times[k];
    // Only on failure: formatting a float for every key was a tenth of a glTF bake.
    auto key = [&] { return "key " + std::to_string(k) + " at " + std::to_string(t) + " s"; };
    if (!std::isfinite(t)) throw GltfError(ip, "key " + std::to_string(k) + " is not finite");
    if (t < 0) throw GltfError(ip, key() + " is before 0");
    if (k > 0 && !(t > out.times[k - 1])) {
      throw GltfError(ip, "key times must increase strictly: " + key() + " follows " +
                              std::to_string(out.times[k - 1]) + " s");
    }
  }
  return out;
}

// The values of `sampler` for a channel of `path`, checked against the keys.
std::vector<float> read_values(GltfData& data, const Sampler& sampler, assetlib::ClipPath path,
                               const std::string& sampler_path) {
  std::string op = json_path(sampler_path, "output");
  bool rotation = path == assetlib::ClipPath::Rotation;
  AccessorValues values = data.floats(sampler.output, op, {rotation ? "VEC4" : "VEC3"});
  // glTF: floats, and for rotations also normalized signed or unsigned bytes or shorts.
  bool quantised_rotation = rotation && values.normalized;  // raw() refuses normalized ints, floats
  if (values.component_type != kFloatComponent && !quantised_rotation) {
    throw GltfError(op, "accessor " + std::to_string(sampler.output) + " has componentType " +
                            std::to_string(values.component_type) +
                            (values.normalized ? " (normalized)" : "") + "; " +
                            (rotation ? "rotations must be floats or normalized bytes or shorts"
                                      : "translations and scales must be floats (5126)"));
  }
  bool cubic = sampler.interpolation == assetlib::ClipInterpolation::CubicSpline;
  uint64_t expected = uint64_t(sampler.times.size()) * (cubic ? 3 : 1);
  if (values.count != expected) {
    throw GltfError(op, std::to_string(values.count) + " values for " +
                            std::to_string(sampler.times.size()) + " keys (" +
                            (cubic ? "3 per key for CUBICSPLINE" : "1 per key") + ")");
  }
  for (size_t i = 0; i < values.values.size(); ++i) {
    if (!std::isfinite(values.values[i]))
      throw GltfError(op, "value " + std::to_string(i / values.components) + " is not finite");
  }
  return std::move(values.values);
}

// What was dropped from a file's animations, warned about once.
struct Dropped {
  size_t weights = 0, no_node = 0, outside = 0, other_path = 0;
};

void warn_dropped(const Dropped& d, const std::string& source, std::vector<std::string>& warnings) {
  auto warn = [&](size_t count, const char* what) {
    if (count > 0)
      warnings.push_back(source + ": " + std::to_string(count) + " animation channel(s) " + what);
  };
  warn(d.weights, "of morph weights dropped (morph targets are baked at their default weights)");
  warn(d.no_node, "without a target node dropped");
  warn(d.outside, "of nodes outside the default scene dropped");
  warn(d.other_path, "of a path other than translation, rotation, scale dropped");
}

GltfClip import_animation(GltfData& data, uint32_t index,
                          const std::vector<std::vector<uint32_t>>& prefab_nodes,
                          std::set<uint32_t>& targets, Dropped& dropped) {
  const Json& root = data.document().json;
  std::string path = json_path("animations", index);
  const Json& animation = root["animations"][index];
  GltfClip clip;
  clip.info.name = string_or(animation, path, "name", "");
  clip.info.original_file = data.document().source;
  const Json& samplers = array_or_empty(animation, path, "samplers");
  const Json& channels = array_or_empty(animation, path, "channels");
  std::string sp = json_path(path, "samplers");
  std::vector<Sampler> read;
  for (size_t s = 0; s < samplers.size(); ++s)
    read.push_back(read_sampler(data, samplers[s], json_path(sp, s)));
  // glTF: two channels of one animation MUST NOT target the same node and path (which one a
  // player applies last would decide the pose).
  std::set<std::pair<uint32_t, assetlib::ClipPath>> animated;
  for (size_t c = 0; c < channels.size(); ++c) {
    std::string cp = json_path(json_path(path, "channels"), c);
    uint32_t s = index_of(channels[c], cp, "sampler", read.size(), "sampler");
    std::string tp = json_path(cp, "target");
    const Json& target = object_or_empty(channels[c], cp, "target");
    std::string path_name = string_or(target, tp, "path", "");
    std::optional<uint32_t> node = index_or_none(target, tp, "node", prefab_nodes.size(), "node");
    assetlib::ClipPath clip_path = assetlib::clip_path_from_name(path_name);
    if (path_name == "weights") {
      ++dropped.weights;
      continue;
    }
    if (clip_path == assetlib::ClipPath::Unknown) {
      if (path_name.empty()) throw GltfError(json_path(tp, "path"), "is required");
      ++dropped.other_path;  // an extension's path (KHR_animation_pointer's "pointer")
      continue;
    }
    if (!node) {
      ++dropped.no_node;
      continue;
    }
    const std::vector<uint32_t>& instances = prefab_nodes[*node];
    if (instances.empty()) {
      ++dropped.outside;
      continue;
    }
    if (!animated.insert({*node, clip_path}).second) {
      throw GltfError(tp, "animates the " + path_name + " of nodes[" + std::to_string(*node) +
                              "] again (two channels of one animation must not share a target)");
    }
    std::vector<float> values = read_values(data, read[s], clip_path, json_path(sp, s));
    data.spend((read[s].times.size() + values.size()) * sizeof(float) * instances.size(), cp);
    targets.insert(*node);
    for (uint32_t prefab_node : instances) {
      assetlib::ClipChannel channel;
      channel.node = prefab_node;
      channel.path = clip_path;
      channel.interpolation = read[s].interpolation;
      channel.key_count = uint32_t(read[s].times.size());
      channel.times_offset = clip.keys.size();
      clip.keys.insert(clip.keys.end(), read[s].times.begin(), read[s].times.end());
      channel.values_offset = clip.keys.size();
      clip.keys.insert(clip.keys.end(), values.begin(), values.end());
      clip.info.channels.push_back(channel);
    }
  }
  clip.info.key_float_count = clip.keys.size();
  return clip;
}

}  // namespace

GltfClips import_gltf_animations(GltfData& data,
                                 const std::vector<std::vector<uint32_t>>& prefab_nodes,
                                 std::vector<std::string>& warnings) {
  GltfClips out;
  Dropped dropped;
  size_t count = array_size(data.document().json, "animations");
  for (uint32_t a = 0; a < count; ++a)
    out.clips.push_back(import_animation(data, a, prefab_nodes, out.targets, dropped));
  warn_dropped(dropped, data.document().source, warnings);
  return out;
}

}  // namespace baker
