// assetlib: animation clip assets ("CLIP").
//
// A clip is one glTF animation: channels that move prefab nodes (translation, rotation, scale),
// each with its key times and values as authored (STEP, LINEAR or CUBICSPLINE; not resampled).
// Channels target nodes by their index in the prefab baked from the same file (PrefabInfo::nodes);
// skeleton joints are such nodes (SkeletonJoint::node).
//
// Unpacked, a clip is one array of 32-bit floats: each channel's key times, then its values, at
// the offsets its metadata gives. sample_clip evaluates it at a time into local node poses, so an
// engine need not write its own sampler.
//
// Hostile input (see asset_file.h): read_clip_info and unpack_clip are safe on hostile bytes;
// unpack_clip checks every key (finite numbers, strictly increasing times inside the clip), so
// sample_clip can trust an info and keys that passed both.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/skeleton_asset.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assetlib {

enum class ClipPath : uint32_t {
  Unknown = 0,
  Translation = 1,  // "translation": 3 floats per key
  Rotation = 2,     // "rotation": 4 floats per key, quaternion x, y, z, w
  Scale = 3,        // "scale": 3 floats per key
};
const char* clip_path_name(ClipPath path);            // or "Unknown"
ClipPath clip_path_from_name(std::string_view name);  // or Unknown

enum class ClipInterpolation : uint32_t {
  Unknown = 0,
  Step = 1,         // "step": a key's value holds until the next key
  Linear = 2,       // "linear": lerp; rotations slerp along the shorter arc
  CubicSpline = 3,  // "cubicspline": glTF's Hermite spline; 3 values per key (in-tangent, value,
                    // out-tangent), rotations normalised after evaluation
};
const char* clip_interpolation_name(ClipInterpolation interpolation);   // or "Unknown"
ClipInterpolation clip_interpolation_from_name(std::string_view name);  // or Unknown

struct ClipChannel {
  uint32_t node = 0;  // prefab node index
  ClipPath path = ClipPath::Unknown;
  ClipInterpolation interpolation = ClipInterpolation::Linear;
  uint32_t key_count = 0;      // >= 1
  uint64_t times_offset = 0;   // float index of the first key time in the unpacked keys
  uint64_t values_offset = 0;  // float index of the first value: key_count * components floats,
                               // times 3 for CubicSpline
};

// Floats per key value of a path (3 or 4), 0 for Unknown.
uint32_t clip_path_components(ClipPath path);

struct ClipInfo {
  std::string name;    // the animation's name in the source ("" when it had none)
  float duration = 0;  // the last key time of any channel, seconds
  std::vector<ClipChannel> channels;
  uint64_t key_float_count = 0;  // floats in the unpacked keys
  std::string original_file;
  Compression compression = Compression::LZ4;  // filled by read_clip_info
  std::vector<Chunk> chunks;                   // blob layout: the key floats
};

// Unpacked bytes of the keys.
inline uint64_t clip_unpacked_size(const ClipInfo& info) { return info.key_float_count * 4; }

// Writes the clip into `out`. `keys` holds key_float_count floats; `info` gives the name, the
// channels and their offsets; duration (the last key time) is computed here and the key count
// taken from `key_float_count` (info.duration and info.key_float_count are not read). Errors:
// InvalidArgument when a channel's path or interpolation is Unknown, it has no keys, its key range
// or values lie outside `keys`, two channels overlap, times are not finite, >= 0 and strictly
// increasing, or a float is not finite; `options` as pack_mesh. `out` is written only on success.
Status pack_clip(const ClipInfo& info, const float* keys, size_t key_float_count, AssetFile& out,
                 const PackOptions& options = {});

// Reads the metadata of a "CLIP" asset and checks it against its blob.
// Safe on hostile bytes. Errors: UnknownType, InvalidJson, MissingKey, WrongKeyType,
// UnknownCompression, InvalidValue; messages start with "CLIP metadata" and do not name the file.
// `info` is left unchanged on error. On success: known paths and interpolations, key_count >= 1,
// every channel's times and values inside the key floats, duration finite and >= 0, the chunks
// cover exactly the keys and the blob, within LZ4's expansion (clip_unpacked_size < 256 x the file
// size). Node indices are not checked against a prefab: sample_clip skips those out of range.
Status read_clip_info(const AssetView& file, ClipInfo& info);

// Unpacks the keys into `dst` (at least key_float_count floats) and checks them: every float
// finite, each channel's times strictly increasing within [0, duration] (InvalidValue; `dst` then
// holds the bytes: do not sample them). Requires `info` from a successful read_clip_info. Safe on
// hostile bytes in `src`, as unpack_mesh.
Status unpack_clip(const ClipInfo& info, const void* src, size_t src_size, float* dst,
                   size_t dst_floats);

// Evaluates every channel at `time` seconds and writes the result into poses[channel.node] (only
// the channel's path; channels whose node is >= poses.size() are skipped). Before the first key
// the first value holds, after the last the last (wrap `time` yourself to loop). Rotations come
// out normalised. Fill `poses` with the rest pose first (prefab nodes, or skeleton joints' rest).
// Trusts `keys` from a successful unpack_clip with the same `info`. Allocates nothing.
void sample_clip(const ClipInfo& info, const float* keys, float time, std::span<NodePose> poses);

}  // namespace assetlib
