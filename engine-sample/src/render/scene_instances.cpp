#include "render/scene_instances.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>

namespace sample {
namespace {

// Unit-radius models with some air between neighbours.
constexpr float kGridCell = 2.8f;

// Everything the grid moves as one: a prefab, or a mesh no prefab uses.
struct Item {
  std::vector<MeshInstance> meshes;
  std::vector<SceneCamera> cameras;
  Box bounds;
};

Box mesh_box(const GpuMesh& mesh) {
  const assetlib::MeshBounds& b = mesh.info.bounds;
  Vec3 origin = to_vec3(b.origin), extents = to_vec3(b.extents);
  Box box;
  box.add(origin - extents);
  box.add(origin + extents);
  return box;
}

Mat4 instance_matrix(const assetlib::PrefabInstance& instance) {
  assetlib::PrefabNode trs;
  std::copy(std::begin(instance.translation), std::end(instance.translation), trs.translation);
  std::copy(std::begin(instance.rotation), std::end(instance.rotation), trs.rotation);
  std::copy(std::begin(instance.scale), std::end(instance.scale), trs.scale);
  Mat4 out;
  assetlib::prefab_local_matrix(trs, out.m);
  return out;
}

class Instancer {
 public:
  explicit Instancer(const GpuScene& scene) {
    for (const GpuMesh& mesh : scene.meshes) meshes_.emplace(mesh.name, &mesh);
  }

  Item prefab_item(const Prefab& prefab) {
    Item item;
    const std::vector<assetlib::PrefabNode>& nodes = prefab.info.nodes;
    std::vector<Mat4> world(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      const assetlib::PrefabNode& node = nodes[i];
      Mat4 local;
      assetlib::prefab_local_matrix(node, local.m);
      // read_prefab_info guarantees parents come first.
      world[i] = node.parent < 0 ? local : multiply(world[node.parent], local);
      if (!node.mesh.empty()) add_mesh(prefab, node, world[i], item);
      if (node.camera >= 0) {
        item.cameras.push_back(
            {node.name, prefab.name, world[i], prefab.info.cameras[node.camera]});
      }
    }
    return item;
  }

  Item loose_item(const GpuMesh& mesh) {
    Item item;
    item.meshes.push_back({&mesh, Mat4{}, {}, mesh_box(mesh)});
    item.bounds = item.meshes.back().bounds;
    return item;
  }

  bool used(const GpuMesh& mesh) const { return used_.contains(mesh.name); }

 private:
  void add_mesh(const Prefab& prefab, const assetlib::PrefabNode& node, const Mat4& world,
                Item& item) {
    auto found = meshes_.find(node.mesh);
    if (found == meshes_.end()) {
      if (missing_.insert(node.mesh).second) {
        std::fprintf(stderr,
                     "warning: %s: node '%s' draws mesh '%s', which is not a drawable mesh in the "
                     "baked folder; skipped\n",
                     prefab.name.c_str(), node.name.c_str(), node.mesh.c_str());
      }
      return;
    }
    const GpuMesh& mesh = *found->second;
    used_.insert(mesh.name);
    auto add = [&](const Mat4& m) {
      item.meshes.push_back({&mesh, m, node.materials, transform_box(m, mesh_box(mesh))});
      item.bounds.add(item.meshes.back().bounds);
    };
    if (node.instances.empty()) add(world);
    for (const assetlib::PrefabInstance& instance : node.instances) {
      add(multiply(world, instance_matrix(instance)));
    }
  }

  std::map<std::string_view, const GpuMesh*> meshes_;
  std::set<std::string> used_;
  std::set<std::string> missing_;
};

// Moves (and scales) everything in `item` by `m`.
void move_item(Item& item, const Mat4& m) {
  for (MeshInstance& instance : item.meshes) {
    instance.world = multiply(m, instance.world);
    instance.bounds = transform_box(m, instance.bounds);
  }
  for (SceneCamera& camera : item.cameras) camera.world = multiply(m, camera.world);
  item.bounds = transform_box(m, item.bounds);
}

void lay_out_grid(std::vector<Item>& items) {
  if (items.empty()) return;
  auto columns = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(items.size()))));
  size_t rows = (items.size() + columns - 1) / columns;
  for (size_t i = 0; i < items.size(); ++i) {
    Item& item = items[i];
    if (item.bounds.empty()) continue;
    float radius = std::max(length(item.bounds.hi - item.bounds.lo) / 2, kMinRadius);
    float scale = 1.0f / radius;
    Vec3 cell{(static_cast<float>(i % columns) - static_cast<float>(columns - 1) / 2) * kGridCell,
              0, (static_cast<float>(i / columns) - static_cast<float>(rows - 1) / 2) * kGridCell};
    move_item(item, translate_scale(cell - item.bounds.centre() * scale, scale));
  }
}

}  // namespace

std::vector<Box> SceneInstances::boxes() const {
  std::vector<Box> out;
  for (const MeshInstance& mesh : meshes) out.push_back(mesh.bounds);
  return out;
}

SceneInstances instance_scene(const GpuScene& scene, SceneLayout layout) {
  Instancer instancer(scene);
  std::vector<Item> items;
  for (const Prefab& prefab : scene.prefabs) items.push_back(instancer.prefab_item(prefab));
  for (const GpuMesh& mesh : scene.meshes) {
    if (!instancer.used(mesh)) items.push_back(instancer.loose_item(mesh));
  }
  if (layout == SceneLayout::Grid) lay_out_grid(items);

  SceneInstances out;
  for (Item& item : items) {
    out.bounds.add(item.bounds);
    for (MeshInstance& mesh : item.meshes) out.meshes.push_back(std::move(mesh));
    for (SceneCamera& camera : item.cameras) out.cameras.push_back(std::move(camera));
  }
  return out;
}

}  // namespace sample
