// Clip assets ("CLIP"): round trips, the refusals of the reader, of unpack_clip and of the writer,
// and sample_clip against hand-computed values for each interpolation.
#include "edited_metadata.h"
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <functional>

using namespace assetlib;
using nlohmann::json;
using test::edited;

namespace {

constexpr float kHalfSqrt2 = 0.70710678f;

struct Clip {
  ClipInfo info;
  std::vector<float> keys;

  // Appends a channel: its times, then its values.
  void add(uint32_t node, ClipPath path, ClipInterpolation interpolation, std::vector<float> times,
           std::vector<float> values) {
    ClipChannel c;
    c.node = node;
    c.path = path;
    c.interpolation = interpolation;
    c.key_count = uint32_t(times.size());
    c.times_offset = keys.size();
    keys.insert(keys.end(), times.begin(), times.end());
    c.values_offset = keys.size();
    keys.insert(keys.end(), values.begin(), values.end());
    info.channels.push_back(c);
    info.key_float_count = keys.size();
  }
};

// Node 1 moves linearly, node 0 turns 90 degrees about Z, node 2 scales in steps, node 3 moves
// along a cubic spline. Duration 3 s.
Clip sample_clip_data() {
  Clip clip;
  clip.info.name = "Walk";
  clip.info.original_file = "models/fox.glb";
  clip.add(1, ClipPath::Translation, ClipInterpolation::Linear, {0, 1, 3},
           {0, 0, 0, 2, 4, 6, 2, 4, 0});
  clip.add(0, ClipPath::Rotation, ClipInterpolation::Linear, {0, 2},
           {0, 0, 0, 1, 0, 0, kHalfSqrt2, kHalfSqrt2});
  clip.add(2, ClipPath::Scale, ClipInterpolation::Step, {0.5f, 1.5f}, {1, 1, 1, 2, 2, 2});
  // Keys (in-tangent, value, out-tangent): x from 0 (out-tangent 3) to 1 (in-tangent 0).
  clip.add(3, ClipPath::Translation, ClipInterpolation::CubicSpline, {0, 2},
           {0, 0, 0, 0, 0, 0, 3, 0, 0, /**/ 0, 0, 0, 1, 0, 0, 0, 0, 0});
  return clip;
}

AssetFile packed(const Clip& clip, Compression compression = Compression::LZ4) {
  PackOptions options;
  options.compression = compression;
  AssetFile file;
  REQUIRE(pack_clip(clip.info, clip.keys.data(), clip.keys.size(), file, options));
  return file;
}

// Poses of 4 nodes after sampling the clip at `time` (from the default pose).
std::vector<NodePose> sampled(const Clip& clip, float time) {
  std::vector<NodePose> poses(4);
  sample_clip(clip.info, clip.keys.data(), time, poses);
  return poses;
}

bool near(const float* got, std::initializer_list<float> expected, float tolerance = 1e-6f) {
  const float* e = expected.begin();
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::fabs(got[i] - e[i]) > tolerance) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("clips round-trip channels and keys with both codecs") {
  Clip clip = sample_clip_data();
  AssetFile file = packed(clip, GENERATE(Compression::LZ4, Compression::None));
  CHECK(std::string(file.type, 4) == "CLIP");
  ClipInfo info;
  REQUIRE(read_clip_info(file, info));
  CHECK(info.name == "Walk");
  CHECK(info.original_file == "models/fox.glb");
  CHECK(info.duration == 3);  // the last key of any channel
  CHECK(info.key_float_count == clip.keys.size());
  CHECK(clip_unpacked_size(info) == clip.keys.size() * 4);
  REQUIRE(info.channels.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    const ClipChannel &a = clip.info.channels[i], &b = info.channels[i];
    CHECK(a.node == b.node);
    CHECK(a.path == b.path);
    CHECK(a.interpolation == b.interpolation);
    CHECK(a.key_count == b.key_count);
    CHECK(a.times_offset == b.times_offset);
    CHECK(a.values_offset == b.values_offset);
  }
  std::vector<float> keys(info.key_float_count);
  REQUIRE(unpack_clip(info, file.blob.data(), file.blob.size(), keys.data(), keys.size()));
  CHECK(keys == clip.keys);
  CHECK(unpack_clip(info, file.blob.data(), file.blob.size(), keys.data(), keys.size() - 1).code ==
        ErrorCode::DestinationTooSmall);
}

TEST_CASE("names of clip paths and interpolations") {
  CHECK(clip_path_from_name("rotation") == ClipPath::Rotation);
  CHECK(clip_path_from_name("weights") == ClipPath::Unknown);
  CHECK(std::string(clip_path_name(ClipPath::Scale)) == "scale");
  CHECK(std::string(clip_path_name(ClipPath(9))) == "Unknown");
  CHECK(clip_interpolation_from_name("cubicspline") == ClipInterpolation::CubicSpline);
  CHECK(clip_interpolation_from_name("LINEAR") == ClipInterpolation::Unknown);
  CHECK(std::string(clip_interpolation_name(ClipInterpolation::Step)) == "step");
  CHECK(clip_path_components(ClipPath::Rotation) == 4);
  CHECK(clip_path_components(ClipPath::Translation) == 3);
  CHECK(clip_path_components(ClipPath::Unknown) == 0);
}

TEST_CASE("sample_clip: linear translation, clamped before the first and after the last key") {
  Clip clip = sample_clip_data();
  CHECK(near(sampled(clip, 0.5f)[1].translation, {1, 2, 3}));
  CHECK(near(sampled(clip, 2.0f)[1].translation, {2, 4, 3}));
  CHECK(near(sampled(clip, 1.0f)[1].translation, {2, 4, 6}));  // exactly on a key
  CHECK(near(sampled(clip, -1.0f)[1].translation, {0, 0, 0}));
  CHECK(near(sampled(clip, 5.0f)[1].translation, {2, 4, 0}));
  CHECK(near(sampled(clip, 3.0f)[1].translation, {2, 4, 0}));
  CHECK(near(sampled(clip, std::nanf(""))[1].translation, {0, 0, 0}));
  // Channels set only their own path.
  CHECK(near(sampled(clip, 0.5f)[1].rotation, {0, 0, 0, 1}));
}

TEST_CASE("sample_clip: rotations slerp along the shorter arc and come out normalised") {
  Clip clip = sample_clip_data();
  const float s = std::sin(0.3926991f), c = std::cos(0.3926991f);      // 22.5 degrees
  CHECK(near(sampled(clip, 1.0f)[0].rotation, {0, 0, s, c}, 1e-5f));   // halfway: 45 degrees
  const float s1 = std::sin(0.19634954f), c1 = std::cos(0.19634954f);  // 11.25 degrees
  CHECK(near(sampled(clip, 0.5f)[0].rotation, {0, 0, s1, c1}, 1e-5f));
  // The same rotation as -q: slerp must not take the long way round (which would pass 180).
  Clip negated = clip;
  float* q = negated.keys.data() + negated.info.channels[1].values_offset + 4;
  for (int i = 0; i < 4; ++i) q[i] = -q[i];
  CHECK(near(sampled(negated, 1.0f)[0].rotation, {0, 0, s, c}, 1e-5f));
  // Non-unit keys are normalised.
  Clip scaled = clip;
  float* q0 = scaled.keys.data() + scaled.info.channels[1].values_offset;
  q0[3] = 2;
  CHECK(near(sampled(scaled, 0)[0].rotation, {0, 0, 0, 1}));
  // Nearly equal keys: a normalised lerp, still unit length.
  Clip close = clip;
  float* q1 = close.keys.data() + close.info.channels[1].values_offset + 4;
  q1[2] = 0.001f;
  q1[3] = 1;
  std::vector<NodePose> poses = sampled(close, 1.0f);
  const float* rc = poses[0].rotation;
  CHECK(std::fabs(rc[0] * rc[0] + rc[1] * rc[1] + rc[2] * rc[2] + rc[3] * rc[3] - 1) < 1e-6f);
  CHECK(std::fabs(rc[2] - 0.0005f) < 1e-5f);
}

TEST_CASE("sample_clip: step holds a key until the next") {
  Clip clip = sample_clip_data();
  CHECK(near(sampled(clip, 0.0f)[2].scale, {1, 1, 1}));  // before the first key
  CHECK(near(sampled(clip, 1.0f)[2].scale, {1, 1, 1}));
  CHECK(near(sampled(clip, 1.49f)[2].scale, {1, 1, 1}));
  CHECK(near(sampled(clip, 1.5f)[2].scale, {2, 2, 2}));
  CHECK(near(sampled(clip, 9.0f)[2].scale, {2, 2, 2}));
}

TEST_CASE("sample_clip: cubic spline is glTF's Hermite curve over the key interval") {
  Clip clip = sample_clip_data();
  // dt = 2; p(s) = (2s^3 - 3s^2 + 1) v0 + dt (s^3 - 2s^2 + s) b0 + (-2s^3 + 3s^2) v1
  // + dt (s^3 - s^2) a1, with v0 = 0, b0 = 3, v1 = 1, a1 = 0.
  // t = 1: s = 0.5: 2 * 0.125 * 3 + 0.5 = 1.25. t = 0.5: s = 0.25: 2 * 0.140625 * 3 + 0.15625 = 1.
  CHECK(near(sampled(clip, 1.0f)[3].translation, {1.25f, 0, 0}));
  CHECK(near(sampled(clip, 0.5f)[3].translation, {1.0f, 0, 0}));
  // The values, not the tangents, at and beyond the ends.
  CHECK(near(sampled(clip, 0.0f)[3].translation, {0, 0, 0}));
  CHECK(near(sampled(clip, 2.0f)[3].translation, {1, 0, 0}));
  CHECK(near(sampled(clip, 7.0f)[3].translation, {1, 0, 0}));
}

TEST_CASE("sample_clip: a cubic spline rotation is normalised") {
  Clip clip;
  // From identity to 90 degrees about Z, zero tangents: at s = 0.5 the raw curve is the midpoint,
  // (0, 0, 0.3536, 0.8536), whose length is 0.924.
  clip.add(0, ClipPath::Rotation, ClipInterpolation::CubicSpline, {0, 1},
           {0,      0, 0, 0, 0, 0, 0,          1,          0, 0, 0, 0,
            /**/ 0, 0, 0, 0, 0, 0, kHalfSqrt2, kHalfSqrt2, 0, 0, 0, 0});
  std::vector<NodePose> poses(1);
  sample_clip(clip.info, clip.keys.data(), 0.5f, poses);
  const float z = 0.5f * kHalfSqrt2, w = 0.5f + 0.5f * kHalfSqrt2;
  const float len = std::sqrt(z * z + w * w);
  CHECK(near(poses[0].rotation, {0, 0, z / len, w / len}, 1e-6f));
}

TEST_CASE("sample_clip skips channels of nodes beyond the poses given") {
  Clip clip = sample_clip_data();
  std::vector<NodePose> poses(2);
  sample_clip(clip.info, clip.keys.data(), 1.0f, poses);  // channels of nodes 2 and 3 skipped
  CHECK(near(poses[1].translation, {2, 4, 6}));
  sample_clip(clip.info, clip.keys.data(), 1.0f, std::span<NodePose>());
}

TEST_CASE("clip readers refuse hostile metadata") {
  AssetFile good = packed(sample_clip_data());
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    ErrorCode code;
  };
  const Case cases[] = {
      {"weights path", [](json& m) { m["channels"][0]["path"] = "weights"; },
       ErrorCode::InvalidValue},
      {"unknown interpolation", [](json& m) { m["channels"][1]["interpolation"] = "LINEAR"; },
       ErrorCode::InvalidValue},
      {"no keys", [](json& m) { m["channels"][2]["key_count"] = 0; }, ErrorCode::InvalidValue},
      {"times past the keys", [](json& m) { m["channels"][3]["times_offset"] = 49; },
       ErrorCode::InvalidValue},
      {"values past the keys", [](json& m) { m["channels"][3]["values_offset"] = 40; },
       ErrorCode::InvalidValue},
      {"offset wrapping", [](json& m) { m["channels"][0]["values_offset"] = UINT64_MAX - 2; },
       ErrorCode::InvalidValue},
      {"cubic values past the keys", [](json& m) { m["channels"][3]["key_count"] = 3; },
       ErrorCode::InvalidValue},
      {"a huge key count", [](json& m) { m["channels"][2]["key_count"] = 4000000000u; },
       ErrorCode::InvalidValue},
      {"negative node", [](json& m) { m["channels"][0]["node"] = -1; }, ErrorCode::WrongKeyType},
      {"negative duration", [](json& m) { m["duration"] = -1; }, ErrorCode::InvalidValue},
      {"infinite duration", [](json& m) { m["duration"] = 1e39; }, ErrorCode::InvalidValue},
      {"more keys than the chunks hold", [](json& m) { m["key_float_count"] = 100; },
       ErrorCode::InvalidValue},
      {"fewer keys than the chunks hold", [](json& m) { m["key_float_count"] = 30; },
       ErrorCode::InvalidValue},
      {"keys over 4 GiB", [](json& m) { m["key_float_count"] = uint64_t(1) << 40; },
       ErrorCode::InvalidValue},
      {"missing name", [](json& m) { m.erase("name"); }, ErrorCode::MissingKey},
      {"channels not an array", [](json& m) { m["channels"] = json::object(); },
       ErrorCode::WrongKeyType},
      {"unknown codec", [](json& m) { m["compression"] = "zstd"; }, ErrorCode::UnknownCompression},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    ClipInfo info;
    info.name = "unchanged";
    Status s = read_clip_info(edited(good, c.edit), info);
    CHECK(s.code == c.code);
    CHECK(s.message.rfind("CLIP metadata", 0) == 0);
    CHECK(info.name == "unchanged");
  }
  ClipInfo info;
  CHECK(read_clip_info(test::packed_texture(4, 4, 1), info).code == ErrorCode::UnknownType);
}

TEST_CASE("unpack_clip refuses keys that are not finite or not strictly increasing") {
  Clip clip = sample_clip_data();
  AssetFile file = packed(clip, Compression::None);  // raw floats: patchable in place
  ClipInfo info;
  REQUIRE(read_clip_info(file, info));
  auto with_key = [&](size_t index, float value) {
    AssetFile patched = file;
    std::memcpy(patched.blob.data() + index * 4, &value, 4);
    std::vector<float> keys(info.key_float_count);
    return unpack_clip(info, patched.blob.data(), patched.blob.size(), keys.data(), keys.size());
  };
  const size_t times = info.channels[0].times_offset;                 // 0, 1, 3
  CHECK(with_key(times + 1, 0.0f).code == ErrorCode::InvalidValue);   // repeated
  CHECK(with_key(times + 1, -0.5f).code == ErrorCode::InvalidValue);  // decreasing
  CHECK(with_key(times, -0.5f).code == ErrorCode::InvalidValue);      // negative
  CHECK(with_key(times + 2, 4.0f).code == ErrorCode::InvalidValue);   // after the duration
  CHECK(with_key(times + 1, std::nanf("")).code == ErrorCode::InvalidValue);
  CHECK(with_key(info.channels[1].values_offset + 2, INFINITY).code == ErrorCode::InvalidValue);
  Status s = with_key(times + 1, 0.0f);
  CHECK(s.message.find("channel 0") != std::string::npos);
  CHECK(with_key(times + 1, 0.5f));  // still increasing: fine
  // A truncated blob is refused, not read past.
  std::vector<float> keys(info.key_float_count);
  CHECK(unpack_clip(info, file.blob.data(), file.blob.size() - 1, keys.data(), keys.size()).code ==
        ErrorCode::TruncatedHeader);
}

TEST_CASE("pack_clip refuses what readers or unpack_clip would refuse") {
  AssetFile out;
  auto refused = [&](const Clip& clip) {
    return pack_clip(clip.info, clip.keys.data(), clip.keys.size(), out).code ==
           ErrorCode::InvalidArgument;
  };
  Clip decreasing;
  decreasing.add(0, ClipPath::Scale, ClipInterpolation::Linear, {1, 0.5f}, {1, 1, 1, 2, 2, 2});
  CHECK(refused(decreasing));
  Clip negative;
  negative.add(0, ClipPath::Scale, ClipInterpolation::Linear, {-1, 0.5f}, {1, 1, 1, 2, 2, 2});
  CHECK(refused(negative));
  Clip nan_value;
  nan_value.add(0, ClipPath::Scale, ClipInterpolation::Step, {0}, {1, std::nanf(""), 1});
  CHECK(refused(nan_value));
  Clip unknown = sample_clip_data();
  unknown.info.channels[2].path = ClipPath::Unknown;
  CHECK(refused(unknown));
  Clip unknown_interpolation = sample_clip_data();
  unknown_interpolation.info.channels[2].interpolation = ClipInterpolation(7);
  CHECK(refused(unknown_interpolation));
  Clip outside = sample_clip_data();
  outside.info.channels[3].values_offset = outside.keys.size() - 3;
  CHECK(refused(outside));
  Clip overlap = sample_clip_data();
  overlap.info.channels[1].times_offset = overlap.info.channels[0].values_offset;
  CHECK(refused(overlap));
  Clip no_keys = sample_clip_data();
  no_keys.info.channels[0].key_count = 0;
  CHECK(refused(no_keys));
  CHECK(out.json.empty());
  // A clip without channels is a valid, empty clip.
  Clip empty;
  empty.info.name = "nothing";
  REQUIRE(pack_clip(empty.info, nullptr, 0, out));
  ClipInfo info;
  REQUIRE(read_clip_info(out, info));
  CHECK(info.duration == 0);
  CHECK(info.channels.empty());
  CHECK(unpack_clip(info, out.blob.data(), out.blob.size(), nullptr, 0));
}
