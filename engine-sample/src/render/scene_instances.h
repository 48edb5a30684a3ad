// Where every mesh is drawn: prefabs flattened into world-space mesh instances (node hierarchy,
// EXT_mesh_gpu_instancing), the meshes no prefab uses on their own, and the prefabs' cameras;
// then, for a gallery of separate models, each laid out in a cell of its own.
#pragma once

#include "assets/gpu_scene.h"
#include "render/scene_animation.h"
#include "render/scene_math.h"

#include <memory>
#include <string>
#include <vector>

namespace sample {

enum class SceneLayout {
  // A gallery: each prefab, and each mesh no prefab uses, scaled to the same size and centred in
  // its own cell. Separate models are each authored around their own origin and would otherwise
  // all overlap there.
  Grid,
  // Everything where it was authored: the prefabs and meshes are parts of one scene.
  AsAuthored,
};

// One mesh drawn at one place.
struct MeshInstance {
  const GpuMesh* mesh = nullptr;
  // A rigid mesh: its node's world matrix. A skinned one: only the layout's move (identity when
  // authored), since its joints place it (glTF ignores a skinned mesh's own node transform).
  Mat4 world;
  // A skinned mesh: its skeleton's joint matrices in the prefab's space, one per joint, which
  // mesh_skinned.vert blends per vertex before `world`; shared by the instances of one node (one
  // pose: EXT_mesh_gpu_instancing). Null: a rigid mesh.
  std::shared_ptr<const std::vector<Mat4>> joints;
  // The MATL asset of each submesh as the prefab node names them; empty (or an empty name): the
  // one the mesh's own material summary names.
  std::vector<std::string> materials;
  // Of the mesh, in the world. A skinned mesh's: its stored box (of the bind pose) moved by each
  // joint matrix of the rest pose, all together; the same at every time of a clip, so the framing
  // camera holds still while it plays.
  Box bounds;
};

// A camera node of a prefab, in the world.
struct SceneCamera {
  std::string name;    // the node's name
  std::string prefab;  // logical name of its prefab
  Mat4 world;
  assetlib::PrefabCamera camera;
};

struct SceneInstances {
  std::vector<MeshInstance> meshes;
  std::vector<SceneCamera> cameras;
  Box bounds;  // of every mesh instance: what a framing camera shows

  // Each mesh instance's box: what a framing camera fits tightly.
  std::vector<Box> boxes() const;
};

// The prefabs posed by `poses` (choose_poses), each mesh no prefab uses at its origin. Warns
// (once per name, on stderr) about prefab nodes naming a mesh the folder lacks, and about skinned
// nodes whose skeleton is missing or does not fit their mesh (those are drawn in their bind pose).
SceneInstances instance_scene(const GpuScene& scene, SceneLayout layout, const ScenePoses& poses);

}  // namespace sample
