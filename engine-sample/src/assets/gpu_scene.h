// What the loader hands the renderer: every baked asset as a GPU resource, by logical name.
#pragma once

#include "vk/gpu_buffer.h"
#include "vk/gpu_image.h"

#include <assetlib/clip_asset.h>
#include <assetlib/manifest.h>
#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/prefab_asset.h>
#include <assetlib/skeleton_asset.h>
#include <assetlib/texture_asset.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sample {

struct GpuTexture {
  assetlib::TextureInfo info;
  GpuImage image;  // SHADER_READ_ONLY_OPTIMAL once the loader returns
};

// A meshlet as the CPU culls it: its triangles' range in GpuMesh::meshlet_indices and, in the
// mesh's space, its bounding sphere and backface cone (assetlib::Meshlet).
struct GpuMeshlet {
  uint32_t first_index = 0;
  uint32_t index_count = 0;
  float center[3] = {0, 0, 0};
  float radius = 0;
  float cone_apex[3] = {0, 0, 0};
  float cone_axis[3] = {0, 0, 0};
  float cone_cutoff = 1;
};

struct GpuMesh {
  std::string name;  // logical name in the manifest
  assetlib::MeshInfo info;
  GpuBuffer vertices;
  GpuBuffer indices;
  // Meshes baked with meshlets: each meshlet's triangles as 32-bit indices into `vertices`,
  // meshlet after meshlet (in the order of info.submeshes' meshlet ranges), so any run of visible
  // meshlets is one indexed draw without mesh shaders.
  std::vector<GpuMeshlet> meshlets;
  GpuBuffer meshlet_indices;
  // Skinned meshes (info.skin_format != None): the skin stream, one joints + weights record per
  // vertex, bound as a second vertex buffer beside `vertices`. Every joint index is below
  // info.skin_joint_count (unpack_mesh_skin checked it).
  GpuBuffer skin;
};

// An animation clip: its channels and its keys, unpacked and checked (unpack_clip), so
// assetlib::sample_clip can evaluate it at any time. Clips stay on the CPU: they pose the prefab
// nodes, whose joint matrices are then uploaded.
struct Clip {
  assetlib::ClipInfo info;
  std::vector<float> keys;  // info.key_float_count floats
};

struct Prefab {
  std::string name;  // logical name in the manifest
  assetlib::PrefabInfo info;
};

struct GpuScene {
  // Memory of everything below; declared first so it is freed last.
  std::unique_ptr<GpuMemoryArena> memory;
  std::map<std::string, GpuTexture, std::less<>> textures;  // by logical name
  std::vector<GpuMesh> meshes;                              // in manifest order
  // Materials, prefabs, skeletons and clips stay on the CPU and steer the draws.
  std::map<std::string, assetlib::MaterialInfo, std::less<>> materials;  // by logical name
  std::vector<Prefab> prefabs;                                           // in manifest order
  std::map<std::string, assetlib::SkeletonInfo, std::less<>> skeletons;  // by logical name
  std::map<std::string, Clip, std::less<>> clips;                        // by logical name
  // The manifest entry each of the above was loaded from, and those of assets loaded but not kept
  // (an empty mesh, a type the sample does not draw), by logical name: hot reload compares a
  // newer manifest with these to find what changed.
  std::map<std::string, assetlib::ManifestEntry, std::less<>> sources;

  // Stand-ins, so every draw binds the same kinds of resources whatever its material and vertex
  // format lack. 1x1 opaque white: a texture slot that is empty, or names a texture the folder
  // lacks (glTF multiplies each texture by its factor, so white leaves the factor alone).
  GpuImage white;
  // 1x1 (0.5, 0.5, 1): an empty normal-map slot, the unperturbed surface normal.
  GpuImage flat_normal;
  // 16 zero bytes, read with stride 0 for vertex inputs a format does not carry (tangent,
  // second UV set).
  GpuBuffer zeros;
};

}  // namespace sample
