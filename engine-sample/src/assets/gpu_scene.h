// What the loader hands the renderer: every baked asset as a GPU resource, by logical name.
#pragma once

#include "vk/gpu_buffer.h"
#include "vk/gpu_image.h"

#include <assetlib/mesh_asset.h>
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

struct GpuMesh {
  std::string name;  // logical name in the manifest
  assetlib::MeshInfo info;
  GpuBuffer vertices;
  GpuBuffer indices;
};

struct GpuScene {
  // Memory of everything below; declared first so it is freed last.
  std::unique_ptr<GpuMemoryArena> memory;
  std::map<std::string, GpuTexture, std::less<>> textures;  // by logical name
  std::vector<GpuMesh> meshes;                              // in manifest order
  // 1x1 opaque white: stands in for a texture that a material names but the folder lacks, and
  // for materials without a texture, so every draw binds the same kind of descriptor set.
  GpuImage white;
};

}  // namespace sample
