// Clip assets ("CLIP"): metadata <-> ClipInfo, and the key floats in the blob, checked on unpack
// (docs/format.md, "Clip").
#include "chunked_blob.h"
#include "metadata.h"
#include "name_table.h"
#include "no_throw.h"

#include <assetlib/clip_asset.h>
#include <assetlib/limits.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>

namespace assetlib {
namespace {

using detail::json;

constexpr std::array kPaths = {std::pair{ClipPath::Translation, "translation"},
                               std::pair{ClipPath::Rotation, "rotation"},
                               std::pair{ClipPath::Scale, "scale"}};
constexpr std::array kInterpolations = {std::pair{ClipInterpolation::Step, "step"},
                                        std::pair{ClipInterpolation::Linear, "linear"},
                                        std::pair{ClipInterpolation::CubicSpline, "cubicspline"}};

// Floats of a channel's values: one value per key, three (in-tangent, value, out-tangent) for a
// cubic spline.
uint64_t value_floats(const ClipChannel& c) {
  uint64_t per_key = clip_path_components(c.path);
  if (c.interpolation == ClipInterpolation::CubicSpline) per_key *= 3;
  return uint64_t(c.key_count) * per_key;
}

// [first, first + count) lies within [0, total), without overflow.
bool inside(uint64_t first, uint64_t count, uint64_t total) {
  return first <= total && count <= total - first;
}

// The channel's ranges lie inside the keys; "" when they do, else what is wrong.
std::string channel_fault(const ClipChannel& c, uint64_t key_float_count) {
  if (!detail::has_name(kPaths, c.path)) return "unknown path";
  if (!detail::has_name(kInterpolations, c.interpolation)) return "unknown interpolation";
  if (c.key_count == 0) return "no keys";
  if (!inside(c.times_offset, c.key_count, key_float_count)) return "times outside the keys";
  if (!inside(c.values_offset, value_floats(c), key_float_count)) return "values outside the keys";
  return {};
}

// Times of a channel: finite, >= 0, strictly increasing, at most `duration`. "" when they are.
std::string times_fault(const ClipChannel& c, const float* keys, float duration) {
  const float* t = keys + c.times_offset;
  for (uint32_t k = 0; k < c.key_count; ++k) {
    if (!std::isfinite(t[k])) return "a key time is not finite";
    if (t[k] < 0) return "a key time is negative";
    if (k > 0 && !(t[k] > t[k - 1])) return "key times are not strictly increasing";
    if (t[k] > duration) return "a key time is after the clip's duration";
  }
  return {};
}

std::string channel_message(size_t index, const std::string& what) {
  return "channel " + std::to_string(index) + ": " + what;
}

json channel_to_json(const ClipChannel& c) {
  return {{"node", c.node},
          {"path", clip_path_name(c.path)},
          {"interpolation", clip_interpolation_name(c.interpolation)},
          {"key_count", c.key_count},
          {"times_offset", c.times_offset},
          {"values_offset", c.values_offset}};
}

void read_channel(detail::JsonReader& reader, detail::JsonValue j, ClipChannel& c) {
  c.node = reader.u32(j, "node");
  c.path = reader.named(j, "path", clip_path_from_name);
  c.interpolation = reader.named(j, "interpolation", clip_interpolation_from_name);
  c.key_count = reader.u32(j, "key_count");
  c.times_offset = reader.u64(j, "times_offset");
  c.values_offset = reader.u64(j, "values_offset");
}

// Clips are read once per asset: built in an info of their own (allocating), then moved.
Status read_clip_info_throwing(const AssetView& file, ClipInfo& info) {
  detail::ParsedJson parsed;
  if (Status s = detail::parse_metadata(file, "CLIP", parsed); !s) return s;
  detail::JsonValue meta = parsed.root();
  detail::JsonReader reader("CLIP metadata");
  ClipInfo clip;
  clip.name = reader.string(meta, "name");
  clip.original_file = reader.string(meta, "original_file");
  clip.duration = reader.f32(meta, "duration");
  // Bounded before it is multiplied: 4 bytes a float.
  clip.key_float_count = reader.u64(meta, "key_float_count", kMaxUnpackedSize / 4);
  for (detail::JsonValue c : reader.entries(meta, "channels")) {
    if (!reader.ok()) break;
    read_channel(reader, c, clip.channels.emplace_back());
  }
  if (!reader.ok()) return reader.status();
  if (clip.duration < 0) {
    return Status::error(ErrorCode::InvalidValue, "CLIP metadata: duration is negative");
  }
  for (size_t i = 0; i < clip.channels.size(); ++i) {
    if (std::string fault = channel_fault(clip.channels[i], clip.key_float_count); !fault.empty())
      return Status::error(ErrorCode::InvalidValue, "CLIP metadata: " + channel_message(i, fault));
  }
  detail::read_chunk_table(reader, meta, clip_unpacked_size(clip), file.blob.size(),
                           clip.compression, clip.chunks);
  if (!reader.ok()) return reader.status();
  info = std::move(clip);
  return {};
}

// Two channels sharing key floats would make one's checks the other's.
bool channels_overlap(const std::vector<ClipChannel>& channels) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const ClipChannel& c : channels) {
    ranges.emplace_back(c.times_offset, c.times_offset + c.key_count);
    ranges.emplace_back(c.values_offset, c.values_offset + value_floats(c));
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    if (ranges[i].first < ranges[i - 1].second) return true;
  }
  return false;
}

// What pack_clip refuses: the reader's checks and unpack_clip's, on the writer's side.
Status check_clip(const ClipInfo& info, const float* keys, size_t key_float_count,
                  float& duration) {
  auto wrong = [](const std::string& what) {
    return Status::error(ErrorCode::InvalidArgument, "pack_clip: " + what);
  };
  if (key_float_count > kMaxUnpackedSize / 4) return wrong("over the 4 GiB limit");
  if (info.channels.size() > detail::kMaxArrayEntries) return wrong("more than 2^20 channels");
  duration = 0;
  for (size_t i = 0; i < info.channels.size(); ++i) {
    const ClipChannel& c = info.channels[i];
    if (std::string fault = channel_fault(c, key_float_count); !fault.empty())
      return wrong(channel_message(i, fault));
    duration = std::max(duration, keys[c.times_offset + c.key_count - 1]);
  }
  if (channels_overlap(info.channels)) return wrong("two channels share key floats");
  for (size_t i = 0; i < key_float_count; ++i) {
    if (!std::isfinite(keys[i])) return wrong("key float " + std::to_string(i) + " is not finite");
  }
  for (size_t i = 0; i < info.channels.size(); ++i) {
    if (std::string fault = times_fault(info.channels[i], keys, duration); !fault.empty())
      return wrong(channel_message(i, fault));
  }
  return {};
}

Status pack_clip_throwing(const ClipInfo& info, const float* keys, size_t key_float_count,
                          AssetFile& out, const PackOptions& options) {
  float duration = 0;
  if (Status s = check_clip(info, keys, key_float_count, duration); !s) return s;
  const detail::RawSection sections[] = {
      {reinterpret_cast<const std::byte*>(keys), uint64_t(key_float_count) * 4}};
  std::vector<std::byte> blob;
  std::vector<Chunk> chunks;
  if (Status s = detail::pack_sections(sections, options, blob, chunks); !s) return s;
  json channels = json::array();
  for (const ClipChannel& c : info.channels) channels.push_back(channel_to_json(c));
  json meta = {{"name", info.name},
               {"duration", duration},
               {"key_float_count", key_float_count},
               {"channels", std::move(channels)},
               {"original_file", info.original_file}};
  detail::write_chunk_table(meta, options.compression, chunks);
  return detail::finish_asset(out, "CLIP", meta, std::move(blob), "pack_clip");
}

Status unpack_clip_throwing(const ClipInfo& info, const void* src, size_t src_size, float* dst,
                            size_t dst_floats) {
  uint64_t bytes = clip_unpacked_size(info);
  size_t dst_size = dst_floats > SIZE_MAX / 4 ? SIZE_MAX : dst_floats * 4;
  if (Status s = detail::unpack_range(info.compression, info.chunks, 0, bytes, src, src_size, dst,
                                      dst_size);
      !s) {
    return s;
  }
  for (uint64_t i = 0; i < info.key_float_count; ++i) {
    if (!std::isfinite(dst[i])) {
      return Status::error(ErrorCode::InvalidValue,
                           "clip keys: float " + std::to_string(i) + " is not finite");
    }
  }
  for (size_t i = 0; i < info.channels.size(); ++i) {
    if (std::string fault = times_fault(info.channels[i], dst, info.duration); !fault.empty())
      return Status::error(ErrorCode::InvalidValue, "clip keys: " + channel_message(i, fault));
  }
  return {};
}

}  // namespace

const char* clip_path_name(ClipPath path) { return detail::name_of(kPaths, path); }
ClipPath clip_path_from_name(std::string_view name) { return detail::value_of(kPaths, name); }
const char* clip_interpolation_name(ClipInterpolation interpolation) {
  return detail::name_of(kInterpolations, interpolation);
}
ClipInterpolation clip_interpolation_from_name(std::string_view name) {
  return detail::value_of(kInterpolations, name);
}

uint32_t clip_path_components(ClipPath path) {
  switch (path) {
    case ClipPath::Translation:
    case ClipPath::Scale: return 3;
    case ClipPath::Rotation: return 4;
    default: return 0;
  }
}

Status pack_clip(const ClipInfo& info, const float* keys, size_t key_float_count, AssetFile& out,
                 const PackOptions& options) {
  return detail::no_throw(
      "pack_clip", [&] { return pack_clip_throwing(info, keys, key_float_count, out, options); });
}

Status read_clip_info(const AssetView& file, ClipInfo& info) {
  return detail::no_throw("CLIP metadata", [&] { return read_clip_info_throwing(file, info); });
}

Status unpack_clip(const ClipInfo& info, const void* src, size_t src_size, float* dst,
                   size_t dst_floats) {
  // Allocates nothing but error messages.
  return detail::no_throw(
      "unpack_clip", [&] { return unpack_clip_throwing(info, src, src_size, dst, dst_floats); });
}

}  // namespace assetlib
