// glTF skins and animations through the baker on generated files, each feature and each refusal
// at a time, and on every skinned or animated model of the corpus; the weight quantisation.
#include "../cpu_time.h"
#include "gltf_fixture.h"
#include "temp_dir.h"

#include "cli/commands.h"
#include "common/content_hash.h"

#include "common/skin_influences.h"

#include <cmath>
#include <cstring>
#include <numeric>

using namespace assetlib;
using nlohmann::json;

namespace {

// A quad whose top two vertices follow "knee" and bottom two "hip": nodes 0 "body" (the mesh,
// skinned), 1 "hip" at y = 1 with child 2 "knee" at y = 1 above it. One animation turns the knee.
struct SkinnedQuad {
  std::vector<float> positions = {0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 0};
  std::vector<uint16_t> indices = {0, 1, 2, 0, 2, 3};
  std::vector<uint8_t> joints = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  std::vector<float> weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  // Inverse world matrices at rest: hip at y = 1, knee at y = 2.
  std::vector<float> inverse_binds = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
                                      1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1};
  std::vector<float> times = {0, 1};
  std::vector<float> rotations = {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f};
  std::string interpolation = "LINEAR";

  test::GeneratedGltf build() const {
    test::GeneratedGltf g;
    g.doc = {{"asset", {{"version", "2.0"}}}};
    size_t pos = g.add(positions.data(), positions.size() * 4, 5126, "VEC3", positions.size() / 3);
    size_t idx = g.add(indices.data(), indices.size() * 2, 5123, "SCALAR", indices.size());
    size_t jnt = g.add(joints.data(), joints.size(), 5121, "VEC4", joints.size() / 4);
    size_t wgt = g.add(weights.data(), weights.size() * 4, 5126, "VEC4", weights.size() / 4);
    size_t ibm = g.add(inverse_binds.data(), inverse_binds.size() * 4, 5126, "MAT4",
                       inverse_binds.size() / 16);
    size_t in = g.add(times.data(), times.size() * 4, 5126, "SCALAR", times.size());
    size_t out = g.add(rotations.data(), rotations.size() * 4, 5126, "VEC4", rotations.size() / 4);
    g.doc["meshes"] = {
        {{"primitives",
          {{{"attributes", {{"POSITION", pos}, {"JOINTS_0", jnt}, {"WEIGHTS_0", wgt}}},
            {"indices", idx}}}}}};
    g.doc["nodes"] = {{{"name", "body"}, {"mesh", 0}, {"skin", 0}},
                      {{"name", "hip"}, {"translation", {0, 1, 0}}, {"children", {2}}},
                      {{"name", "knee"}, {"translation", {0, 1, 0}}}};
    g.doc["skins"] = {{{"joints", {1, 2}}, {"inverseBindMatrices", ibm}}};
    g.doc["animations"] = {
        {{"name", "bend"},
         {"samplers", {{{"input", in}, {"output", out}, {"interpolation", interpolation}}}},
         {"channels", {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}}}}}};
    g.doc["scenes"] = {{{"nodes", {0, 1}}}};
    return g;
  }
};

test::BakedScene bake(const test::GeneratedGltf& g) {
  return test::bake_gltf_bytes(g.bytes(), "c.gltf");
}

// The baked skin records of the mesh, with its info.
std::vector<Skin_J8W8> skin_of(const test::BakedScene& baked, MeshInfo& info) {
  info = baked.mesh("c.gltf#mesh/0");
  REQUIRE(info.skin_format == SkinFormat::J8W8);
  const baker::BakedAsset* a = baked.find("c.gltf#mesh/0");
  std::vector<Skin_J8W8> out(info.vertex_count);
  REQUIRE(unpack_mesh_skin(info, a->file.blob.data(), a->file.blob.size(), out.data(),
                           info.skin_buffer_size));
  return out;
}

SkeletonInfo skeleton_of(const test::BakedScene& baked, const std::string& name) {
  const baker::BakedAsset* a = baked.find(name);
  INFO(name);
  REQUIRE(a);
  SkeletonInfo info;
  REQUIRE(read_skeleton_info(a->file, info));
  return info;
}

ClipInfo clip_of(const test::BakedScene& baked, const std::string& name, std::vector<float>& keys) {
  const baker::BakedAsset* a = baked.find(name);
  INFO(name);
  REQUIRE(a);
  ClipInfo info;
  REQUIRE(read_clip_info(a->file, info));
  keys.resize(info.key_float_count);
  REQUIRE(unpack_clip(info, a->file.blob.data(), a->file.blob.size(), keys.data(), keys.size()));
  return info;
}

// The baked file failed with `code`, its message holding `text`.
void refused(const test::BakedScene& baked, baker::BakeError code, const std::string& text) {
  INFO(baked.status.message());
  CHECK(baked.status.code == code);
  CHECK(baked.status.message().find(text) != std::string::npos);
  CHECK(baked.status.message().find("c.gltf") != std::string::npos);
}

}  // namespace

TEST_CASE("a skinned, animated glTF bakes a skeleton, a skin stream and a clip") {
  test::BakedScene baked = bake(SkinnedQuad().build());
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  for (const std::string& w : baked.warnings) INFO(w);
  CHECK_FALSE(baked.warned("not baked"));
  PrefabInfo prefab = baked.prefab();
  REQUIRE(prefab.nodes.size() == 3);  // body, hip, knee
  CHECK(prefab.nodes[0].skin == "c.gltf#skin/0");
  CHECK(prefab.nodes[1].skin.empty());
  CHECK(prefab.clips == std::vector<std::string>{"c.gltf#clip/0"});
  const baker::BakedAsset* skel = baked.find("c.gltf#skin/0");
  REQUIRE(skel);
  CHECK(skel->path == "c.gltf.parts/0.skel");
  CHECK(baked.find("c.gltf#clip/0")->path == "c.gltf.parts/0.clip");

  SkeletonInfo skeleton = skeleton_of(baked, "c.gltf#skin/0");
  REQUIRE(skeleton.joints.size() == 2);
  CHECK(skeleton.joints[0].name == "hip");
  CHECK(skeleton.joints[0].parent == -1);
  CHECK(skeleton.joints[0].node == 1);
  CHECK(skeleton.joints[1].name == "knee");
  CHECK(skeleton.joints[1].parent == 0);
  CHECK(skeleton.joints[1].node == 2);
  CHECK(skeleton.joints[1].rest.translation[1] == 1);
  CHECK(skeleton.joints[1].inverse_bind[13] == -2);
  CHECK(skeleton.original_file == "c.gltf");

  MeshInfo info;
  std::vector<Skin_J8W8> skin = skin_of(baked, info);
  CHECK(info.skeleton == "c.gltf#skin/0");
  CHECK(info.skin_joint_count == 2);
  for (const Skin_J8W8& r : skin) {
    CHECK(r.weights[0] == 255);
    CHECK(r.weights[1] + r.weights[2] + r.weights[3] == 0);
  }

  std::vector<float> keys;
  ClipInfo clip = clip_of(baked, "c.gltf#clip/0", keys);
  CHECK(clip.name == "bend");
  CHECK(clip.duration == 1);
  REQUIRE(clip.channels.size() == 1);
  CHECK(clip.channels[0].node == 2);
  CHECK(clip.channels[0].path == ClipPath::Rotation);
  // At rest the joint matrices are identities; halfway the knee has turned 45 degrees.
  std::vector<NodePose> poses = {skeleton.joints[0].rest, skeleton.joints[1].rest};
  std::vector<float> m(32);
  REQUIRE(skeleton_joint_matrices(skeleton, poses, m));
  for (int k = 0; k < 16; ++k) CHECK(std::fabs(m[16 + k] - (k % 5 == 0 ? 1.f : 0.f)) < 1e-6f);
  std::vector<NodePose> nodes(3);
  nodes[2] = skeleton.joints[1].rest;
  sample_clip(clip, keys.data(), 0.5f, nodes);
  CHECK(std::fabs(nodes[2].rotation[2] - std::sin(0.3926991f)) < 1e-5f);
}

TEST_CASE("skin joints are ordered parents first, and mesh joint indices follow") {
  SkinnedQuad quad;
  test::GeneratedGltf g = quad.build();
  g.doc["skins"][0]["joints"] = {2, 1};  // knee before hip: source joint 0 is the knee
  // Swap the inverse binds to match.
  test::GeneratedGltf swapped;
  SkinnedQuad q2 = quad;
  std::rotate(q2.inverse_binds.begin(), q2.inverse_binds.begin() + 16, q2.inverse_binds.end());
  swapped = q2.build();
  swapped.doc["skins"][0]["joints"] = {2, 1};
  test::BakedScene baked = bake(swapped);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  SkeletonInfo skeleton = skeleton_of(baked, "c.gltf#skin/0");
  REQUIRE(skeleton.joints.size() == 2);
  CHECK(skeleton.joints[0].name == "hip");
  CHECK(skeleton.joints[0].inverse_bind[13] == -1);
  CHECK(skeleton.joints[1].name == "knee");
  CHECK(skeleton.joints[1].inverse_bind[13] == -2);
  // Source joint 0 (the knee) on the bottom vertices, 1 (the hip) on the top ones.
  MeshInfo info;
  std::vector<Skin_J8W8> skin = skin_of(baked, info);
  const baker::BakedAsset* a = baked.find("c.gltf#mesh/0");
  std::vector<Vertex_PNCVT_F32> v(info.vertex_count);
  std::vector<std::byte> idx(info.index_buffer_size);
  REQUIRE(unpack_mesh(info, a->file.blob.data(), a->file.blob.size(), v.data(),
                      info.vertex_buffer_size, idx.data(), idx.size()));
  for (uint32_t i = 0; i < info.vertex_count; ++i) {
    INFO("vertex at y " << v[i].position[1]);
    CHECK(skeleton.joints[skin[i].joints[0]].name == (v[i].position[1] == 0 ? "knee" : "hip"));
  }
}

TEST_CASE("a node between two joints joins the skeleton, and matrices are taken apart") {
  test::GeneratedGltf g = SkinnedQuad().build();
  // hip -> twist (not a joint, a matrix: scale 2 and 90 degrees about Z) -> knee.
  g.doc["nodes"][1]["children"] = {3};
  g.doc["nodes"].push_back({{"name", "twist"},
                            {"matrix", {0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}},
                            {"children", {2}}});
  test::BakedScene baked = bake(g);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  SkeletonInfo skeleton = skeleton_of(baked, "c.gltf#skin/0");
  REQUIRE(skeleton.joints.size() == 3);
  CHECK(skeleton.joints[0].name == "hip");
  CHECK(skeleton.joints[1].name == "twist");
  CHECK(skeleton.joints[1].parent == 0);
  CHECK(skeleton.joints[2].name == "knee");
  CHECK(skeleton.joints[2].parent == 1);
  const NodePose& twist = skeleton.joints[1].rest;
  CHECK(std::fabs(twist.scale[0] - 2) < 1e-6f);
  CHECK(std::fabs(std::fabs(twist.rotation[2]) - 0.70710678f) < 1e-6f);
  CHECK(std::fabs(std::fabs(twist.rotation[3]) - 0.70710678f) < 1e-6f);
  // The prefab node holds the same TRS, no matrix.
  PrefabInfo prefab = baked.prefab();
  REQUIRE(prefab.nodes.size() == 4);
  CHECK(prefab.nodes[2].name == "twist");
  CHECK_FALSE(prefab.nodes[2].has_matrix);
  CHECK(prefab.nodes[2].scale[1] == twist.scale[1]);
  // Mesh joint 1 (knee) is skeleton joint 2; no vertex uses the twist.
  MeshInfo info;
  std::vector<Skin_J8W8> skin = skin_of(baked, info);
  CHECK(info.skin_joint_count == 3);
  for (const Skin_J8W8& r : skin) CHECK(r.joints[0] != 1);
}

TEST_CASE("joint matrices with a mirror or a zero scale rest as their TRS twins do") {
  // Each matrix and the TRS (rotation x, y, z, w; scale) that glTF would write for it.
  struct Twin {
    std::vector<float> matrix, rotation, scale;
  };
  const std::vector<Twin> twins = {
      {{-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1}, {0, 0, 0, 1}, {-1, 1, 1}},
      {{1, 0, 0, 0, 0, -2, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1}, {0, 0, 0, 1}, {1, -2, 1}},
      {{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1}, {0, 0, 0, 1}, {0, 1, 1}},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1, 0, 1}, {0, 0, 0, 1}, {0, 0, 3}},
      {{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}, {0, 0, 0, 1}, {2, 0, 0}},
      {{0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}, {0, 0, 0, 1}, {0, 5, 0}},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}, {0, 0, 0, 1}, {0, 0, 0}},
      // 90 degrees about Z, then mirrored in Z.
      {{0, 1, 0, 0, -1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 1},
       {0, 0, 0.70710678f, 0.70710678f},
       {1, 1, -1}}};
  for (const Twin& twin : twins) {
    INFO(json(twin.matrix).dump());
    test::GeneratedGltf with_matrix = SkinnedQuad().build(), with_trs = with_matrix;
    with_matrix.doc["nodes"][2].erase("translation");
    with_matrix.doc["nodes"][2]["matrix"] = twin.matrix;
    with_trs.doc["nodes"][2]["rotation"] = twin.rotation;
    with_trs.doc["nodes"][2]["scale"] = twin.scale;
    test::BakedScene a = bake(with_matrix), b = bake(with_trs);
    INFO(a.status.message());
    REQUIRE(a.status.ok());
    REQUIRE(b.status.ok());
    const NodePose rest = skeleton_of(a, "c.gltf#skin/0").joints[1].rest;
    const NodePose twin_rest = skeleton_of(b, "c.gltf#skin/0").joints[1].rest;
    // Both rest as the authored matrix (a quaternion and its negative are one rotation).
    float m[16], twin_m[16];
    node_pose_matrix(rest, m);
    node_pose_matrix(twin_rest, twin_m);
    for (int k = 0; k < 16; ++k) {
      CHECK(std::fabs(m[k] - twin.matrix[k]) < 1e-6f);
      CHECK(std::fabs(twin_m[k] - twin.matrix[k]) < 1e-6f);
    }
    for (int k = 0; k < 3; ++k) CHECK(std::fabs(rest.scale[k] - twin.scale[k]) < 1e-6f);
    // The rotation too (up to sign): a clip animating only the scale of a zero-scaled joint
    // must not turn it.
    float dot = 0;
    for (int k = 0; k < 4; ++k) dot += rest.rotation[k] * twin.rotation[k];
    CHECK(std::fabs(std::fabs(dot) - 1) < 1e-6f);
    CHECK(std::fabs(rest.translation[1] - 1) < 1e-6f);
  }
}

TEST_CASE("an animated node above the root joint joins the skeleton, a still one stays a matrix") {
  // world (still, z = 5) -> armature (animated: moves +10 in x) -> hip -> knee.
  test::GeneratedGltf g = SkinnedQuad().build();
  g.doc["nodes"].push_back({{"name", "armature"}, {"children", {1}}});
  g.doc["nodes"].push_back({{"name", "world"}, {"translation", {0, 0, 5}}, {"children", {3}}});
  g.doc["scenes"] = {{{"nodes", {0, 4}}}};
  const std::vector<float> moves = {0, 0, 0, 10, 0, 0};
  size_t out = g.add(moves.data(), moves.size() * 4, 5126, "VEC3", 2);
  g.doc["animations"][0]["samplers"].push_back({{"input", 5}, {"output", out}});
  g.doc["animations"][0]["channels"].push_back(
      {{"sampler", 1}, {"target", {{"node", 3}, {"path", "translation"}}}});
  test::BakedScene baked = bake(g);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  SkeletonInfo skeleton = skeleton_of(baked, "c.gltf#skin/0");
  REQUIRE(skeleton.joints.size() == 3);
  CHECK(skeleton.joints[0].name == "armature");
  CHECK(skeleton.joints[0].parent == -1);
  CHECK(skeleton.joints[0].parent_matrix[14] == 5);  // the still world node
  CHECK(skeleton.joints[1].name == "hip");
  CHECK(skeleton.joints[1].parent == 0);
  // Mesh joints 0 and 1 (hip, knee) are skeleton joints 1 and 2.
  MeshInfo info;
  std::vector<Skin_J8W8> skin = skin_of(baked, info);
  CHECK(info.skin_joint_count == 3);
  for (const Skin_J8W8& r : skin) CHECK((r.joints[0] == 1 || r.joints[0] == 2));
  // At the end of the clip the hip's skinning matrix moves its vertices by (10, 0, 5), as the glTF
  // node hierarchy does (the bind pose had the hip at y = 1 without the world offset applied).
  PrefabInfo prefab = baked.prefab();
  std::vector<float> keys;
  ClipInfo clip = clip_of(baked, "c.gltf#clip/0", keys);
  std::vector<NodePose> nodes(prefab.nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) {
    std::copy_n(prefab.nodes[n].translation, 3, nodes[n].translation);
    std::copy_n(prefab.nodes[n].rotation, 4, nodes[n].rotation);
    std::copy_n(prefab.nodes[n].scale, 3, nodes[n].scale);
  }
  std::vector<NodePose> poses;
  std::vector<float> m(16 * 3);
  // The added armature is bound where it rests: its skinning matrix is the identity there, so a
  // vertex repaired onto joint 0 stays where it was authored.
  for (const SkeletonJoint& j : skeleton.joints) poses.push_back(nodes[size_t(j.node)]);
  REQUIRE(skeleton_joint_matrices(skeleton, poses, m));
  for (size_t k = 0; k < 16; ++k) CHECK(m[k] == Approx(k % 5 == 0 ? 1 : 0).margin(1e-6));
  sample_clip(clip, keys.data(), 1.0f, nodes);
  poses.clear();
  for (const SkeletonJoint& j : skeleton.joints) poses.push_back(nodes[size_t(j.node)]);
  REQUIRE(skeleton_joint_matrices(skeleton, poses, m));
  CHECK(m[16 + 12] == Approx(10));
  CHECK(m[16 + 13] == Approx(0).margin(1e-6));
  CHECK(m[16 + 14] == Approx(5));
  CHECK(m[12] == Approx(10));  // and follows the armature when it moves
  CHECK(m[14] == Approx(0).margin(1e-6));
}

TEST_CASE("a skinned mesh gets no LODs, with a warning: its levels would not follow the joints") {
  // Straight at rest, the quad's strip would collapse at error 0 and be drawn flat in every pose.
  baker::BakeSettings settings = test::float_vertex_settings();
  settings.mesh.lod_count = 3;
  test::BakedScene baked =
      test::bake_gltf_bytes(SkinnedQuad().build().bytes(), "c.gltf", {}, settings);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  MeshInfo info = baked.mesh("c.gltf#mesh/0");
  CHECK(info.lods.empty());
  CHECK(info.lod_index_count == 0);
  for (const std::string& w : baked.warnings) UNSCOPED_INFO(w);
  CHECK(std::any_of(baked.warnings.begin(), baked.warnings.end(), [](const std::string& w) {
    return w.find("meshes[0]: skinned, so no LODs (lod_count 3)") != std::string::npos;
  }));
}

TEST_CASE("weights: more than four reduced, zero sums bound to joint 0, all summing to one") {
  SkinnedQuad quad;
  quad.weights = {0, 0, 0, 0, 0.5f, 0.25f, 0.25f, 0, 0.98f, 0, 0, 0, 1, 0, 0, 0};
  quad.joints = {1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  test::GeneratedGltf g = quad.build();
  // A second set gives vertex 3 eight influences over the two joints: merged by joint.
  std::vector<uint8_t> joints1 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1};
  std::vector<float> weights1 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5f, 0.5f, 0, 0};
  g.doc["meshes"][0]["primitives"][0]["attributes"]["JOINTS_1"] =
      g.add(joints1.data(), joints1.size(), 5121, "VEC4", 4);
  g.doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_1"] =
      g.add(weights1.data(), weights1.size() * 4, 5126, "VEC4", 4);
  test::BakedScene baked = bake(g);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  CHECK(baked.warned("meshes[0]: 1 vertices have no joint weight; bound to the skeleton's first"));
  MeshInfo info;
  std::vector<Skin_J8W8> skin = skin_of(baked, info);
  const baker::BakedAsset* a = baked.find("c.gltf#mesh/0");
  std::vector<Vertex_PNCVT_F32> v(info.vertex_count);
  std::vector<std::byte> idx(info.index_buffer_size);
  REQUIRE(unpack_mesh(info, a->file.blob.data(), a->file.blob.size(), v.data(),
                      info.vertex_buffer_size, idx.data(), idx.size()));
  for (uint32_t i = 0; i < info.vertex_count; ++i) {
    const Skin_J8W8& r = skin[i];
    CHECK(r.weights[0] + r.weights[1] + r.weights[2] + r.weights[3] == 255);
    float x = v[i].position[0], y = v[i].position[1];
    INFO("vertex " << x << ", " << y);
    if (x == 0 && y == 0) {  // no weight: joint 0, all of it
      CHECK((r.joints[0] == 0 && r.weights[0] == 255));
    } else if (x == 1 && y == 0) {  // 0.5 hip + 0.25 knee + 0.25 hip = 0.75 hip, 0.25 knee
      CHECK((r.joints[0] == 0 && r.weights[0] == 191 && r.joints[1] == 1 && r.weights[1] == 64));
    } else if (x == 1 && y == 2) {  // 0.98 renormalised
      CHECK((r.joints[0] == 1 && r.weights[0] == 255));
    } else {  // 1 knee + 0.5 hip + 0.5 knee: 0.75 knee, 0.25 hip
      CHECK((r.joints[0] == 1 && r.weights[0] == 191 && r.joints[1] == 0 && r.weights[1] == 64));
    }
  }
}

TEST_CASE("weight quantisation: largest remainder, exact sums, four largest kept") {
  baker::QuantizedInfluences q;
  std::vector<baker::SourceInfluence> thirds = {{3, 1}, {5, 1}, {7, 1}};
  baker::InfluenceRepairs r = baker::quantize_influences(thirds, 255, q);
  CHECK_FALSE(r.reduced);
  CHECK_FALSE(r.zero_sum);
  CHECK((q.weights[0] == 85 && q.weights[1] == 85 && q.weights[2] == 85 && q.weights[3] == 0));
  CHECK((q.joints[0] == 3 && q.joints[1] == 5 && q.joints[2] == 7 && q.joints[3] == 0));
  // 1/3 of 65535 = 21845 exactly; 2/3 and 1/3 split: 43690 + 21845.
  std::vector<baker::SourceInfluence> split = {{1, 1}, {2, 2}};
  baker::quantize_influences(split, 65535, q);
  CHECK((q.joints[0] == 2 && q.weights[0] == 43690 && q.joints[1] == 1 && q.weights[1] == 21845));
  // Remainders: 0.6 * 255 = 153, 0.3 * 255 = 76.5, 0.1 * 255 = 25.5: one unit left, to the
  // larger weight on the tie of remainders.
  std::vector<baker::SourceInfluence> tie = {{0, 0.6f}, {1, 0.3f}, {2, 0.1f}};
  baker::quantize_influences(tie, 255, q);
  CHECK(q.weights[0] + q.weights[1] + q.weights[2] == 255);
  CHECK(q.weights[0] == 153);
  std::vector<baker::SourceInfluence> five = {
      {0, 0.3f}, {1, 0.25f}, {2, 0.2f}, {3, 0.15f}, {4, 0.1f}};
  r = baker::quantize_influences(five, 255, q);
  CHECK(r.reduced);
  CHECK(q.weights[0] + q.weights[1] + q.weights[2] + q.weights[3] == 255);
  CHECK(q.joints[3] == 3);
  // A weight that rounds to nothing leaves its slot unused (joint 0).
  std::vector<baker::SourceInfluence> tiny = {{9, 1}, {4, 1e-6f}};
  baker::quantize_influences(tiny, 255, q);
  CHECK((q.joints[0] == 9 && q.weights[0] == 255 && q.joints[1] == 0 && q.weights[1] == 0));
  r = baker::quantize_influences({}, 255, q);
  CHECK(r.zero_sum);
  CHECK((q.joints[0] == 0 && q.weights[0] == 255));
}

TEST_CASE("hostile skins: clear errors naming the JSON path, never a crash") {
  SECTION("a joint past the skin's joints") {
    SkinnedQuad q;
    q.joints[8] = 5;
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "meshes[0].primitives[0].attributes.JOINTS_0: vertex 2 names joint 5, its skin has 2 "
            "joints");
    // Without weight the slot is unused: no error.
    q.joints[8] = 1;
    q.joints[9] = 200;
    CHECK(bake(q.build()).status.ok());
  }
  SECTION("a singular inverse bind matrix") {
    SkinnedQuad q;
    q.inverse_binds[16 + 5] = 0;  // the knee's Y axis collapses
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "skins[0].inverseBindMatrices: matrix 1 (joint 1) is not invertible");
  }
  SECTION("a non-finite inverse bind matrix") {
    SkinnedQuad q;
    q.inverse_binds[3] = INFINITY;
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "skins[0].inverseBindMatrices: matrix 0 (joint 0) is not finite");
  }
  SECTION("fewer inverse bind matrices than joints") {
    SkinnedQuad q;
    q.inverse_binds.resize(16);
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "skins[0].inverseBindMatrices: holds 1 matrices for 2 joints");
  }
  SECTION("a negative weight") {
    SkinnedQuad q;
    q.weights[4] = -1;
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "attributes.WEIGHTS_0: vertex 1 has a negative or non-finite weight");
  }
  SECTION("joints given as floats") {
    SkinnedQuad q;
    test::GeneratedGltf g = q.build();
    std::vector<float> joints(16, 0);
    g.doc["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] =
        g.add(joints.data(), joints.size() * 4, 5126, "VEC4", 4);
    refused(bake(g), baker::BakeError::InvalidSource,
            "JOINTS_0: joints must be unsigned bytes or shorts");
  }
  SECTION("JOINTS_1 without WEIGHTS_1") {
    SkinnedQuad q;
    test::GeneratedGltf g = q.build();
    g.doc["meshes"][0]["primitives"][0]["attributes"]["JOINTS_1"] =
        g.doc["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"];
    refused(bake(g), baker::BakeError::InvalidSource, "JOINTS_1: has no WEIGHTS_1 beside it");
  }
  SECTION("no joints, a joint listed twice, a joint that is no node") {
    test::GeneratedGltf g = SkinnedQuad().build();
    g.doc["skins"][0]["joints"] = json::array();
    refused(bake(g), baker::BakeError::InvalidSource, "skins[0].joints: is required");
    g.doc["skins"][0]["joints"] = {1, 1};
    refused(bake(g), baker::BakeError::InvalidSource, "skins[0].joints[1]: node 1 is listed twice");
    g.doc["skins"][0]["joints"] = {1, 9};
    refused(bake(g), baker::BakeError::InvalidSource, "skins[0].joints[1]: node 9 does not exist");
    g.doc["skins"][0]["joints"] = {1, 2};
    g.doc["nodes"][0]["skin"] = 4;
    refused(bake(g), baker::BakeError::InvalidSource, "nodes[0].skin: skin 4 does not exist");
  }
  SECTION("a joint matrix with a shear") {
    test::GeneratedGltf g = SkinnedQuad().build();
    g.doc["nodes"][2].erase("translation");
    g.doc["nodes"][2]["matrix"] = {1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1};
    refused(bake(g), baker::BakeError::InvalidSource,
            "nodes[2].matrix: a skeleton node's matrix must be a translation, rotation and scale; "
            "it has a shear");
  }
  SECTION("a cycle above a joint, outside the scene") {
    test::GeneratedGltf g = SkinnedQuad().build();
    g.doc["nodes"].push_back({{"name", "a"}, {"children", {4, 1}}});
    g.doc["nodes"].push_back({{"name", "b"}, {"children", {3}}});
    refused(bake(g), baker::BakeError::InvalidSource, "is its own ancestor");
  }
  SECTION("a mesh drawn with two skins whose joints differ") {
    test::GeneratedGltf g = SkinnedQuad().build();
    g.doc["skins"].push_back({{"joints", {2}}});
    g.doc["nodes"].push_back({{"name", "copy"}, {"mesh", 0}, {"skin", 1}});
    refused(bake(g), baker::BakeError::UnsupportedFeature,
            "whose joints or inverse bind matrices differ");
    // The same joints and inverse bind matrices: one skeleton serves both.
    g.doc["skins"][1]["joints"] = {1, 2};
    g.doc["skins"][1]["inverseBindMatrices"] = g.doc["skins"][0]["inverseBindMatrices"];
    test::BakedScene same = bake(g);
    REQUIRE(same.status.ok());
    CHECK(same.find("c.gltf#skin/1"));
  }
}

TEST_CASE("deep hierarchies cost time linear in the nodes") {
  // 2000 root joints under a chain of 12000 plain nodes: each joint's parent_matrix is the chain's
  // world matrix, and each walk up meets the others' (memoised: not 2.4e7 node reads).
  json doc = {{"asset", {{"version", "2.0"}}}};
  const size_t chain = 12000, joints = 2000;
  json nodes = json::array();
  for (size_t i = 0; i < chain; ++i) {
    json node = {{"translation", {0, 0.001, 0}}};
    if (i + 1 < chain) node["children"] = {i + 1};
    nodes.push_back(node);
  }
  json skin_joints = json::array();
  for (size_t j = 0; j < joints; ++j) {
    nodes[chain - 1]["children"].push_back(chain + j);
    std::string name = "j";  // built with +=: GCC 12 -O3 warns falsely on "j" + ...
    name += std::to_string(j);
    nodes.push_back({{"name", name}});
    skin_joints.push_back(chain + j);
  }
  doc["nodes"] = nodes;
  doc["skins"] = {{{"joints", skin_joints}}};
  doc["scenes"] = {{{"nodes", {0}}}};
  std::string text = doc.dump();
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  test::BakedScene baked;
  const double seconds = test::cpu_seconds([&] { baked = test::bake_gltf_bytes(bytes, "c.gltf"); });
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  CHECK(seconds < 20);
  SkeletonInfo skeleton = skeleton_of(baked, "c.gltf#skin/0");
  REQUIRE(skeleton.joints.size() == joints);
  CHECK(skeleton.joints[0].parent == -1);
  CHECK(std::fabs(skeleton.joints[0].parent_matrix[13] - 12.0f) < 1e-2f);
  CHECK(skeleton.joints[0].node == int32_t(chain));
}

TEST_CASE("more skins x nodes than kMaxSkinNodeWork is refused before any skeleton is found") {
  // Each skin's skeleton costs work in proportion to the nodes: 10000 skins over a million nodes
  // took 95 s. 65537 x 65537 is just over 2^32.
  nlohmann::json doc = {{"asset", {{"version", "2.0"}}}};
  doc["nodes"] = nlohmann::json::array();
  for (int n = 0; n < 65537; ++n) doc["nodes"].push_back(nlohmann::json::object());
  doc["skins"] = nlohmann::json::array();
  for (int s = 0; s < 65537; ++s) doc["skins"].push_back({{"joints", {s}}});
  doc["scenes"] = {{{"nodes", {0}}}};
  const std::string text = doc.dump();
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  test::BakedScene baked;
  const double seconds = test::cpu_seconds([&] { baked = test::bake_gltf_bytes(bytes, "c.gltf"); });
  REQUIRE_FALSE(baked.status.ok());
  CHECK(baked.status.code == baker::BakeError::LimitExceeded);
  CHECK(baked.status.message().find("65537 skins over 65537 nodes: more than 2^32") !=
        std::string::npos);
  CHECK(seconds < 20);
}

TEST_CASE("two skins binding alike are compared once, not once per node drawing the mesh") {
  // One node draws a mesh with skin 0, 60000 others (outside the scene) with skin 1, the same
  // 2000 joints: every node compared the whole skeleton again (300000 nodes took 26 s). Timed
  // against every node on skin 0, so that a slow build slows both.
  auto seconds_to_bake = [](uint32_t second_skin) {
    const std::vector<float> triangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    test::GeneratedGltf g = test::one_primitive(triangle, {}, 4);
    nlohmann::json nodes = nlohmann::json::array(), joints = nlohmann::json::array();
    for (int j = 0; j < 2000; ++j) {
      nodes.push_back(nlohmann::json::object());
      joints.push_back(j);
    }
    nodes.push_back({{"mesh", 0}, {"skin", 0}});
    for (int n = 0; n < 60000; ++n) nodes.push_back({{"mesh", 0}, {"skin", second_skin}});
    g.doc["nodes"] = nodes;
    g.doc["skins"] = {{{"joints", joints}}, {{"joints", joints}}};
    g.doc["scenes"] = {{{"nodes", {2000}}}};
    test::BakedScene baked;
    const double seconds =
        test::cpu_seconds([&] { baked = test::bake_gltf_bytes(g.bytes(), "c.gltf"); });
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    return seconds;
  };
  const double one = seconds_to_bake(0), two = seconds_to_bake(1);
  INFO(two << " s with a second skin, " << one << " s with one");
  CHECK(two < 3 * one + 0.5);
}

TEST_CASE("hostile animations: clear errors naming the JSON path") {
  SECTION("times not increasing") {
    SkinnedQuad q;
    q.times = {1, 0.5f};
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "animations[0].samplers[0].input: key times must increase strictly");
  }
  SECTION("a repeated time") {
    SkinnedQuad q;
    q.times = {0, 0};
    refused(bake(q.build()), baker::BakeError::InvalidSource, "must increase strictly");
  }
  SECTION("a negative or non-finite time") {
    SkinnedQuad q;
    q.times = {-1, 1};
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "animations[0].samplers[0].input: key 0 at -1.000000 s is before 0");
    q.times = {0, NAN};
    refused(bake(q.build()), baker::BakeError::InvalidSource, "key 1 is not finite");
  }
  SECTION("outputs and inputs of other counts") {
    SkinnedQuad q;
    q.rotations.resize(12, 0.5f);
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "animations[0].samplers[0].output: 3 values for 2 keys (1 per key)");
    SkinnedQuad cubic;
    cubic.interpolation = "CUBICSPLINE";
    refused(bake(cubic.build()), baker::BakeError::InvalidSource,
            "2 values for 2 keys (3 per key for CUBICSPLINE)");
  }
  SECTION("a non-finite value") {
    SkinnedQuad q;
    q.rotations[5] = NAN;
    refused(bake(q.build()), baker::BakeError::InvalidSource,
            "animations[0].samplers[0].output: value 1 is not finite");
  }
  SECTION("an unknown interpolation, a node or sampler out of range, a wrong output type") {
    test::GeneratedGltf g = SkinnedQuad().build();
    g.doc["animations"][0]["samplers"][0]["interpolation"] = "SMOOTH";
    refused(bake(g), baker::BakeError::InvalidSource,
            "animations[0].samplers[0].interpolation: 'SMOOTH' is not LINEAR, STEP or CUBICSPLINE");
    g = SkinnedQuad().build();
    g.doc["animations"][0]["channels"][0]["target"]["node"] = 7;
    refused(bake(g), baker::BakeError::InvalidSource,
            "animations[0].channels[0].target.node: node 7 does not exist");
    g = SkinnedQuad().build();
    g.doc["animations"][0]["channels"][0]["sampler"] = 1;
    refused(bake(g), baker::BakeError::InvalidSource, "animations[0].channels[0].sampler");
    g = SkinnedQuad().build();
    g.doc["animations"][0]["channels"][0]["target"]["path"] = "translation";
    refused(bake(g), baker::BakeError::InvalidSource,
            "animations[0].samplers[0].output: accessor 6 of type 'VEC4' cannot hold it");
    g = SkinnedQuad().build();
    g.doc["animations"][0]["samplers"][0]["input"] = 99;
    refused(bake(g), baker::BakeError::InvalidSource, "animations[0].samplers[0].input");
  }
  SECTION("weights channels and channels without a node are dropped with a warning") {
    test::GeneratedGltf g = SkinnedQuad().build();
    g.doc["animations"][0]["channels"].push_back(
        {{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}});
    g.doc["animations"][0]["channels"].push_back(
        {{"sampler", 0}, {"target", {{"path", "rotation"}}}});
    test::BakedScene baked = bake(g);
    REQUIRE(baked.status.ok());
    CHECK(baked.warned("1 animation channel(s) of morph weights dropped"));
    CHECK(baked.warned("1 animation channel(s) without a target node dropped"));
    std::vector<float> keys;
    CHECK(clip_of(baked, "c.gltf#clip/0", keys).channels.size() == 1);
  }
}

TEST_CASE("animations keep STEP and CUBICSPLINE keys, and move every instance of a node") {
  SkinnedQuad q;
  q.interpolation = "CUBICSPLINE";
  q.rotations = {0,      0, 0, 0, 0, 0, 0,           1,           0, 0, 0, 0,
                 /**/ 0, 0, 0, 0, 0, 0, 0.70710678f, 0.70710678f, 0, 0, 0, 0};
  test::GeneratedGltf g = q.build();
  // The knee is also a child of the body (invalid glTF, instanced under both).
  g.doc["nodes"][0]["children"] = {2};
  test::BakedScene baked = bake(g);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  PrefabInfo prefab = baked.prefab();
  std::vector<uint32_t> knees;
  for (uint32_t i = 0; i < prefab.nodes.size(); ++i) {
    if (prefab.nodes[i].name == "knee") knees.push_back(i);
  }
  REQUIRE(knees.size() == 2);
  std::vector<float> keys;
  ClipInfo clip = clip_of(baked, "c.gltf#clip/0", keys);
  REQUIRE(clip.channels.size() == 2);
  CHECK(clip.channels[0].node == knees[0]);
  CHECK(clip.channels[1].node == knees[1]);
  CHECK(clip.channels[0].interpolation == ClipInterpolation::CubicSpline);
  CHECK(clip.channels[0].key_count == 2);
  // Kept as authored: in-tangent, value, out-tangent per key.
  CHECK(std::vector<float>(keys.begin() + long(clip.channels[0].values_offset),
                           keys.begin() + long(clip.channels[0].values_offset) + 24) ==
        q.rotations);
  // The skeleton's joint is the knee's first instance.
  CHECK(skeleton_of(baked, "c.gltf#skin/0").joints[1].node == int32_t(knees[0]));
}

TEST_CASE("a mesh with JOINTS_0 that no node skins bakes rigid, with a warning") {
  test::GeneratedGltf g = SkinnedQuad().build();
  g.doc["nodes"][0].erase("skin");
  test::BakedScene baked = bake(g);
  REQUIRE(baked.status.ok());
  CHECK(baked.warned("meshes[0] has JOINTS_0 and WEIGHTS_0 but no node gives it a skin"));
  CHECK(baked.mesh("c.gltf#mesh/0").skin_format == SkinFormat::None);
  CHECK(baked.prefab().nodes[0].skin.empty());
  // The skin is still baked: a skeleton of its own.
  CHECK(baked.find("c.gltf#skin/0"));
}

TEST_CASE("every skinned or animated model of the corpus bakes, its parts unpacking") {
  struct Model {
    const char* file;
    size_t skins, clips, roots;  // roots: of skin 0
  };
  const Model models[] = {
      {"bevy/assets/models/animated/Fox.glb", 1, 3, 1},
      {"draco-testdata/Fox/glTF/Fox.gltf", 1, 3, 1},
      {"draco-testdata/CesiumMan/glTF/CesiumMan.gltf", 1, 1, 1},
      {"draco-testdata/CesiumMan/glTF_Binary/CesiumMan.glb", 1, 1, 1},
      {"intellij-gltf-viewer-plugin/models/BrainStem/gLTF/BrainStem.gltf", 1, 1, 1},
      {"intellij-gltf-viewer-plugin/models/BrainStem/gLTF-binary/BrainStem.glb", 1, 1, 1},
      {"bevy/assets/models/SimpleSkin/SimpleSkin.gltf", 1, 1, 1},
      {"draco-testdata/simple_skin.gltf", 1, 1, 1},
      {"draco-testdata/InterpolationTest/glTF/InterpolationTest.gltf", 0, 9, 0},
      {"draco-testdata/CesiumMilkTruck/glTF/CesiumMilkTruck.gltf", 0, 1, 0},
      // Joints [3, 1, 2]: two separate hierarchies (bone_3; bone_1 -> bone_2).
      {"tinygltf/models/regression/unassigned-skeleton.gltf", 1, 1, 2},
  };
  for (const Model& m : models) {
    INFO(m.file);
    test::BakedScene baked = test::bake_corpus_gltf(m.file);
    INFO(baked.status.message());
    REQUIRE(baked.status.ok());
    CHECK_FALSE(baked.warned("not baked"));
    PrefabInfo prefab = baked.prefab();
    CHECK(prefab.clips.size() == m.clips);
    for (size_t s = 0; s < m.skins; ++s) {
      SkeletonInfo skeleton =
          skeleton_of(baked, std::string(m.file) + "#skin/" + std::to_string(s));
      size_t roots = 0;
      for (const SkeletonJoint& j : skeleton.joints) {
        roots += j.parent < 0;
        CHECK((j.node >= 0 && size_t(j.node) < prefab.nodes.size()));
        if (j.node >= 0) CHECK(prefab.nodes[size_t(j.node)].name == j.name);
      }
      if (s == 0) CHECK(roots == m.roots);
    }
    for (const std::string& name : prefab.clips) {
      std::vector<float> keys;
      ClipInfo clip = clip_of(baked, name, keys);
      CHECK(clip.duration > 0);
      for (const ClipChannel& c : clip.channels) CHECK(c.node < prefab.nodes.size());
    }
    for (const PrefabNode& n : prefab.nodes) {
      if (n.skin.empty()) continue;
      MeshInfo info = baked.mesh(n.mesh);
      CHECK(info.skeleton == n.skin);
      const baker::BakedAsset* a = baked.find(n.mesh);
      std::vector<std::byte> skin(info.skin_buffer_size);
      CHECK(unpack_mesh_skin(info, a->file.blob.data(), a->file.blob.size(), skin.data(),
                             skin.size()));
    }
  }
}

namespace {

// Writes `assets` into `dir` as a baked folder with a manifest that matches them byte for byte:
// what check then finds wrong lies between the assets, not in the manifest.
void write_baked_folder(const test::TempDir& dir, const std::vector<baker::BakedAsset>& assets) {
  Manifest manifest;
  for (const baker::BakedAsset& a : assets) {
    std::vector<std::byte> bytes = serialize_binaryfile(a.file);
    dir.write(a.path, std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    uint64_t raw = 0;
    ClipInfo clip;
    MeshInfo mesh;
    if (read_clip_info(a.file, clip)) raw = clip_unpacked_size(clip);
    if (read_mesh_info(a.file, mesh)) raw = mesh_unpacked_size(mesh);
    manifest.assets.push_back({a.name, std::string(a.file.type, 4), a.path,
                               baker::hash_string(baker::hash_bytes(bytes.data(), bytes.size())),
                               bytes.size(), raw});
  }
  dir.write("manifest.json", write_manifest(manifest));
}

}  // namespace

TEST_CASE("check refuses a skinned mesh whose skeleton has another joint count") {
  // The quad's assets written as a baked folder with their manifest; then its skeleton replaced
  // by one of three joints (the manifest updated to match: only the joint counts disagree).
  test::BakedScene baked = bake(SkinnedQuad().build());
  REQUIRE(baked.status.ok());
  test::GeneratedGltf g = SkinnedQuad().build();
  g.doc["nodes"][1]["children"] = {3};
  g.doc["nodes"].push_back({{"name", "twist"}, {"children", {2}}});
  test::BakedScene three = bake(g);
  REQUIRE(three.status.ok());
  test::TempDir dir;
  write_baked_folder(dir, baked.assets);
  CHECK(baker::run_check(dir.path(), true) == 0);
  std::vector<baker::BakedAsset> mixed = baked.assets;
  for (baker::BakedAsset& a : mixed) {
    if (a.name == "c.gltf#skin/0") a.file = three.find("c.gltf#skin/0")->file;
  }
  write_baked_folder(dir, mixed);
  CHECK(baker::run_check(dir.path(), true) == 1);
}

TEST_CASE("check refuses a skeleton or clip that indexes a node its prefab does not have") {
  // Each asset is valid alone (node indices are prefab indices its reader cannot check); only the
  // prefab's node count tells that node 3 of a quad's three nodes is not there.
  test::BakedScene baked = bake(SkinnedQuad().build());
  REQUIRE(baked.status.ok());
  const uint32_t nodes = uint32_t(baked.prefab().nodes.size());
  REQUIRE(nodes == 3);
  test::TempDir dir;
  write_baked_folder(dir, baked.assets);
  REQUIRE(baker::run_check(dir.path(), true) == 0);

  SECTION("a skeleton joint") {
    std::vector<baker::BakedAsset> edited = baked.assets;
    SkeletonInfo skeleton = skeleton_of(baked, "c.gltf#skin/0");
    skeleton.joints.back().node = int32_t(nodes);  // one past the last
    for (baker::BakedAsset& a : edited) {
      if (a.name == "c.gltf#skin/0") REQUIRE(pack_skeleton(skeleton, a.file));
    }
    write_baked_folder(dir, edited);
    CHECK(baker::run_check(dir.path(), true) == 1);
  }
  SECTION("a clip channel") {
    std::vector<baker::BakedAsset> edited = baked.assets;
    REQUIRE(baked.prefab().clips.size() == 1);
    const std::string name = baked.prefab().clips[0];
    std::vector<float> keys;
    ClipInfo clip = clip_of(baked, name, keys);
    clip.channels[0].node = nodes;
    for (baker::BakedAsset& a : edited) {
      if (a.name == name) REQUIRE(pack_clip(clip, keys.data(), keys.size(), a.file));
    }
    write_baked_folder(dir, edited);
    CHECK(baker::run_check(dir.path(), true) == 1);
  }
}

TEST_CASE("check refuses a prefab node whose mesh takes other materials or another skin") {
  test::BakedScene baked = bake(SkinnedQuad().build());
  REQUIRE(baked.status.ok());
  test::TempDir dir;
  PrefabInfo prefab = baked.prefab();
  const baker::BakedAsset* prefab_asset = nullptr;
  for (const baker::BakedAsset& a : baked.assets) {
    if (has_type(a.file, "PRFB")) prefab_asset = &a;
  }
  REQUIRE(prefab_asset);
  size_t skinned = prefab.nodes.size();
  for (size_t i = 0; i < prefab.nodes.size(); ++i) {
    if (!prefab.nodes[i].skin.empty()) skinned = i;
  }
  REQUIRE(skinned < prefab.nodes.size());
  REQUIRE(prefab.nodes[skinned].materials.size() == 1);
  auto with_prefab = [&](const PrefabInfo& edited) {
    std::vector<baker::BakedAsset> assets = baked.assets;
    for (baker::BakedAsset& a : assets) {
      if (a.name == prefab_asset->name) REQUIRE(pack_prefab(edited, a.file));
    }
    write_baked_folder(dir, assets);
    return baker::run_check(dir.path(), true);
  };
  CHECK(with_prefab(prefab) == 0);
  PrefabInfo edited = prefab;
  edited.nodes[skinned].materials.push_back(edited.nodes[skinned].materials[0]);
  CHECK(with_prefab(edited) == 1);  // two materials for one submesh
  edited = prefab;
  edited.nodes[skinned].materials.clear();
  CHECK(with_prefab(edited) == 1);  // none
  edited = prefab;
  edited.nodes[skinned].skin.clear();
  CHECK(with_prefab(edited) == 0);  // a skinned mesh drawn rigid, in its bind pose: valid glTF
  // Another skeleton (a copy of the right one under another name) for the mesh's joint indices.
  edited = prefab;
  edited.nodes[skinned].skin = "c.gltf#skin/9";
  std::vector<baker::BakedAsset> assets = baked.assets;
  for (const baker::BakedAsset& a : baked.assets) {
    if (a.name == prefab.nodes[skinned].skin)
      assets.push_back({"c.gltf#skin/9", "other.skel", a.file});
  }
  for (baker::BakedAsset& a : assets) {
    if (a.name == prefab_asset->name) REQUIRE(pack_prefab(edited, a.file));
  }
  write_baked_folder(dir, assets);
  CHECK(baker::run_check(dir.path(), true) == 1);
}

TEST_CASE("check refuses a mesh whose indices reach past its vertices") {
  // The quad's mesh stored raw, then one index byte set past the vertex count: every chunk still
  // unpacks to its size, only the value is wrong.
  test::BakedScene baked = bake(SkinnedQuad().build());
  REQUIRE(baked.status.ok());
  const baker::BakedAsset* mesh_asset = nullptr;
  for (const baker::BakedAsset& a : baked.assets) {
    if (has_type(a.file, "MESH")) mesh_asset = &a;
  }
  REQUIRE(mesh_asset);
  MeshInfo info;
  REQUIRE(read_mesh_info(mesh_asset->file, info));
  REQUIRE(info.meshlet_count == 0);
  const auto& blob = mesh_asset->file.blob;
  std::vector<std::byte> vertices(info.vertex_buffer_size), indices(info.index_buffer_size),
      skin(info.skin_buffer_size);
  REQUIRE(unpack_mesh(info, blob.data(), blob.size(), vertices.data(), vertices.size(),
                      indices.data(), indices.size()));
  REQUIRE(unpack_mesh_skin(info, blob.data(), blob.size(), skin.data(), skin.size()));
  PackOptions raw;
  raw.compression = Compression::None;
  std::vector<baker::BakedAsset> assets = baked.assets;
  test::TempDir dir;
  for (baker::BakedAsset& a : assets) {
    if (a.name != mesh_asset->name) continue;
    REQUIRE(pack_mesh(info, vertices.data(), vertices.size(), indices.data(), indices.size(),
                      a.file, raw, nullptr, skin.data(), skin.size()));
    write_baked_folder(dir, assets);
    REQUIRE(baker::run_check(dir.path(), true) == 0);
    MeshInfo stored;
    REQUIRE(read_mesh_info(a.file, stored));
    for (const Chunk& c : stored.chunks) {
      if (c.raw_offset != stored.vertex_buffer_size) continue;
      REQUIRE(c.packed_size == c.raw_size);
      // The first index's high byte: 0x7f.. is far past the quad's few vertices.
      a.file.blob[c.packed_offset + stored.index_size - 1] = std::byte{0x7f};
    }
  }
  write_baked_folder(dir, assets);
  CHECK(baker::run_check(dir.path(), true) == 1);
}

TEST_CASE("joints that are each other's ancestors fail the file at once, naming the cycle") {
  // hip -> knee -> hip, both joints: each is the other's nearest joint ancestor (the skeleton's
  // parents-first walk never ended and grew without bound). Through a node between them too.
  for (bool through_other : {false, true}) {
    INFO((through_other ? "through a node between the joints" : "joint to joint"));
    test::GeneratedGltf g = SkinnedQuad().build();
    if (through_other) {
      g.doc["nodes"].push_back({{"name", "shin"}, {"children", {1}}});
      g.doc["nodes"][2]["children"] = {3};
    } else {
      g.doc["nodes"][2]["children"] = {1};
    }
    test::BakedScene baked = bake(g);
    REQUIRE_FALSE(baked.status.ok());
    CHECK(baked.status.message().find("is its own ancestor (the node hierarchy has a cycle)") !=
          std::string::npos);
  }
}

TEST_CASE("a mesh drawn by two nodes with two skins of the same joints names one skeleton") {
  // Exporters duplicate a skin per instance; the mesh's joint indices mean the same to both, so
  // both nodes name the skeleton the mesh was baked for, and check agrees.
  test::GeneratedGltf g = SkinnedQuad().build();
  g.doc["skins"].push_back(g.doc["skins"][0]);
  g.doc["nodes"].push_back({{"name", "body twin"}, {"mesh", 0}, {"skin", 1}});
  g.doc["scenes"][0]["nodes"].push_back(3);
  test::BakedScene baked = bake(g);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  const MeshInfo mesh = baked.mesh(baked.prefab().nodes[0].mesh);
  size_t skinned = 0;
  for (const PrefabNode& n : baked.prefab().nodes) {
    if (n.mesh.empty()) continue;
    CHECK(n.skin == mesh.skeleton);
    ++skinned;
  }
  CHECK(skinned == 2);
  test::TempDir dir;
  write_baked_folder(dir, baked.assets);
  CHECK(baker::run_check(dir.path(), true) == 0);
}

TEST_CASE("two channels of one animation on the same node and path are refused") {
  test::GeneratedGltf g = SkinnedQuad().build();
  g.doc["animations"][0]["channels"].push_back(g.doc["animations"][0]["channels"][0]);
  test::BakedScene baked = bake(g);
  REQUIRE_FALSE(baked.status.ok());
  CHECK(baked.status.message().find("animations[0].channels[1].target: animates the rotation of "
                                    "nodes[2] again") != std::string::npos);
  // The same target in two animations is two clips: fine.
  test::GeneratedGltf two = SkinnedQuad().build();
  two.doc["animations"].push_back(two.doc["animations"][0]);
  CHECK(bake(two).status.ok());
}

TEST_CASE("two skins of the same joints but other inverse bind matrices on one mesh are refused") {
  // One baked mesh carries one skeleton: the second node would be bound with the first skin's
  // inverse bind matrices, deformed wrong with exit 0.
  test::GeneratedGltf g = SkinnedQuad().build();
  json second = g.doc["skins"][0];
  SkinnedQuad moved;
  moved.inverse_binds[13] = -1.5f;
  second["inverseBindMatrices"] = g.add(moved.inverse_binds.data(), 32 * 4, 5126, "MAT4", 2);
  g.doc["skins"].push_back(second);
  g.doc["nodes"].push_back({{"name", "body twin"}, {"mesh", 0}, {"skin", 1}});
  g.doc["scenes"][0]["nodes"].push_back(3);
  refused(bake(g), baker::BakeError::UnsupportedFeature,
          "nodes[3]: draws meshes[0] with skins[1], nodes[0] with skins[0], whose joints or "
          "inverse bind matrices differ");
}

TEST_CASE("a node drawing a skinned mesh without a skin is warned about") {
  test::GeneratedGltf g = SkinnedQuad().build();
  g.doc["nodes"].push_back({{"name", "statue"}, {"mesh", 0}});
  g.doc["scenes"][0]["nodes"].push_back(3);
  test::BakedScene baked = bake(g);
  REQUIRE(baked.status.ok());
  CHECK(baked.warned("1 node(s) draw a skinned mesh without a skin; drawn rigid, in bind pose"));
  CHECK_FALSE(bake(SkinnedQuad().build()).warned("without a skin"));
}

TEST_CASE("animation keys and values of component types glTF does not allow are refused") {
  // Times must be floats; translations and scales floats; rotations floats or normalized
  // integers (read as such, -1..1).
  auto with_output = [](const char* path, const void* data, size_t size, int type,
                        const char* shape, size_t count, bool normalized) {
    test::GeneratedGltf g = SkinnedQuad().build();
    size_t out = g.add(data, size, type, shape, count);
    if (normalized) g.doc["accessors"][out]["normalized"] = true;
    g.doc["animations"][0]["samplers"][0]["output"] = out;
    g.doc["animations"][0]["channels"][0]["target"]["path"] = path;
    return g;
  };
  test::GeneratedGltf bytes_times = SkinnedQuad().build();
  uint8_t times[2] = {0, 1};
  bytes_times.doc["animations"][0]["samplers"][0]["input"] =
      bytes_times.add(times, 2, 5121, "SCALAR", 2);
  refused(bake(bytes_times), baker::BakeError::InvalidSource,
          "animations[0].samplers[0].input: accessor 7 has componentType 5121; key times must be "
          "floats");

  int16_t moves[6] = {0, 0, 0, 0, 100, 0};
  refused(bake(with_output("translation", moves, 12, 5122, "VEC3", 2, false)),
          baker::BakeError::InvalidSource,
          "animations[0].samplers[0].output: accessor 7 has componentType 5122; translations and "
          "scales must be floats");
  uint8_t plain[8] = {0, 0, 0, 1, 0, 0, 1, 1};
  refused(bake(with_output("rotation", plain, 8, 5121, "VEC4", 2, false)),
          baker::BakeError::InvalidSource,
          "rotations must be floats or normalized bytes or shorts");
  int16_t quantised[8] = {0, 0, 0, 32767, 0, 0, 23170, 23170};
  test::BakedScene ok = bake(with_output("rotation", quantised, 16, 5122, "VEC4", 2, true));
  INFO(ok.status.message());
  REQUIRE(ok.status.ok());
  std::vector<float> keys;
  ClipInfo clip = clip_of(ok, "c.gltf#clip/0", keys);
  REQUIRE(clip.channels.size() == 1);
  CHECK(keys[clip.channels[0].values_offset + 7] == Approx(0.70710678f).epsilon(1e-4));
}
