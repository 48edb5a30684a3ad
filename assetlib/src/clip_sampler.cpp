// Evaluating a clip at a time: each channel's keys (glTF's sampler semantics) into node poses.
#include <assetlib/clip_asset.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace assetlib {
namespace {

// Above this cosine the two rotations are so close that slerp's sin(theta) loses precision: a
// normalised lerp is then as exact.
constexpr float kNearlyParallel = 0.9995f;

// Unit length; a zero (or non-finite) quaternion becomes the identity rather than NaNs. In double:
// the squares of floats neither overflow nor underflow there, so any other input comes out unit.
void normalize_quaternion(float q[4]) {
  double length = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] +
                            double(q[3]) * q[3]);
  if (!(length > 0) || !std::isfinite(length)) {
    q[0] = q[1] = q[2] = 0;
    q[3] = 1;
    return;
  }
  for (int i = 0; i < 4; ++i) q[i] = float(q[i] / length);
}

// Spherical interpolation from `a` to `b` along the shorter arc (q and -q are one rotation).
void slerp(const float a_in[4], const float b_in[4], float s, float out[4]) {
  float a[4], b[4];
  std::memcpy(a, a_in, sizeof a);
  std::memcpy(b, b_in, sizeof b);
  normalize_quaternion(a);
  normalize_quaternion(b);
  float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (dot < 0) {
    for (float& x : b) x = -x;
    dot = -dot;
  }
  float wa = 1 - s, wb = s;
  if (dot < kNearlyParallel) {
    float theta = std::acos(dot), sin_theta = std::sin(theta);
    wa = std::sin((1 - s) * theta) / sin_theta;
    wb = std::sin(s * theta) / sin_theta;
  }
  for (int i = 0; i < 4; ++i) out[i] = wa * a[i] + wb * b[i];
  normalize_quaternion(out);
}

// glTF's cubic Hermite spline between keys k and k + 1 (Appendix C of the glTF 2.0 specification):
// `v0`, `v1` the values, `out0` key k's out-tangent, `in1` key k + 1's in-tangent, `dt` the time
// between the keys, `s` in [0, 1).
void hermite(const float* v0, const float* out0, const float* in1, const float* v1, uint32_t n,
             float dt, float s, float* out) {
  float s2 = s * s, s3 = s2 * s;
  float h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  for (uint32_t i = 0; i < n; ++i) {
    out[i] = h00 * v0[i] + h10 * dt * out0[i] + h01 * v1[i] + h11 * dt * in1[i];
  }
}

// The channel's value at `time` into `out` (components floats).
void sample_channel(const ClipChannel& c, const float* keys, float time, float* out) {
  const uint32_t n = clip_path_components(c.path);
  const bool cubic = c.interpolation == ClipInterpolation::CubicSpline;
  const uint32_t stride = cubic ? 3 * n : n;
  const float* times = keys + c.times_offset;
  const float* values = keys + c.values_offset;
  // A cubic spline key is (in-tangent, value, out-tangent).
  auto value = [&](uint32_t k) { return values + size_t(k) * stride + (cubic ? n : 0); };
  const uint32_t last = c.key_count - 1;
  // Clamped before the first key (and for a NaN time) and after the last.
  if (!(time > times[0]) || last == 0) {
    std::memcpy(out, value(0), n * sizeof(float));
    return;
  }
  if (time >= times[last]) {
    std::memcpy(out, value(last), n * sizeof(float));
    return;
  }
  // times[k] <= time < times[k + 1].
  uint32_t k = uint32_t(std::upper_bound(times, times + c.key_count, time) - times) - 1;
  float dt = times[k + 1] - times[k];
  float s = (time - times[k]) / dt;
  if (c.interpolation == ClipInterpolation::Step) {
    std::memcpy(out, value(k), n * sizeof(float));
  } else if (cubic) {
    const float* out_tangent = values + size_t(k) * stride + 2 * n;
    const float* in_tangent = values + size_t(k + 1) * stride;
    hermite(value(k), out_tangent, in_tangent, value(k + 1), n, dt, s, out);
  } else if (c.path == ClipPath::Rotation) {
    slerp(value(k), value(k + 1), s, out);
  } else {
    // In double: the difference of two finite floats may overflow a float.
    for (uint32_t i = 0; i < n; ++i) {
      double a = value(k)[i], b = value(k + 1)[i];
      out[i] = float(a + s * (b - a));
    }
  }
}

}  // namespace

void sample_clip(const ClipInfo& info, const float* keys, float time, std::span<NodePose> poses) {
  for (const ClipChannel& c : info.channels) {
    if (c.node >= poses.size()) continue;
    NodePose& pose = poses[c.node];
    switch (c.path) {
      case ClipPath::Translation: sample_channel(c, keys, time, pose.translation); break;
      case ClipPath::Scale: sample_channel(c, keys, time, pose.scale); break;
      case ClipPath::Rotation:
        sample_channel(c, keys, time, pose.rotation);
        normalize_quaternion(pose.rotation);
        break;
      default: break;
    }
  }
}

}  // namespace assetlib
