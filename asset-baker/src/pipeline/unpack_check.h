// Loading a baked file and unpacking every chunk of it: what `check` and `--verify` rely on.
#pragma once

#include "common/bake_status.h"

#include <assetlib/asset_file.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace baker {

// A logical name an asset refers to, the type the named asset must have, and what else it must
// be, checked once every asset is read (an engine trips on each of these).
struct AssetReference {
  AssetReference(std::string name_, std::string type_)
      : name(std::move(name_)), type(std::move(type_)) {}

  std::string name;
  std::string type;  // "TEXI", "MESH", "MATL", "SKEL", "CLIP"
  // A skinned mesh's skeleton: the joints its skin stream indexes below, which the skeleton must
  // have (0: no such requirement).
  uint32_t joint_count = 0;
  // A prefab's skeleton or clip: the prefab's node count, which every node index of the named asset
  // must stay below (a loader indexes the prefab's nodes with them).
  std::optional<uint32_t> node_count;
  // A prefab node's mesh: one material per submesh, and the skeleton the node skins it with ("":
  // drawn rigid), which when set must be the one the mesh's skin stream indexes.
  std::optional<uint32_t> submesh_count;
  std::optional<std::string> skeleton;
};

struct UnpackedAsset {
  std::string type;                        // "TEXI", "MESH", "MATL", "PRFB", "SKEL", "CLIP"
  uint64_t raw_size = 0;                   // unpacked bytes of all sections (0: metadata only)
  std::vector<AssetReference> references;  // textures, meshes, materials, skeletons, clips it names
  uint32_t joint_count = 0;                // a skeleton's joints
  uint64_t nodes_used = 0;     // a skeleton's or clip's largest prefab node index + 1 (0: none)
  uint32_t submesh_count = 0;  // a mesh's submeshes
  std::string skeleton;        // a mesh's skeleton ("": rigid)
};

// Loads `path` (a regular file: a FIFO or a folder is refused without blocking), reads its metadata
// (within assetlib's limits, assetlib/limits.h) and checks that every chunk decompresses to exactly
// its promised size, one chunk at a time into one reusable buffer (a mesh's indices are checked
// against its vertex count on the way): memory is the file plus its largest chunk (at most
// assetlib::kMaxChunkSize; 1 MiB by default), not the unpacked asset. A mesh's meshlet section is
// also unpacked whole and checked meshlet by meshlet (unpack_meshlets), and its skin stream whole,
// every joint index checked (unpack_mesh_skin). A clip is unpacked whole and its keys checked
// (unpack_clip). Materials, prefabs and skeletons are metadata only: read and checked by their
// readers. Failures are InvalidAsset (IoError when the file cannot be read, Internal when memory
// runs out) about `path`; nothing throws.
BakeStatus unpack_whole_asset(const std::string& path, UnpackedAsset& out);

// The same checks on an asset already in memory (a pack entry from assetlib::read_pack_asset):
// memory is its largest chunk (and a mesh's meshlet section). Failures are about `name`.
BakeStatus unpack_whole_view(const assetlib::AssetView& asset, const std::string& name,
                             UnpackedAsset& out);

// The unpacked bytes `asset`'s metadata promises, as a manifest or pack entry's raw_size states
// them: every section of a texture, mesh or clip; 0 for the metadata-only types. Reads the
// metadata only. InvalidAsset about `name` when it cannot be read.
BakeStatus read_unpacked_size(const assetlib::AssetView& asset, const std::string& name,
                              uint64_t& out);

}  // namespace baker
