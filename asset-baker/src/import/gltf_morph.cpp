#include "import/gltf_morph.h"

#include "common/vec3.h"

#include <cmath>

namespace baker {
namespace {

const char* const kMorphed[] = {"POSITION", "NORMAL", "TANGENT"};

bool morphed(const std::string& name) {
  for (const char* m : kMorphed) {
    if (name == m) return true;
  }
  return false;
}

// Adds `weight` times the VEC3 deltas of `target` to `base` (3 or 4 floats per element: the
// tangent's w, its handedness, is not morphed).
void add_deltas(const AccessorValues& target, float weight, AccessorValues& base) {
  for (uint32_t v = 0; v < base.count; ++v) {
    const float* delta = target.element(v);
    float* value = base.values.data() + size_t(v) * base.components;
    for (int k = 0; k < 3; ++k) value[k] += weight * delta[k];
  }
}

void renormalise_tangents(AccessorValues& tangents) {
  for (uint32_t v = 0; v < tangents.count; ++v) {
    float* t = tangents.values.data() + size_t(v) * tangents.components;
    const Vec3 unit = normalized_or(Vec3{t[0], t[1], t[2]}, Vec3{t[0], t[1], t[2]});
    std::copy(unit.begin(), unit.end(), t);
  }
}

}  // namespace

std::vector<float> morph_weights(const Json& obj, const std::string& path, size_t targets) {
  std::vector<float> weights(targets, 0.0f);
  if (const Json* given = member(obj, path, "weights"); given && given->size() != targets) {
    throw GltfError(json_path(path, "weights"), "must be an array of " + std::to_string(targets) +
                                                    " numbers, one per morph target");
  }
  numbers(obj, path, "weights", weights.data(), targets);
  return weights;
}

size_t morph_target_count(const Json& mesh, const std::string& path) {
  const std::string pp = json_path(path, "primitives");
  const Json& primitives = array_or_empty(mesh, path, "primitives");
  if (primitives.empty()) return 0;
  const size_t targets = array_or_empty(primitives[0], json_path(pp, 0), "targets").size();
  for (size_t i = 1; i < primitives.size(); ++i) {
    const size_t count = array_or_empty(primitives[i], json_path(pp, i), "targets").size();
    if (count != targets) {
      throw GltfError(json_path(json_path(pp, i), "targets"),
                      "has " + std::to_string(count) + " morph targets, primitives[0] " +
                          std::to_string(targets) + " (they must have as many)");
    }
  }
  return targets;
}

MeshDefaultWeights::MeshDefaultWeights(const Json& root)
    : root_(root), weights_(array_size(root, "meshes")) {}

const std::vector<float>& MeshDefaultWeights::of(uint32_t mesh) {
  std::optional<std::vector<float>>& known = weights_[mesh];
  if (!known) {
    const std::string mp = json_path("meshes", mesh);
    const Json& json = root_["meshes"][mesh];
    const size_t targets = morph_target_count(json, mp);
    known = targets == 0 ? std::vector<float>() : morph_weights(json, mp, targets);
  }
  return *known;
}

bool node_has_other_weights(const Json& node, const std::string& path, MeshDefaultWeights& defaults,
                            uint32_t mesh) {
  if (!node.contains("weights")) return false;
  const std::vector<float>& mesh_weights = defaults.of(mesh);
  if (mesh_weights.empty()) return false;
  try {
    return morph_weights(node, path, mesh_weights.size()) != mesh_weights;
  } catch (const GltfError&) {
    return true;  // not the right count of numbers
  }
}

void apply_morph_targets(GltfData& data, const Json& p, const std::string& path,
                         const std::vector<float>& weights, bool draco, uint32_t vertex_count,
                         VertexAttributes& attributes, std::set<std::string>& unapplied) {
  const Json& targets = array_or_empty(p, path, "targets");
  const size_t accessors = array_size(data.document().json, "accessors");
  std::map<std::string, AccessorValues*> changed;  // the copies made, by attribute
  for (size_t t = 0; t < targets.size(); ++t) {
    const std::string tp = json_path(json_path(path, "targets"), t);
    const Json& target = targets[t];
    if (!target.is_object()) throw GltfError(tp, "must be an object");
    for (auto it = target.begin(); it != target.end(); ++it) {
      const std::string ap = json_path(tp, it.key());
      const uint32_t accessor = index_value(it.value(), ap, accessors, "accessor");
      if (weights[t] == 0.0f) continue;
      if (!morphed(it.key())) {
        unapplied.insert(it.key());
        continue;
      }
      auto base = attributes.find(it.key());
      if (base == attributes.end()) continue;  // no such attribute to morph (NORMAL: made flat)
      if (draco) {
        throw GltfError(tp,
                        "morph targets of a Draco-compressed primitive are not baked (the "
                        "decoded vertices need not be in the order the targets use)",
                        true);
      }
      // Decoded once, as primitives sharing their vertices share their targets.
      const std::shared_ptr<const AccessorValues> deltas =
          data.shared_floats(accessor, ap, {"VEC3"});
      if (deltas->count != vertex_count) {
        throw GltfError(ap, "has " + std::to_string(deltas->count) + " elements, POSITION " +
                                std::to_string(vertex_count));
      }
      AccessorValues*& values = changed[it.key()];
      if (!values) values = &copy_to_change(data, base->second, ap);
      add_deltas(*deltas, weights[t], *values);
    }
  }
  if (changed.count("TANGENT")) renormalise_tangents(*changed["TANGENT"]);
}

}  // namespace baker
