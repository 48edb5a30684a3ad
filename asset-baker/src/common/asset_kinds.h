// The kinds of source the baker reads, which files are which, and the extensions of the files a
// bake writes. The one table every part of the baker asks (walk, check, info).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace baker {

enum class AssetKind {
  Texture,  // an image: textures (.tx)
  Mesh,     // a Wavefront OBJ: a mesh (.mesh) and its materials (.mat)
  Scene,    // a glTF 2.0 file (.gltf, .glb): a prefab (.prefab), meshes, materials, textures,
            // skeletons (.skel), clips (.clip)
};

// The kind a source file bakes to, by its extension (case-insensitive); nullopt for files the
// baker does not read.
std::optional<AssetKind> source_kind(std::string_view relative_path);

// True for a file the baker reads for the sources beside it, not as a source of its own: a
// material library (.mtl), a glTF buffer (.bin), a baker.json. A walk does not count it as
// unsupported.
bool is_source_companion(std::string_view relative_path);

// For an asset format the baker does not read but a user may expect it to (a WebP or DDS image,
// an FBX model), what the format is and what to do instead ("a WebP image, which the baker does
// not read; convert it to PNG or JPEG (HDR for HDR)"); nullopt for every other file. A walk names
// these files even when not verbose, so a texture missing from the game is not a mystery.
std::optional<std::string> unread_asset_format(std::string_view relative_path);

// The name of a kind in the cache and reports: "texture", "mesh" or "scene".
const char* kind_name(AssetKind kind);

// The extension of a kind's main output: ".tx", ".mesh" or ".prefab".
const char* output_extension(AssetKind kind);

// True when the 4 bytes at `type` are the type of an asset a bake writes (TEXI, MESH, MATL, PRFB,
// SKEL, CLIP).
bool is_baked_type(const void* type);

// True for the extension of a file a bake writes (".tx", ".mesh", ".mat", ".prefab", ".skel",
// ".clip").
bool is_output_extension(std::string_view extension);

}  // namespace baker
