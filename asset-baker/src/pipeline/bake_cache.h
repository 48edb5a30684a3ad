// The incremental-bake cache (.assetlib-cache.json in the output folder).
//
// Each baked output is keyed by the bytes of every file its bake read (hashed; a file's size and
// mtime only let an unchanged file skip re-hashing), the settings that apply to it, and the
// baker's version. It also keeps what the manifest needs, so an up-to-date asset costs no reads.
#pragma once

#include "common/bake_status.h"
#include "import/import_inputs.h"
#include "pipeline/output_tree.h"
#include "pipeline/shard.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baker {

// Bump when an importer changes what it writes for the same input: every output rebakes.
// Changelog:
//   1  the first cache format
//   2  palette BMPs and PNGs decode with a full, zero-filled palette (OS/2 BMPs keep their last 4
//      colours); top-down BMPs bake; meshes past the valence, k-d tree or submesh budgets take
//      linear fallbacks (docs/robustness.md)
//   3  a source may bake into several assets (entries list their outputs); glTF scenes; OBJ
//      materials become material assets; images bake once per role their material slots use;
//      grey data stored as RGB becomes BC4; generated tangents follow MikkTSpace
//   4  entries keep the warnings of their bake, repeated when the source is up to date
//   5  OBJ polygons are ear-clipped (concave faces were fanned); TGA right-to-left rows and
//      colour maps starting past entry 0, EXIF orientation (JPEG, PNG) applied; grey JPEGs and
//      "_ao_2k"-style names bake as BC4; `mtllib` takes the rest of its line as one name; UTF-16
//      OBJ text is converted
//   6  parts lie directly in "<source>.parts/" ("2.mesh", not "mesh/2.mesh")
//   7  glTF skins and animations bake: skeletons (.skel), clips (.clip), skinned meshes with a
//      skin stream, prefab nodes' skins and clips; joint and animated matrix nodes become TRS
//   8  a chunk is stored raw unless LZ4 saves a quarter of it (was an eighth); textures give their
//      level count (`mip_count`) instead of the list of levels
//   9  generated normals and tangents weight corners by a polynomial arc cosine; glTF node
//      rotations off unit length are made unit; glTF cameras, lights and animation component types
//      outside the specification are refused
//  10  EXT_mesh_gpu_instancing rotations are made unit; integer rotations and values that are not
//      finite are refused, and so are glTF vertex attributes that are not finite
//  11  PNG chunks that shape the pixels (critical ones, tRNS, eXIf) must match their CRC, and the
//      header must be one PNG defines (4-bit RGB, say, baked before)
//  12  images: Apple CgBI PNGs as RGBA with straight alpha, PNM samples stretched to 0..255,
//      PNG eXIf applied after the image data, 32-bit TGAs padding alpha with 0 opaque, PSD
//      channels past the third only transparency when the layer count says so; meshes: normals
//      made unit length, tangents from the UV set the normal maps sample, -0 merged with +0, glTF
//      TANGENT w made +-1; MTL: -o/-s/-t with fewer than three numbers keep their texture, no Kd
//      is white; new warnings (OBJ free-form elements and short faces, colours, half-float UVs,
//      grey normal maps, colour spaces, why a glTF slot is untextured)
//  13  OBJ: a usemtl before the mtllib defining its material gets that material; glTF: animated
//      nodes above a root joint join the skeleton, TANGENT kept per primitive and ignored without
//      NORMAL, COLOR_0 floats clamped to 0..1 in every format, COLOR_0 of plain integers and
//      sampler filters that are no GL enum refused; a source, .mtl or .bin that cannot be read
//      keeps the previous outputs; new warnings (newmtl redefinitions, nearest minFilter,
//      extensions missing from extensionsUsed, normal maps on formats without tangents)
//  14  images: 16-bit PSDs keep 16 bits (data) or round (colour), HDR clamped to 65504 at every
//      level, TGA 2.0 premultiplied alpha made straight; glTF: nodes a skeleton adds bound at
//      rest; OBJ: usemtl takes the rest of its line, MTL Kd/Ke of one number grey, d -halo keeps
//      its value, Kd xyz/spectral white; LODs of several submeshes keep their borders; shard caches
//      record the texture plan's digest; new warnings (cICP, BMP colour spaces, HDR EXPOSURE,
//      unbaked MTL keys and texture options)
//  15  textures: mips filter across the edges as the slots' samplers wrap (repeat, mirrored, clamp;
//      was clamp for all); OBJ: a line ending in '\' joins the next, a '#' after a face's corners
//      is a comment (both were errors); new warning (coordinates with more after their number)
//  16  glTF: morph targets are applied at the mesh's default weights, with a warning (were
//      refused); textures: 16-bit normal maps renormalised in every level (and a level 0 scaled by
//      max_size), normals that cancel out flat; TGA fourth bytes an extension area says are not
//      alpha baked opaque; glTF: a NORMAL of no length gets a face's normal, vertex accessors
//      shared by many primitives bake (were over the budget); new warnings (undeclared TGA and BMP
//      fourth bytes read as alpha, an APNG whose default image is no frame)
//  17  glTF: joint and animated-node matrices with a mirror or a zero-length axis come apart as a
//      negative or zero scale (were refused); data URIs in any case; skinned meshes get no LODs
//      (warned); OBJ: 's off' on every face is flat (was smooth), a coordinate beyond the float
//      range fails the file, a relative normal or UV index before the first is dropped with a
//      warning (was read as none); MTL: newmtl names without surrounding blanks, mtllib with an
//      escaped space
//  18  MTL: a material of illumination model 0 (colour only) is unlit (was lit); HDR: scanlines
//      mixing RLE and flat encoding, and old-style repeat pixels, are refused (were misread); GIF:
//      the canvas outside the first frame is transparent (was the background entry, red and blue
//      swapped); JPEG: a JFIF or Adobe-transform file numbering its components R, G, B is read as
//      YCbCr (was RGB); TGA: 32-bit colour map entries and 16-bit grey texels follow the alpha
//      rules of 32-bit texels (were always alpha); BMP: pixels after a gap bake (were refused);
//      JPEG: more than 256 scans refused; HDR mips filtered with a tent (rang negative), values
//      below 2^-14 kept as subnormal halves (were 0); 16-bit normal maps converted from 8 bits
//      cancel to flat (tilted); UVs beyond 65504 clamped in half formats (were infinite), small
//      ones kept as subnormals; sloppy LODs from LOD 0; mesh bounds rounded outward
//  19  textures: the base colour of a masked material keeps its alpha coverage in every mip level
//      (cut-outs thinned out); MTL: lines ending in CR read (were one line), a material defined
//      twice is its first definition alone (was a mix), Kd 0 0 0 beside map_Kd is white (black),
//      Tr 1 without d is opaque (invisible), Ks of one number grey; OBJ: smoothing groups of 2^31
//      and more are groups (were flat, or another group)
//  20  textures: mip levels (and a level 0 that max_size shrinks) filtered by the baker's level
//      filter (texture/level_filter.h) instead of stb_image_resize, 3-5 times faster: the same
//      kernels and weights; sRGB levels round to the nearest code (up to one code from stb's)
//  21  glTF: material factors outside glTF's ranges (base colour, metallic, roughness, emissive,
//      occlusion strength 0..1; alpha cutoff, emissive strength >= 0) are clamped, with a warning
//      (were written as given); a material slot whose image failed to bake is left untextured,
//      with a warning (named a texture that was not made); new warnings (OBJ statements the
//      specification does not define, `v`/`vn` lines of fewer than 3 coordinates, TGA pixels
//      indexing past the colour map)
inline constexpr uint32_t kBakerVersion = 21;
inline constexpr const char* kCacheFileName = ".assetlib-cache.json";

// What a bake depended on besides its source: a file's content hash (kAbsentFile for a file looked
// for and not found); or, for an image a material uses, "texture <role> <name>" (the texture the
// bake names for it, or "absent").
struct Dependency {
  std::string path;  // root-relative
  std::string state;
  bool operator==(const Dependency&) const = default;
};
inline constexpr char kAbsentFile[] = "absent";

// One file a source's bake wrote, as the manifest lists it and as it was written.
struct OutputRecord {
  std::string name;  // logical name
  std::string path;  // output-relative
  std::string type;  // "TEXI", "MESH", "MATL", "PRFB", "SKEL", "CLIP"
  std::string hash;
  uint64_t size = 0;
  int64_t mtime_ns = 0;  // when the file was last seen holding `hash`
  uint64_t raw_size = 0;
  bool operator==(const OutputRecord&) const = default;
};

struct CacheEntry {
  std::string kind;      // "texture", "mesh" or "scene"
  std::string settings;  // canonical settings key
  std::string source_hash;
  std::vector<Dependency> deps;
  std::vector<OutputRecord> outputs;  // every file the source baked into
  std::vector<std::string> warnings;  // of the bake: an up-to-date source still reports them
  bool operator==(const CacheEntry&) const = default;
};

// What the texture plan read of one model (plan_textures.h) and found in it: the images its
// materials use. Valid while every file read still has the content it had then, so an unchanged
// model is not read again to plan the next bake.
struct PlannedModel {
  std::vector<Dependency> read;  // every file read: its content hash, or kAbsentFile
  std::vector<ImageUse> uses;
  bool operator==(const PlannedModel&) const = default;
};

// Remembered hash of a source file, valid while its size and mtime are unchanged.
struct FileStamp {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  std::string hash;
  bool operator==(const FileStamp&) const = default;
};

struct BakeCache {
  std::map<std::string, CacheEntry> entries;    // by source (root-relative)
  std::map<std::string, FileStamp> stamps;      // by root-relative path
  std::map<std::string, PlannedModel> planned;  // by model source (root-relative)
  // The earliest start (wall clock) of the runs whose stamps it holds: every stamp was taken
  // after that. Judges stamps (stamp_trusted).
  int64_t run_started_ns = 0;
  // When the run that wrote it started: a bake-one record written before that (less the racy
  // window) was folded into it by that run (collect).
  int64_t indexed_ns = 0;
  // Saved by a --shard bake: which shard the folder holds (`merge` checks that it has them all),
  // and the digest of the texture plan of the whole tree it was baked against (`merge` checks
  // that the shards agree: shards baked from different states of the tree mix outputs whose
  // references do not meet).
  std::optional<Shard> shard;
  std::optional<uint64_t> shard_plan;
};

// A size and mtime recorded by a run do not prove a file unchanged when the mtime lies less than
// this before the run started (or after): a write in the same timestamp tick as the one the run
// saw (a few milliseconds on Linux, 2 s on FAT) keeps both, so a damaged output or an edited
// source went unnoticed. Such "racy" stamps (git's word) are checked by hashing the file again;
// older ones are trusted, since the run looked at them at least this long after their last write.
inline constexpr int64_t kRacyWindowNs = 2'000'000'000;

// True when a file the run that saved `cache` recorded with `mtime_ns` is unchanged if its size
// and mtime still match.
inline bool stamp_trusted(const BakeCache& cache, int64_t mtime_ns) {
  return mtime_ns < cache.run_started_ns - kRacyWindowNs;
}

// Stamps taken by a run that started at `started` (0: none) join `cache`: it keeps the earlier
// start, so that no stamp becomes trusted against a later one than its own run's.
inline void keep_earliest_start(BakeCache& cache, int64_t started) {
  if (started > 0 && (cache.run_started_ns == 0 || started < cache.run_started_ns))
    cache.run_started_ns = started;
}

// True when `next` records nothing `previous` does not: the same entries, stamps, plan records and
// shard, and every stamp and output time of it trusted against previous's start (stamp_trusted).
// Writing `next` would then only move the start times forward, so a run finding everything up to
// date leaves the cache file as it is.
bool cache_unchanged(const BakeCache& next, const BakeCache& previous);

// Largest cache file read; a bigger one is treated as damaged (a full rebake, nothing lost).
inline constexpr uint64_t kMaxCacheBytes = 256ull << 20;

// Reads the cache in the output folder; a missing, unreadable, oversized or other-version cache
// gives an empty one. The cache sits in a folder others may write to, so it is not trusted: an
// entry whose source or any output is not a safe relative path (assetlib::is_safe_relative_path),
// or an output not a baked file's name, is dropped, and outputs are only ever deleted while they
// still hold the recorded hash (OutputTree::remove_if_unchanged).
// For a bake an empty cache only costs a full rebake; a reader that must not mistake a damaged
// cache for an empty one (merge, whose shard caches are its inputs) passes `problem`: it is then
// set to why the cache was not read whole ("" when it was: every entry kept).
BakeCache load_cache(const OutputTree& output, std::string* problem = nullptr);

// Writes it atomically.
BakeStatus save_cache(const OutputTree& output, const BakeCache& cache);

// One entry as the cache file holds it, for other stores of entries (the shared cache, per-source
// records). cache_entry_from_json throws nlohmann::json::exception on a malformed entry.
nlohmann::json cache_entry_to_json(const CacheEntry& entry);
CacheEntry cache_entry_from_json(const nlohmann::json& json);

// A material slot's sampling as plan files and the cache write it: [wrap u, wrap v], then the
// alpha cutoff of a masked use. sampling_from_json gives nullopt for an unknown wrap or a cutoff
// outside (0, 1), and throws nlohmann::json::exception on a value of the wrong shape.
nlohmann::json sampling_to_json(const SlotSampling& sampling);
std::optional<SlotSampling> sampling_from_json(const nlohmann::json& json);

// True when `entry` could have been written by a bake of `source`: every path a safe relative
// path, every output a baked file's name (what load_cache keeps).
bool trustworthy_entry(const std::string& source, const CacheEntry& entry);

}  // namespace baker
