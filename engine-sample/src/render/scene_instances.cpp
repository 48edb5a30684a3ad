#include "render/scene_instances.h"

#include "error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <span>
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

// The box a skinned mesh is framed by: its stored box (of the bind pose, in the mesh's space)
// moved by each joint matrix of the rest pose, all together. Loose, but it holds the mesh
// wherever the rest pose puts it (a Z-up mesh under a Y-up node, say), and it does not depend on
// the clip's time, so the camera holds still while a clip plays.
Box skinned_box(const Box& bind_box, std::span<const Mat4> rest_joints) {
  Box box;
  for (const Mat4& joint : rest_joints) box.add(transform_box(joint, bind_box));
  return box;
}

Mat4 instance_matrix(const assetlib::PrefabInstance& instance) {
  assetlib::NodePose trs;
  std::copy(std::begin(instance.translation), std::end(instance.translation), trs.translation);
  std::copy(std::begin(instance.rotation), std::end(instance.rotation), trs.rotation);
  std::copy(std::begin(instance.scale), std::end(instance.scale), trs.scale);
  Mat4 out;
  assetlib::node_pose_matrix(trs, out.m);
  return out;
}

class Instancer {
 public:
  explicit Instancer(const GpuScene& scene) : skeletons_(scene.skeletons) {
    for (const GpuMesh& mesh : scene.meshes) meshes_.emplace(mesh.name, &mesh);
  }

  Item prefab_item(const Prefab& prefab, const PrefabPose& pose) {
    Item item;
    const std::vector<assetlib::PrefabNode>& nodes = prefab.info.nodes;
    NodeMatrices world;
    world.posed = node_world_matrices(prefab.info, pose);
    world.rest = pose.clip ? node_world_matrices(prefab.info, PrefabPose{}) : world.posed;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const assetlib::PrefabNode& node = nodes[i];
      if (!node.mesh.empty()) add_mesh(prefab, node, world, world.posed[i], item);
      if (node.camera >= 0) {
        item.cameras.push_back(
            {node.name, prefab.name, world.posed[i], prefab.info.cameras[node.camera]});
      }
    }
    return item;
  }

  Item loose_item(const GpuMesh& mesh) {
    Item item;
    item.meshes.push_back({&mesh, Mat4{}, {}, {}, mesh_box(mesh)});
    item.bounds = item.meshes.back().bounds;
    return item;
  }

  bool used(const GpuMesh& mesh) const { return used_.contains(mesh.name); }

 private:
  // A prefab's node world matrices as drawn, and at rest (the same without a clip).
  struct NodeMatrices {
    std::vector<Mat4> posed;
    std::vector<Mat4> rest;
  };

  void add_mesh(const Prefab& prefab, const assetlib::PrefabNode& node,
                const NodeMatrices& node_world, const Mat4& world, Item& item) {
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
    const Placement placement = place(prefab, node, mesh, node_world, world);
    auto add = [&](const Mat4& m) {
      item.meshes.push_back(
          {&mesh, m, placement.joints, node.materials, transform_box(m, placement.box)});
      item.bounds.add(item.meshes.back().bounds);
    };
    if (node.instances.empty()) add(placement.base);
    for (const assetlib::PrefabInstance& instance : node.instances) {
      add(multiply(placement.base, instance_matrix(instance)));
    }
  }

  // Where a node's mesh goes: the node's matrix, for a skinned mesh its joint matrices, and the
  // box it is framed by, before `base`.
  struct Placement {
    Mat4 base;
    std::shared_ptr<const std::vector<Mat4>> joints;  // null: rigid
    Box box;
  };

  // A skinned mesh is placed by its joints, which already hold every node above them: its own
  // node's transform is not applied (glTF), or it would be applied twice. Without a usable
  // skeleton it is drawn as stored: its bind pose.
  Placement place(const Prefab& prefab, const assetlib::PrefabNode& node, const GpuMesh& mesh,
                  const NodeMatrices& node_world, const Mat4& world) {
    if (node.skin.empty()) return {world, {}, mesh_box(mesh)};
    if (mesh.info.skin_format == assetlib::SkinFormat::None) {
      warn(prefab.name + ": node '" + node.name + "' is skinned by '" + node.skin + "' but mesh '" +
           mesh.name + "' has no skin stream; drawn rigid");
      return {world, {}, mesh_box(mesh)};
    }
    const assetlib::SkeletonInfo* skeleton = skeleton_for(prefab, node, mesh);
    if (!skeleton) return {Mat4{}, {}, mesh_box(mesh)};
    // Small files can ask for many palettes (thousands of skinned nodes of a 9000-joint skeleton):
    // counted before each is made, they stop at a bound no real scene nears.
    joint_matrices_ += skeleton->joints.size();
    if (joint_matrices_ > kMaxJointMatrices) {
      throw SampleError(prefab.name + ": its skinned nodes need more than " +
                        std::to_string(kMaxJointMatrices) + " joint matrices in all");
    }
    return {Mat4{},
            std::make_shared<const std::vector<Mat4>>(joint_matrices(*skeleton, node_world.posed)),
            skinned_box(mesh_box(mesh), joint_matrices(*skeleton, node_world.rest))};
  }

  // The skeleton that skins `node`'s mesh, or null (warned) when the folder lacks it or its
  // joints do not fit the mesh's skin stream.
  const assetlib::SkeletonInfo* skeleton_for(const Prefab& prefab, const assetlib::PrefabNode& node,
                                             const GpuMesh& mesh) {
    const std::string where = prefab.name + ": node '" + node.name + "': ";
    auto found = skeletons_.find(node.skin);
    if (found == skeletons_.end()) {
      warn(where + "skeleton '" + node.skin +
           "' is not in the baked folder; its mesh is drawn in its bind pose");
      return nullptr;
    }
    if (!mesh.info.skeleton.empty() && mesh.info.skeleton != node.skin) {
      warn(where + "skinned by '" + node.skin + "', but mesh '" + mesh.name +
           "' indexes the joints of '" + mesh.info.skeleton + "'; drawn in its bind pose");
      return nullptr;
    }
    // unpack_mesh_skin checked every joint index against skin_joint_count: a palette of at least
    // that many matrices keeps every read of the shader inside it.
    if (mesh.info.skin_joint_count > found->second.joints.size()) {
      warn(where + "mesh '" + mesh.name + "' indexes " +
           std::to_string(mesh.info.skin_joint_count) + " joints, skeleton '" + node.skin +
           "' has " + std::to_string(found->second.joints.size()) + "; drawn in its bind pose");
      return nullptr;
    }
    return &found->second;
  }

  void warn(const std::string& message) {
    if (warned_.insert(message).second) std::fprintf(stderr, "warning: %s\n", message.c_str());
  }

  const std::map<std::string, assetlib::SkeletonInfo, std::less<>>& skeletons_;
  std::map<std::string_view, const GpuMesh*> meshes_;
  std::set<std::string> used_;
  std::set<std::string> missing_;
  std::set<std::string> warned_;  // warnings given, each once
  // Joint matrices of the palettes made so far; 16 Mi matrices are 1 GiB.
  static constexpr size_t kMaxJointMatrices = size_t{1} << 24;
  size_t joint_matrices_ = 0;
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

namespace {

// Beyond this the GPU's float clip coordinates overflow (a view of the whole squares distances),
// and a grid cell's scale would be denormal: such meshes are not drawn, so the rest of the scene
// still is. The format allows positions to 3e38.
constexpr float kMaxDrawnCoordinate = 1e30f;

bool drawable(const Box& box) {
  for (float v : {box.lo.x, box.lo.y, box.lo.z, box.hi.x, box.hi.y, box.hi.z}) {
    if (!(std::fabs(v) <= kMaxDrawnCoordinate)) return false;
  }
  return true;
}

// Drops from `item` the meshes that reach too far out to draw (a warning each), then bounds it
// again.
void keep_drawable(Item& item, std::set<std::string>& warned) {
  std::erase_if(item.meshes, [&](const MeshInstance& instance) {
    if (instance.bounds.empty() || drawable(instance.bounds)) return false;
    if (warned.insert(instance.mesh->name).second) {
      std::fprintf(stderr,
                   "warning: %s: reaches beyond %g in the scene, too far out for float clip "
                   "coordinates; not drawn\n",
                   instance.mesh->name.c_str(), double(kMaxDrawnCoordinate));
    }
    return true;
  });
  item.bounds = Box{};
  for (const MeshInstance& instance : item.meshes) item.bounds.add(instance.bounds);
}

}  // namespace

SceneInstances instance_scene(const GpuScene& scene, SceneLayout layout, const ScenePoses& poses) {
  Instancer instancer(scene);
  std::vector<Item> items;
  for (size_t i = 0; i < scene.prefabs.size(); ++i) {
    const PrefabPose rest;
    const PrefabPose& pose = i < poses.prefabs.size() ? poses.prefabs[i] : rest;
    items.push_back(instancer.prefab_item(scene.prefabs[i], pose));
  }
  for (const GpuMesh& mesh : scene.meshes) {
    if (!instancer.used(mesh)) items.push_back(instancer.loose_item(mesh));
  }
  std::set<std::string> too_far;
  for (Item& item : items) keep_drawable(item, too_far);
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
