#include "import/gltf_transforms.h"

#include <algorithm>
#include <cmath>

namespace baker {
namespace {

// Columns closer to perpendicular than this (cosine) are taken for no shear: exporters round
// matrices to float, and a built TRS matrix multiplies out within a few ulps.
constexpr double kShearTolerance = 1e-4;

double column_length(const Mat4& m, int c) {
  return std::sqrt(double(m[4 * c]) * m[4 * c] + double(m[4 * c + 1]) * m[4 * c + 1] +
                   double(m[4 * c + 2]) * m[4 * c + 2]);
}

// The 3x3 minor of `m` without row `r` and column `c`.
double minor3(const Mat4& m, int r, int c) {
  double a[9];
  int k = 0;
  for (int col = 0; col < 4; ++col) {
    if (col == c) continue;
    for (int row = 0; row < 4; ++row) {
      if (row != r) a[k++] = m[4 * col + row];
    }
  }
  return a[0] * (a[4] * a[8] - a[7] * a[5]) - a[3] * (a[1] * a[8] - a[7] * a[2]) +
         a[6] * (a[1] * a[5] - a[4] * a[2]);
}

double determinant4(const Mat4& m) {
  double det = 0;
  for (int c = 0; c < 4; ++c) det += (c % 2 ? -1.0 : 1.0) * m[4 * c] * minor3(m, 0, c);
  return det;
}

void cross(const double a[3], const double b[3], double out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

double rotation_determinant(const double r[3][3]) {
  double c[3];
  cross(r[1], r[2], c);
  return r[0][0] * c[0] + r[0][1] * c[1] + r[0][2] * c[2];
}

// Fills the columns of `r` whose axis the matrix scales to zero (they have no direction of their
// own) so that the three are a right-handed orthonormal basis. The other columns are unit and
// perpendicular.
void complete_rotation(double r[3][3], const bool zero[3]) {
  const int zeros = zero[0] + zero[1] + zero[2];
  if (zeros == 3) {
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) r[c][k] = c == k ? 1 : 0;
    return;
  }
  bool missing[3] = {zero[0], zero[1], zero[2]};
  if (zeros == 2) {
    // One axis a left: the next is its own world axis made perpendicular to a (no rotation for
    // diag(0, 0, s), so a clip animating only the scale turns nothing), or, when that axis is
    // nearly a's, the world axis least aligned with a.
    const int a = !zero[0] ? 0 : !zero[1] ? 1 : 2, next = (a + 1) % 3;
    int axis = next;
    if (std::fabs(r[a][next]) > 0.9) {
      for (int k = 0; k < 3; ++k) axis = std::fabs(r[a][k]) < std::fabs(r[a][axis]) ? k : axis;
    }
    double length = 0;
    for (int k = 0; k < 3; ++k) {
      r[next][k] = (k == axis ? 1.0 : 0.0) - r[a][axis] * r[a][k];  // Gram-Schmidt
      length += r[next][k] * r[next][k];
    }
    for (double& v : r[next]) v /= std::sqrt(length);
    missing[next] = false;
  }
  for (int c = 0; c < 3; ++c) {  // the one left: x = y × z, y = z × x, z = x × y
    if (missing[c]) cross(r[(c + 1) % 3], r[(c + 2) % 3], r[c]);
  }
}

// The unit quaternion (x, y, z, w) of a rotation matrix given by its orthonormal columns.
void quaternion_of(const double r[3][3], float q[4]) {
  // r[c][row]: column c. Shepperd's method: divide by the largest of the four candidates.
  double m00 = r[0][0], m11 = r[1][1], m22 = r[2][2];
  double trace = m00 + m11 + m22;
  double x, y, z, w;
  if (trace > 0) {
    double s = std::sqrt(trace + 1) * 2;
    w = 0.25 * s;
    x = (r[1][2] - r[2][1]) / s;
    y = (r[2][0] - r[0][2]) / s;
    z = (r[0][1] - r[1][0]) / s;
  } else if (m00 > m11 && m00 > m22) {
    double s = std::sqrt(1 + m00 - m11 - m22) * 2;
    w = (r[1][2] - r[2][1]) / s;
    x = 0.25 * s;
    y = (r[1][0] + r[0][1]) / s;
    z = (r[2][0] + r[0][2]) / s;
  } else if (m11 > m22) {
    double s = std::sqrt(1 + m11 - m00 - m22) * 2;
    w = (r[2][0] - r[0][2]) / s;
    x = (r[1][0] + r[0][1]) / s;
    y = 0.25 * s;
    z = (r[2][1] + r[1][2]) / s;
  } else {
    double s = std::sqrt(1 + m22 - m00 - m11) * 2;
    w = (r[0][1] - r[1][0]) / s;
    x = (r[2][0] + r[0][2]) / s;
    y = (r[2][1] + r[1][2]) / s;
    z = 0.25 * s;
  }
  double length = std::sqrt(x * x + y * y + z * z + w * w);
  q[0] = float(x / length);
  q[1] = float(y / length);
  q[2] = float(z / length);
  q[3] = float(w / length);
}

}  // namespace

Mat4 multiply(const Mat4& a, const Mat4& b) {
  Mat4 out{};
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += double(a[4 * k + r]) * b[4 * c + k];
      out[4 * c + r] = float(sum);
    }
  }
  return out;
}

TransformNotes read_node_transform(const Json& node, const std::string& path,
                                   assetlib::PrefabNode& out) {
  TransformNotes notes;
  if (member(node, path, "matrix")) {
    out.has_matrix = true;
    numbers(node, path, "matrix", out.matrix, 16);
    for (const char* key : {"translation", "rotation", "scale"})
      notes.matrix_and_trs = notes.matrix_and_trs || member(node, path, key);
    return notes;
  }
  numbers(node, path, "translation", out.translation, 3);
  numbers(node, path, "rotation", out.rotation, 4);
  numbers(node, path, "scale", out.scale, 3);
  notes.renormalised = make_unit_rotation(out.rotation);
  return notes;
}

bool make_unit_rotation(float (&q)[4]) {
  double length = 0;
  for (float c : q) length += double(c) * c;
  length = std::sqrt(length);
  if (!(length > 0)) {  // viewers' quaternion-to-matrix formula draws it as no rotation
    q[0] = q[1] = q[2] = 0;
    q[3] = 1;
    return true;
  }
  // Within float rounding of unit, kept as authored (bytes unchanged for valid files).
  if (std::fabs(length - 1) > 1e-5) {
    for (float& c : q) c = float(c / length);
  }
  return std::fabs(length - 1) > 1e-3;
}

Mat4 local_matrix(const assetlib::PrefabNode& node) {
  Mat4 m;
  assetlib::prefab_local_matrix(node, m.data());
  return m;
}

std::optional<assetlib::NodePose> decompose_trs(const Mat4& m, std::string& why) {
  double scale[3], r[3][3];
  bool zero[3];
  for (int c = 0; c < 3; ++c) {
    scale[c] = column_length(m, c);
    zero[c] = !(scale[c] > 0);
    for (int k = 0; k < 3; ++k) r[c][k] = zero[c] ? 0 : m[4 * c + k] / scale[c];
  }
  for (int a = 0; a < 3; ++a) {
    for (int b = a + 1; b < 3; ++b) {
      double cosine = r[a][0] * r[b][0] + r[a][1] * r[b][1] + r[a][2] * r[b][2];
      if (std::fabs(cosine) > kShearTolerance) {
        why = "a shear (its axes are not perpendicular)";
        return std::nullopt;
      }
    }
  }
  complete_rotation(r, zero);
  // A mirror is a negative scale: on the axis the matrix turns furthest from itself, so that
  // diag(1, -1, 1) comes apart as scale (1, -1, 1) and no rotation.
  if (rotation_determinant(r) < 0) {
    int flip = 0;
    for (int c = 1; c < 3; ++c) flip = r[c][c] < r[flip][flip] ? c : flip;
    scale[flip] = -scale[flip];
    for (double& v : r[flip]) v = -v;
  }
  assetlib::NodePose pose;
  for (int k = 0; k < 3; ++k) {
    pose.translation[k] = m[12 + k];
    pose.scale[k] = zero[k] ? 0.0f : float(scale[k]);
  }
  quaternion_of(r, pose.rotation);
  return pose;
}

bool well_invertible(const Mat4& m) {
  double bound = 1;
  for (int c = 0; c < 4; ++c) {
    double length =
        std::sqrt(double(m[4 * c]) * m[4 * c] + double(m[4 * c + 1]) * m[4 * c + 1] +
                  double(m[4 * c + 2]) * m[4 * c + 2] + double(m[4 * c + 3]) * m[4 * c + 3]);
    bound *= length;
  }
  return bound > 0 && std::isfinite(bound) && std::fabs(determinant4(m)) >= 1e-6 * bound;
}

std::optional<Mat4> affine_inverse(const Mat4& m) {
  if (!well_invertible(m)) return std::nullopt;
  auto at = [&](int row, int column) { return double(m[4 * column + row]); };
  // The 3x3 part by its adjugate, then the translation moved back through it.
  double cofactor[3][3];
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      cofactor[r][c] = at(r1, c1) * at(r2, c2) - at(r1, c2) * at(r2, c1);
    }
  }
  const double det =
      at(0, 0) * cofactor[0][0] + at(0, 1) * cofactor[0][1] + at(0, 2) * cofactor[0][2];
  if (det == 0) return std::nullopt;
  Mat4 out = kIdentity;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out[4 * c + r] = float(cofactor[c][r] / det);
  }
  for (int r = 0; r < 3; ++r) {
    double t = 0;
    for (int c = 0; c < 3; ++c) t -= double(out[4 * c + r]) * at(c, 3);
    out[12 + r] = float(t);
  }
  return out;
}

GltfHierarchy::GltfHierarchy(const Json& root) : root_(root) {
  size_t count = array_size(root, "nodes");
  parents_.assign(count, -1);
  world_.resize(count);
  for (size_t n = 0; n < count; ++n) {
    std::string path = json_path("nodes", n);
    const Json& children = array_or_empty(root["nodes"][n], path, "children");
    for (size_t c = 0; c < children.size(); ++c) {
      uint32_t child =
          index_value(children[c], json_path(json_path(path, "children"), c), count, "node");
      if (parents_[child] < 0) parents_[child] = int64_t(n);
    }
  }
}

std::optional<uint32_t> GltfHierarchy::parent(uint32_t node) const {
  if (node >= parents_.size() || parents_[node] < 0) return std::nullopt;
  return uint32_t(parents_[node]);
}

std::optional<uint32_t> GltfHierarchy::nearest_ancestor(uint32_t node,
                                                        const std::vector<bool>& in_set,
                                                        std::vector<int64_t>& memo) const {
  // Walk up until an ancestor in the set, the root or a node already answered; every node on the
  // way (none of them in the set) has the same answer.
  std::vector<uint32_t> path;
  int64_t found = -1;
  for (uint32_t at = node;;) {
    if (memo[at] != -2) {
      found = memo[at];
      break;
    }
    path.push_back(at);
    if (path.size() > parents_.size()) {
      throw GltfError(json_path("nodes", node),
                      "is its own ancestor (the node hierarchy has a cycle)");
    }
    if (parents_[at] < 0) break;
    uint32_t up = uint32_t(parents_[at]);
    if (in_set[up]) {
      found = up;
      break;
    }
    at = up;
  }
  for (uint32_t p : path) memo[p] = found;
  if (found < 0) return std::nullopt;
  return uint32_t(found);
}

Mat4 GltfHierarchy::world_matrix(uint32_t node) {
  // The chain up to the first node whose world matrix is known (or the root), then down it.
  std::vector<uint32_t> chain;
  for (int64_t at = node; at >= 0 && !world_[size_t(at)]; at = parents_[size_t(at)]) {
    chain.push_back(uint32_t(at));
    if (chain.size() > parents_.size()) {
      throw GltfError(json_path("nodes", node),
                      "is its own ancestor (the node hierarchy has a cycle)");
    }
  }
  for (size_t i = chain.size(); i-- > 0;) {
    uint32_t n = chain[i];
    assetlib::PrefabNode transform;
    read_node_transform(root_["nodes"][n], json_path("nodes", n), transform);
    Mat4 above = parents_[n] < 0 ? kIdentity : *world_[size_t(parents_[n])];
    world_[n] = multiply(above, local_matrix(transform));
  }
  return *world_[node];
}

}  // namespace baker
