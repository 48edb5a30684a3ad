// assetlib: prefab assets ("PRFB"): a scene as authored, ready to instantiate.
//
// A prefab is the node hierarchy of a glTF file's default scene: names, parents, local transforms,
// and per node the mesh and materials to draw (by logical name), a camera, a light
// (KHR_lights_punctual) and GPU instances (EXT_mesh_gpu_instancing). Nodes are stored parents
// first, so one pass in order computes every world matrix:
//   world[i] = parent < 0 ? local(i) : world[parent] * local(i).
// The asset holds metadata only (no blob). Coordinates are glTF's: right-handed, +Y up, metres.
//
// Hostile input (see asset_file.h): read_prefab_info is safe on hostile bytes and checks the
// structure (parents first, indices in range, finite numbers); names are any strings (resolve
// them with find_asset on the manifest, never open them as paths).
#pragma once

#include <assetlib/asset_file.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assetlib {

// One instance of EXT_mesh_gpu_instancing, relative to its node.
struct PrefabInstance {
  float translation[3] = {0, 0, 0};
  float rotation[4] = {0, 0, 0, 1};  // unit quaternion x, y, z, w
  float scale[3] = {1, 1, 1};
};

struct PrefabNode {
  std::string name;
  int32_t parent = -1;  // index of an earlier node; -1 for a root
  // The local transform as authored: a matrix (column-major, as glTF and GLSL store it) when
  // has_matrix, else translation * rotation * scale. prefab_local_matrix() gives it as a matrix.
  bool has_matrix = false;
  float matrix[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float translation[3] = {0, 0, 0};
  float rotation[4] = {0, 0, 0, 1};  // unit quaternion x, y, z, w
  float scale[3] = {1, 1, 1};
  std::string mesh;                    // logical name of a MESH asset; empty: no mesh
  std::vector<std::string> materials;  // logical names of MATL assets, one per submesh of `mesh`
  // Logical name of the SKEL asset that skins `mesh`; empty: rigid. A skinned mesh ignores the
  // node's own transform (glTF): its joints place it.
  std::string skin;
  int32_t camera = -1;                    // index into PrefabInfo::cameras; -1: none
  int32_t light = -1;                     // index into PrefabInfo::lights; -1: none
  std::vector<PrefabInstance> instances;  // empty: the node is drawn once
};

enum class CameraType : uint32_t { Unknown = 0, Perspective = 1, Orthographic = 2 };

// A camera looks down its node's -Z with +Y up (glTF).
struct PrefabCamera {
  std::string name;
  CameraType type = CameraType::Perspective;
  float yfov = 0.8f;  // perspective: vertical field of view, radians
  float aspect = 0;   // perspective: width / height; 0 when the source leaves it to the viewport
  float xmag = 1, ymag = 1;  // orthographic: half width and half height
  float znear = 0.1f;
  float zfar = 0;  // 0: infinite (perspective only)
};

enum class LightType : uint32_t { Unknown = 0, Directional = 1, Point = 2, Spot = 3 };

// KHR_lights_punctual: a light shines down its node's -Z.
struct PrefabLight {
  std::string name;
  LightType type = LightType::Point;
  float color[3] = {1, 1, 1};  // linear RGB
  float intensity = 1;         // candela (point, spot) or lux (directional)
  float range = 0;             // 0: infinite
  float inner_cone_angle = 0;  // spot only, radians
  float outer_cone_angle = 0.785398f;
};

struct PrefabInfo {
  std::vector<PrefabNode> nodes;  // parents first
  std::vector<PrefabCamera> cameras;
  std::vector<PrefabLight> lights;
  std::vector<std::string> clips;  // logical names of the CLIP assets that animate these nodes
  std::string original_file;       // source path relative to the bake root
  // Filled by read_prefab_info: true for a legacy vkguide prefab (read-only). Ignored by
  // pack_prefab.
  bool legacy = false;
};

const char* camera_type_name(CameraType type);            // "perspective", "orthographic"
CameraType camera_type_from_name(std::string_view name);  // or Unknown
const char* light_type_name(LightType type);              // "directional", "point", "spot"
LightType light_type_from_name(std::string_view name);    // or Unknown

// The node's local transform as a column-major 4x4 matrix (m[12..14] is the translation).
// Any node: the rotation is used as stored (a non-unit quaternion scales too).
void prefab_local_matrix(const PrefabNode& node, float out[16]);

// Writes `info` as a "PRFB" asset into `out` (metadata only, an empty blob).
// Errors: InvalidArgument when a parent is not an earlier node, a camera or light index is out of
// range, a type is Unknown, a number is not finite, or the metadata would be over kMaxJsonSize.
// `out` is written only on success.
Status pack_prefab(const PrefabInfo& info, AssetFile& out);

// Reads a "PRFB" asset.
// Safe on hostile bytes. Errors: UnknownType, InvalidJson, MissingKey, WrongKeyType, InvalidValue,
// UnknownCompression;
// messages start with "PRFB metadata" and do not name the file. `info` is left unchanged on error.
// On success every parent is -1 or an earlier node, every camera and light index is -1 or in
// range, types are known, every number is finite, and the arrays hold at most 2^20 entries. Node
// skins and clip names are any strings; prefabs baked before skins and clips have none (the keys
// are optional for readers).
// Also reads vkguide's legacy prefabs (metadata with "node_matrices" and no "nodes"; their blob
// holds the matrices; docs/format.md, "Legacy vkguide files"): nodes with a name, a parent, a
// matrix, a mesh and one material, ordered parents first, no cameras or lights, `legacy` set, with
// the same guarantees. Their mesh and material names are vkguide's paths (relative to its export
// folder), not manifest names.
Status read_prefab_info(const AssetView& file, PrefabInfo& info);

}  // namespace assetlib
