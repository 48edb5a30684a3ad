// Poses to matrices: a node's TRS as a matrix, and a skeleton's joint matrices in one pass.
#include <assetlib/skeleton_asset.h>

#include <cstring>

namespace assetlib {
namespace {

// out = a * b, column-major 4x4. `out` may alias `a` or `b`: the product is built aside first.
void multiply(const float a[16], const float b[16], float out[16]) {
  float m[16];
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      m[4 * c + r] = a[r] * b[4 * c] + a[4 + r] * b[4 * c + 1] + a[8 + r] * b[4 * c + 2] +
                     a[12 + r] * b[4 * c + 3];
    }
  }
  std::memcpy(out, m, sizeof m);
}

}  // namespace

void node_pose_matrix(const NodePose& pose, float m[16]) {
  const float x = pose.rotation[0], y = pose.rotation[1], z = pose.rotation[2],
              w = pose.rotation[3];
  // Columns of R(q) * S, then the translation.
  const float r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                      2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                      2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
  for (int c = 0; c < 3; ++c) {
    for (int k = 0; k < 3; ++k) m[4 * c + k] = r[3 * c + k] * pose.scale[c];
    m[4 * c + 3] = 0;
  }
  m[12] = pose.translation[0];
  m[13] = pose.translation[1];
  m[14] = pose.translation[2];
  m[15] = 1;
}

bool skeleton_joint_matrices(const SkeletonInfo& info, std::span<const NodePose> poses,
                             std::span<float> out) {
  const size_t count = info.joints.size();
  if (poses.size() < count || out.size() / 16 < count) return false;
  // First pass: world matrices, in place in `out` (a parent comes first, so its world matrix is
  // there when its children need it). Second pass: times the inverse bind matrices.
  for (size_t j = 0; j < count; ++j) {
    const SkeletonJoint& joint = info.joints[j];
    float local[16];
    node_pose_matrix(poses[j], local);
    const float* parent =
        joint.parent < 0 ? joint.parent_matrix : out.data() + 16 * size_t(joint.parent);
    multiply(parent, local, out.data() + 16 * j);
  }
  for (size_t j = 0; j < count; ++j) {
    multiply(out.data() + 16 * j, info.joints[j].inverse_bind, out.data() + 16 * j);
  }
  return true;
}

}  // namespace assetlib
