// Skeleton assets ("SKEL"): round trips, the reader's refusals of hostile metadata, node poses as
// matrices and joint matrices against hand-computed values.
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

// A root joint under a non-joint node lifted by 10 in Y, a child rotated 90 degrees about Z and
// moved 2 along the root's X, a grandchild scaled by 3.
SkeletonInfo sample_skeleton() {
  SkeletonInfo s;
  s.original_file = "models/arm.gltf";
  SkeletonJoint root;
  root.name = "root";
  root.node = 4;
  root.parent_matrix[13] = 10;
  root.rest.translation[0] = 1;
  SkeletonJoint elbow;
  elbow.name = "elbow";
  elbow.parent = 0;
  elbow.node = 5;
  elbow.rest.translation[0] = 2;
  elbow.rest.rotation[2] = kHalfSqrt2;
  elbow.rest.rotation[3] = kHalfSqrt2;
  elbow.inverse_bind[12] = -3;  // any values: the round trip keeps them
  SkeletonJoint hand;
  hand.name = "hand";
  hand.parent = 1;
  hand.node = -1;
  hand.rest.scale[0] = hand.rest.scale[1] = hand.rest.scale[2] = 3;
  s.joints = {root, elbow, hand};
  return s;
}

bool same(const float* a, const float* b, size_t n, float tolerance = 1e-6f) {
  for (size_t i = 0; i < n; ++i) {
    if (std::fabs(a[i] - b[i]) > tolerance) return false;
  }
  return true;
}

// out = a * b, column-major, for the expected values.
void mul(const float* a, const float* b, float* out) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += a[4 * k + r] * b[4 * c + k];
      out[4 * c + r] = sum;
    }
  }
}

}  // namespace

TEST_CASE("skeletons round-trip every field") {
  SkeletonInfo in = sample_skeleton();
  AssetFile file;
  REQUIRE(pack_skeleton(in, file));
  CHECK(std::string(file.type, 4) == "SKEL");
  CHECK(file.blob.empty());
  SkeletonInfo out;
  REQUIRE(read_skeleton_info(file, out));
  CHECK(out.original_file == "models/arm.gltf");
  REQUIRE(out.joints.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const SkeletonJoint &a = in.joints[i], &b = out.joints[i];
    INFO("joint " << i);
    CHECK(a.name == b.name);
    CHECK(a.parent == b.parent);
    CHECK(a.node == b.node);
    CHECK(same(a.rest.translation, b.rest.translation, 3, 0));
    CHECK(same(a.rest.rotation, b.rest.rotation, 4, 0));
    CHECK(same(a.rest.scale, b.rest.scale, 3, 0));
    CHECK(same(a.parent_matrix, b.parent_matrix, 16, 0));
    CHECK(same(a.inverse_bind, b.inverse_bind, 16, 0));
  }
  // Identity parent matrices are written short; the others in full.
  json meta = json::parse(file.json);
  CHECK(meta["joints"][1]["parent_matrix"].empty());
  CHECK(meta["joints"][0]["parent_matrix"].size() == 16);
}

TEST_CASE("pack_skeleton refuses what readers would refuse") {
  AssetFile file;
  SkeletonInfo empty;
  CHECK(pack_skeleton(empty, file).code == ErrorCode::InvalidArgument);
  SkeletonInfo forward = sample_skeleton();
  forward.joints[1].parent = 2;
  CHECK(pack_skeleton(forward, file).code == ErrorCode::InvalidArgument);
  SkeletonInfo self = sample_skeleton();
  self.joints[0].parent = 0;
  CHECK(pack_skeleton(self, file).code == ErrorCode::InvalidArgument);
  SkeletonInfo node = sample_skeleton();
  node.joints[2].node = -2;
  CHECK(pack_skeleton(node, file).code == ErrorCode::InvalidArgument);
  SkeletonInfo nan = sample_skeleton();
  nan.joints[1].inverse_bind[5] = std::nanf("");
  CHECK(pack_skeleton(nan, file).code == ErrorCode::InvalidArgument);
  SkeletonInfo inf = sample_skeleton();
  inf.joints[0].rest.translation[1] = INFINITY;
  CHECK(pack_skeleton(inf, file).code == ErrorCode::InvalidArgument);
  CHECK(file.json.empty());  // never written
}

TEST_CASE("skeleton readers refuse hostile metadata, naming the key") {
  AssetFile good;
  REQUIRE(pack_skeleton(sample_skeleton(), good));
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    ErrorCode code;
    const char* message;  // a part of the message
  };
  const Case cases[] = {
      {"no joints", [](json& m) { m["joints"] = json::array(); }, ErrorCode::InvalidValue,
       "1..65536 joints"},
      {"joints not an array", [](json& m) { m["joints"] = 3; }, ErrorCode::WrongKeyType, "joints"},
      {"missing joints", [](json& m) { m.erase("joints"); }, ErrorCode::MissingKey, "joints"},
      {"parent after the joint", [](json& m) { m["joints"][1]["parent"] = 2; },
       ErrorCode::InvalidValue, "parent"},
      {"parent is the joint", [](json& m) { m["joints"][0]["parent"] = 0; },
       ErrorCode::InvalidValue, "parent"},
      {"parent below -1", [](json& m) { m["joints"][2]["parent"] = -2; }, ErrorCode::InvalidValue,
       "parent"},
      {"node below -1", [](json& m) { m["joints"][2]["node"] = -5; }, ErrorCode::InvalidValue,
       "node"},
      {"node beyond 32 bits", [](json& m) { m["joints"][2]["node"] = 1ll << 40; },
       ErrorCode::InvalidValue, "node"},
      {"name not a string", [](json& m) { m["joints"][0]["name"] = 1; }, ErrorCode::WrongKeyType,
       "name"},
      {"rotation of 3",
       [](json& m) {
         m["joints"][0]["rotation"] = {0, 0, 1};
       },
       ErrorCode::InvalidValue, "rotation"},
      {"inverse bind beyond float", [](json& m) { m["joints"][1]["inverse_bind"][3] = 1e39; },
       ErrorCode::InvalidValue, "inverse_bind"},
      {"inverse bind of 9",
       [](json& m) {
         m["joints"][1]["inverse_bind"] = json::array({1, 0});
       },
       ErrorCode::InvalidValue, "inverse_bind"},
      {"parent matrix of 4",
       [](json& m) {
         m["joints"][0]["parent_matrix"] = {1, 0, 0, 1};
       },
       ErrorCode::InvalidValue, "parent_matrix"},
      {"parent matrix strings",
       [](json& m) { m["joints"][0]["parent_matrix"] = std::vector<std::string>(16, "1"); },
       ErrorCode::WrongKeyType, "parent_matrix"},
      {"missing inverse bind", [](json& m) { m["joints"][2].erase("inverse_bind"); },
       ErrorCode::MissingKey, "inverse_bind"},
      {"a chunk",
       [](json& m) {
         m["chunks"] = {{0, 4, 0, 4}};
       },
       ErrorCode::InvalidValue, ""},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    SkeletonInfo info = sample_skeleton();
    info.original_file = "unchanged";
    Status s = read_skeleton_info(edited(good, c.edit), info);
    CHECK(s.code == c.code);
    CHECK(s.message.rfind("SKEL metadata", 0) == 0);
    CHECK(s.message.find(c.message) != std::string::npos);
    CHECK(info.original_file == "unchanged");
  }
  AssetFile texture = test::packed_texture(4, 4, 1);
  SkeletonInfo info;
  CHECK(read_skeleton_info(texture, info).code == ErrorCode::UnknownType);
}

TEST_CASE("a node pose is translation x rotation x scale") {
  NodePose pose;
  pose.translation[0] = 1;
  pose.translation[1] = 2;
  pose.translation[2] = 3;
  pose.rotation[2] = kHalfSqrt2;  // 90 degrees about +Z
  pose.rotation[3] = kHalfSqrt2;
  pose.scale[0] = 2;
  pose.scale[1] = 3;
  pose.scale[2] = 4;
  float m[16];
  node_pose_matrix(pose, m);
  // Columns: X -> +Y scaled by 2, Y -> -X scaled by 3, Z scaled by 4, then the translation.
  const float expected[16] = {0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
  CHECK(same(m, expected, 16, 1e-6f));
  node_pose_matrix(NodePose{}, m);
  const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  CHECK(same(m, identity, 16, 0));
}

TEST_CASE("joint matrices are world x inverse bind, parents first") {
  SkeletonInfo s = sample_skeleton();
  s.joints[1].inverse_bind[12] = 0;
  std::vector<NodePose> poses = {s.joints[0].rest, s.joints[1].rest, s.joints[2].rest};
  std::vector<float> out(16 * 3, -1.f);

  SECTION("hand values") {
    REQUIRE(skeleton_joint_matrices(s, poses, out));
    // root: parent_matrix (Y + 10) then X + 1: a translation by (1, 10, 0).
    const float root[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 10, 0, 1};
    CHECK(same(out.data(), root, 16));
    // elbow: (1, 10, 0) + (2, 0, 0), rotated 90 degrees about Z.
    const float elbow[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 3, 10, 0, 1};
    CHECK(same(out.data() + 16, elbow, 16));
    // hand: the elbow's frame scaled by 3.
    const float hand[16] = {0, 3, 0, 0, -3, 0, 0, 0, 0, 0, 3, 0, 3, 10, 0, 1};
    CHECK(same(out.data() + 32, hand, 16));
  }
  SECTION("the bind pose gives identities") {
    // inverse_bind = inverse(world at rest): a mesh bound in this pose is drawn where it was.
    REQUIRE(skeleton_joint_matrices(s, poses, out));
    // Inverse of each world matrix by hand (rotation about Z, uniform scale, translation).
    const float inv_root[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -10, 0, 1};
    const float inv_elbow[16] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, -10, 3, 0, 1};
    const float third = 1.f / 3;
    const float inv_hand[16] = {0, -third, 0,     0, third,       0, 0, 0,
                                0, 0,      third, 0, -10 * third, 1, 0, 1};
    std::memcpy(s.joints[0].inverse_bind, inv_root, sizeof inv_root);
    std::memcpy(s.joints[1].inverse_bind, inv_elbow, sizeof inv_elbow);
    std::memcpy(s.joints[2].inverse_bind, inv_hand, sizeof inv_hand);
    REQUIRE(skeleton_joint_matrices(s, poses, out));
    const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int j = 0; j < 3; ++j) {
      INFO("joint " << j);
      CHECK(same(out.data() + 16 * j, identity, 16, 1e-5f));
    }
    // A posed child moves only itself and its children.
    poses[1].rotation[2] = 0;
    poses[1].rotation[3] = 1;
    REQUIRE(skeleton_joint_matrices(s, poses, out));
    CHECK(same(out.data(), identity, 16, 1e-5f));
    float expected[16];
    float elbow_world[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 10, 0, 1};
    mul(elbow_world, inv_elbow, expected);
    CHECK(same(out.data() + 16, expected, 16, 1e-5f));
  }
  SECTION("too few poses or too little room: nothing written") {
    CHECK_FALSE(skeleton_joint_matrices(s, std::span(poses).first(2), out));
    CHECK_FALSE(skeleton_joint_matrices(s, poses, std::span(out).first(47)));
    CHECK(out[0] == -1.f);
  }
}
