#include "import/gltf_vertex_skin.h"

#include <cmath>
#include <cstring>

namespace baker {
namespace {

// One JOINTS_n / WEIGHTS_n pair of a primitive.
struct InfluenceSet {
  const AccessorValues* joints;
  const AccessorValues* weights;
  std::string joints_path, weights_path;
};

std::vector<InfluenceSet> influence_sets(const VertexAttributes& attributes,
                                         const std::string& path) {
  std::vector<InfluenceSet> sets;
  std::string ap = json_path(path, "attributes");
  for (const auto& [name, values] : attributes) {
    int n = skin_set(name, "JOINTS_");
    if (n < 0) continue;
    std::string weights = "WEIGHTS_" + std::to_string(n);
    auto w = attributes.find(weights);
    if (w == attributes.end())
      throw GltfError(json_path(ap, name), "has no " + weights + " beside it");
    sets.push_back({values.get(), w->second.get(), json_path(ap, name), json_path(ap, weights)});
  }
  for (const auto& [name, values] : attributes) {
    int n = skin_set(name, "WEIGHTS_");
    if (n >= 0 && !attributes.count("JOINTS_" + std::to_string(n)))
      throw GltfError(json_path(ap, name), "has no JOINTS_" + std::to_string(n) + " beside it");
  }
  return sets;
}

}  // namespace

int skin_set(const std::string& name, const char* prefix) {
  size_t length = std::strlen(prefix);
  if (name.size() <= length || name.compare(0, length, prefix) != 0) return -1;
  int n = 0;
  for (size_t i = length; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || n > 1000) return -1;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

bool is_skin_attribute(const std::string& name) {
  return skin_set(name, "JOINTS_") >= 0 || skin_set(name, "WEIGHTS_") >= 0;
}

void check_skin_component_type(const std::string& name, const AccessorValues& values,
                               const std::string& path) {
  uint32_t type = values.component_type;
  if (type == 0) return;
  bool joints = name[0] == 'J';
  bool ok = joints ? (type == 5121 || type == 5123) && !values.normalized
                   : float_or_normalized_unsigned(values);
  if (!ok) {
    throw GltfError(path, joints ? "joints must be unsigned bytes or shorts"
                                 : "weights must be floats or normalized unsigned bytes or shorts");
  }
}

std::vector<QuantizedInfluences> vertex_skins(const VertexAttributes& attributes,
                                              uint32_t vertex_count, const GltfMeshSkin& skin,
                                              const std::string& path, SkinCounts& counts) {
  std::vector<InfluenceSet> sets = influence_sets(attributes, path);
  const uint32_t one = skin.format == assetlib::SkinFormat::J8W8 ? 255 : 65535;
  std::vector<QuantizedInfluences> out(vertex_count);
  std::vector<SourceInfluence> influences;
  for (uint32_t v = 0; v < vertex_count; ++v) {
    influences.clear();
    for (const InfluenceSet& set : sets) {
      const float* joints = set.joints->element(v);
      const float* weights = set.weights->element(v);
      for (int k = 0; k < 4; ++k) {
        if (!(weights[k] >= 0) || !std::isfinite(weights[k])) {
          throw GltfError(set.weights_path,
                          "vertex " + std::to_string(v) + " has a negative or non-finite weight");
        }
        float joint = joints[k];
        if (!(joint >= 0) || joint != std::floor(joint)) {
          throw GltfError(set.joints_path,
                          "vertex " + std::to_string(v) + " names a joint that is no index");
        }
        if (weights[k] == 0) continue;  // an unused slot may hold any joint
        if (joint >= float(skin.joint_map->size())) {
          throw GltfError(set.joints_path, "vertex " + std::to_string(v) + " names joint " +
                                               std::to_string(uint64_t(joint)) + ", its skin has " +
                                               std::to_string(skin.joint_map->size()) + " joints");
        }
        influences.push_back({(*skin.joint_map)[size_t(joint)], weights[k]});
      }
    }
    InfluenceRepairs repairs = quantize_influences(influences, one, out[v]);
    counts.reduced += repairs.reduced;
    counts.zero_sum += repairs.zero_sum;
  }
  return out;
}

void warn_skin_counts(const SkinCounts& counts, const std::string& what,
                      std::vector<std::string>& warnings) {
  if (counts.reduced > 0) {
    warnings.push_back(what + ": " + std::to_string(counts.reduced) +
                       " vertices have more than 4 joint influences; the 4 largest are kept, "
                       "renormalised");
  }
  if (counts.zero_sum > 0) {
    warnings.push_back(what + ": " + std::to_string(counts.zero_sum) +
                       " vertices have no joint weight; bound to the skeleton's first joint");
  }
}

}  // namespace baker
