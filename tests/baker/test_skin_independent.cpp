// Skins and clips checked on real data against values computed here, independently of the
// baker's importer: the glTF's JSON read with nlohmann, its .bin read directly, TRS matrices,
// slerp and Hermite splines written out again below. The baked side goes through the public API
// only: read_clip_info -> unpack_clip -> sample_clip, read_skeleton_info ->
// skeleton_joint_matrices, read_mesh_info -> unpack_mesh / unpack_mesh_skin.
#include "gltf_fixture.h"

#include <array>
#include <cmath>
#include <map>

using namespace assetlib;
using nlohmann::json;

namespace {

// ---- The source, read directly ------------------------------------------------------------------

struct Source {
  json doc;
  std::vector<std::byte> bin;
};

Source load_source(const std::string& gltf, const std::string& bin) {
  return {test::gltf_json(test::corpus(gltf)), test::file_bytes(test::corpus(bin))};
}

// Accessor `index` as doubles, `components` per element (float, unsigned byte or short; normalized
// integers mapped to 0..1).
std::vector<double> accessor(const Source& s, size_t index, size_t components) {
  const json& a = s.doc["accessors"][index];
  const json& view = s.doc["bufferViews"][a["bufferView"].get<size_t>()];
  int type = a["componentType"];
  size_t size = type == 5126 ? 4 : type == 5123 ? 2 : 1;
  size_t stride = view.value("byteStride", size_t(0));
  if (stride == 0) stride = size * components;
  size_t base = view.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0));
  bool normalized = a.value("normalized", false);
  std::vector<double> out;
  for (size_t i = 0; i < a["count"].get<size_t>(); ++i) {
    for (size_t c = 0; c < components; ++c) {
      const std::byte* p = s.bin.data() + base + i * stride + c * size;
      double v = 0;
      if (type == 5126) {
        float f;
        std::memcpy(&f, p, 4);
        v = f;
      } else if (type == 5123) {
        uint16_t u;
        std::memcpy(&u, p, 2);
        v = normalized ? u / 65535.0 : u;
      } else {
        v = normalized ? double(uint8_t(*p)) / 255.0 : double(uint8_t(*p));
      }
      out.push_back(v);
    }
  }
  return out;
}

// ---- Transforms, in double ----------------------------------------------------------------------

struct Trs {
  std::array<double, 3> t{0, 0, 0};
  std::array<double, 4> r{0, 0, 0, 1};
  std::array<double, 3> s{1, 1, 1};
};
using M4 = std::array<double, 16>;  // column-major

M4 mul(const M4& a, const M4& b) {
  M4 o{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4; ++k) o[4 * c + r] += a[4 * k + r] * b[4 * c + k];
  return o;
}

M4 matrix(const Trs& p) {
  double x = p.r[0], y = p.r[1], z = p.r[2], w = p.r[3];
  double n = std::sqrt(x * x + y * y + z * z + w * w);
  x /= n, y /= n, z /= n, w /= n;
  M4 m = {1 - 2 * (y * y + z * z),
          2 * (x * y + w * z),
          2 * (x * z - w * y),
          0,
          2 * (x * y - w * z),
          1 - 2 * (x * x + z * z),
          2 * (y * z + w * x),
          0,
          2 * (x * z + w * y),
          2 * (y * z - w * x),
          1 - 2 * (x * x + y * y),
          0,
          p.t[0],
          p.t[1],
          p.t[2],
          1};
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) m[4 * c + k] *= p.s[c];
  return m;
}

Trs node_trs(const json& node) {
  Trs p;
  for (int k = 0; k < 3 && node.contains("translation"); ++k) p.t[k] = node["translation"][k];
  for (int k = 0; k < 4 && node.contains("rotation"); ++k) p.r[k] = node["rotation"][k];
  for (int k = 0; k < 3 && node.contains("scale"); ++k) p.s[k] = node["scale"][k];
  return p;
}

// glTF's spherical interpolation along the shorter arc.
std::array<double, 4> slerp(std::array<double, 4> a, std::array<double, 4> b, double u) {
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (d < 0) {
    for (double& v : b) v = -v;
    d = -d;
  }
  std::array<double, 4> o;
  if (d > 1 - 1e-9) {
    for (int k = 0; k < 4; ++k) o[k] = a[k] + u * (b[k] - a[k]);
  } else {
    double th = std::acos(d);
    for (int k = 0; k < 4; ++k)
      o[k] = (std::sin((1 - u) * th) * a[k] + std::sin(u * th) * b[k]) / std::sin(th);
  }
  double n = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
  for (double& v : o) v /= n;
  return o;
}

// The poses of every glTF node at time `t` of animation `a`: the node's TRS, the animated
// paths replaced by the sampler's value (glTF 2.0 Appendix C).
std::vector<Trs> animated_nodes(const Source& s, size_t a, double t) {
  std::vector<Trs> poses;
  for (const json& n : s.doc["nodes"]) poses.push_back(node_trs(n));
  const json& anim = s.doc["animations"][a];
  for (const json& ch : anim["channels"]) {
    const json& sampler = anim["samplers"][ch["sampler"].get<size_t>()];
    std::string path = ch["target"]["path"];
    size_t n = path == "rotation" ? 4 : 3;
    std::vector<double> times = accessor(s, sampler["input"], 1);
    std::vector<double> values = accessor(s, sampler["output"], n);
    std::string interpolation = sampler.value("interpolation", std::string("LINEAR"));
    bool cubic = interpolation == "CUBICSPLINE";
    size_t stride = cubic ? 3 * n : n, at = cubic ? n : 0;
    auto value = [&](size_t k, size_t c) { return values[k * stride + at + c]; };
    std::vector<double> out(n);
    size_t last = times.size() - 1;
    if (t <= times[0] || t >= times[last]) {
      size_t k = t <= times[0] ? 0 : last;
      for (size_t c = 0; c < n; ++c) out[c] = value(k, c);
    } else {
      size_t k = 0;
      while (times[k + 1] <= t) ++k;
      double dt = times[k + 1] - times[k], u = (t - times[k]) / dt;
      if (interpolation == "STEP") {
        for (size_t c = 0; c < n; ++c) out[c] = value(k, c);
      } else if (cubic) {
        double u2 = u * u, u3 = u2 * u;
        for (size_t c = 0; c < n; ++c) {
          double b = values[k * stride + 2 * n + c], a1 = values[(k + 1) * stride + c];
          out[c] = (2 * u3 - 3 * u2 + 1) * value(k, c) + (u3 - 2 * u2 + u) * dt * b +
                   (-2 * u3 + 3 * u2) * value(k + 1, c) + (u3 - u2) * dt * a1;
        }
      } else if (path == "rotation") {
        std::array<double, 4> q =
            slerp({value(k, 0), value(k, 1), value(k, 2), value(k, 3)},
                  {value(k + 1, 0), value(k + 1, 1), value(k + 1, 2), value(k + 1, 3)}, u);
        out.assign(q.begin(), q.end());
      } else {
        for (size_t c = 0; c < n; ++c) out[c] = value(k, c) + u * (value(k + 1, c) - value(k, c));
      }
    }
    Trs& pose = poses[ch["target"]["node"].get<size_t>()];
    if (path == "rotation") {
      double len = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
      for (int c = 0; c < 4; ++c) pose.r[c] = out[c] / len;
    } else {
      std::copy(out.begin(), out.end(), path == "translation" ? pose.t.begin() : pose.s.begin());
    }
  }
  return poses;
}

// World matrices of the glTF nodes for the given local poses.
std::vector<M4> world_matrices(const Source& s, const std::vector<Trs>& poses) {
  size_t count = s.doc["nodes"].size();
  std::vector<int> parent(count, -1);
  for (size_t n = 0; n < count; ++n)
    for (const json& c : s.doc["nodes"][n].value("children", json::array()))
      parent[c.get<size_t>()] = int(n);
  std::vector<M4> world(count);
  for (size_t n = 0; n < count; ++n) {
    M4 m = matrix(poses[n]);
    for (int p = parent[n]; p >= 0; p = parent[p]) m = mul(matrix(poses[p]), m);
    world[n] = m;
  }
  return world;
}

// The default scene's nodes depth first: prefab order.
std::vector<size_t> prefab_order(const json& g) {
  std::vector<size_t> order, stack;
  for (const json& n : g["scenes"][g.value("scene", 0)]["nodes"])
    stack.insert(stack.begin(), n.get<size_t>());
  while (!stack.empty()) {
    size_t n = stack.back();
    stack.pop_back();
    order.push_back(n);
    const json& children = g["nodes"][n].value("children", json::array());
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
  return order;
}

double max_difference(const double* a, const float* b, size_t n) {
  double worst = 0;
  for (size_t i = 0; i < n; ++i) worst = std::max(worst, std::fabs(a[i] - double(b[i])));
  return worst;
}

// ---- The baked side, through the public API ----------------------------------------------------

struct BakedClip {
  ClipInfo info;
  std::vector<float> keys;
};

BakedClip baked_clip(const test::BakedScene& baked, const std::string& name) {
  const baker::BakedAsset* a = baked.find(name);
  INFO(name);
  REQUIRE(a);
  BakedClip c;
  REQUIRE(read_clip_info(a->file, c.info));
  c.keys.resize(c.info.key_float_count);
  REQUIRE(
      unpack_clip(c.info, a->file.blob.data(), a->file.blob.size(), c.keys.data(), c.keys.size()));
  return c;
}

// The prefab's node poses at `time` of the clip, from their rest TRS.
std::vector<NodePose> sampled_prefab(const PrefabInfo& prefab, const BakedClip& clip, float time) {
  std::vector<NodePose> poses(prefab.nodes.size());
  for (size_t i = 0; i < poses.size(); ++i) {
    REQUIRE_FALSE(prefab.nodes[i].has_matrix);
    std::memcpy(poses[i].translation, prefab.nodes[i].translation, 12);
    std::memcpy(poses[i].rotation, prefab.nodes[i].rotation, 16);
    std::memcpy(poses[i].scale, prefab.nodes[i].scale, 12);
  }
  sample_clip(clip.info, clip.keys.data(), time, poses);
  return poses;
}

const char* const kFox = "draco-testdata/Fox/glTF/Fox.gltf";
const char* const kFoxBin = "draco-testdata/Fox/glTF/Fox.bin";

}  // namespace

TEST_CASE("Fox: sampled clips match the glTF evaluated independently") {
  Source src = load_source(kFox, kFoxBin);
  test::BakedScene baked = test::bake_corpus_gltf(kFox);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  PrefabInfo prefab = baked.prefab();
  std::vector<size_t> order = prefab_order(src.doc);
  REQUIRE(order.size() == prefab.nodes.size());
  REQUIRE(prefab.clips.size() == src.doc["animations"].size());
  for (size_t a : {size_t(1), size_t(2)}) {  // Walk, Run
    BakedClip clip = baked_clip(baked, prefab.clips[a]);
    CHECK(clip.info.name == src.doc["animations"][a]["name"].get<std::string>());
    for (double t : {0.0, 0.1, 0.37, 0.6543, 5.0}) {
      INFO("animation " << a << " at " << t << " s");
      std::vector<Trs> expected = animated_nodes(src, a, t);
      std::vector<NodePose> got = sampled_prefab(prefab, clip, float(t));
      size_t checked = 0;
      for (size_t p = 0; p < order.size(); ++p) {
        INFO("node " << order[p] << " '" << prefab.nodes[p].name << "'");
        const Trs& e = expected[order[p]];
        double scale = 1;
        for (double v : e.t) scale = std::max(scale, std::fabs(v));
        CHECK(max_difference(e.t.data(), got[p].translation, 3) <= 1e-5 * scale);
        // q and -q are one rotation.
        double dot = 0;
        for (int k = 0; k < 4; ++k) dot += e.r[k] * got[p].rotation[k];
        CHECK(std::fabs(dot) >= 1 - 1e-6);
        CHECK(max_difference(e.s.data(), got[p].scale, 3) <= 1e-5);
        ++checked;
      }
      CHECK(checked == 26);
    }
  }
}

TEST_CASE("Fox: joint matrices at rest and animated match world x inverse bind") {
  Source src = load_source(kFox, kFoxBin);
  test::BakedScene baked = test::bake_corpus_gltf(kFox);
  REQUIRE(baked.status.ok());
  PrefabInfo prefab = baked.prefab();
  std::vector<size_t> order = prefab_order(src.doc);
  const json& skin = src.doc["skins"][0];
  std::vector<double> ibm = accessor(src, skin["inverseBindMatrices"], 16);
  const baker::BakedAsset* asset = baked.find(std::string(kFox) + "#skin/0");
  REQUIRE(asset);
  SkeletonInfo skeleton;
  REQUIRE(read_skeleton_info(asset->file, skeleton));
  REQUIRE(skeleton.joints.size() == skin["joints"].size());
  // Each skeleton joint is the glTF joint of the same name.
  std::map<std::string, size_t> source_joint;
  for (size_t i = 0; i < skin["joints"].size(); ++i)
    source_joint[src.doc["nodes"][skin["joints"][i].get<size_t>()]["name"]] = i;

  auto compare = [&](const std::vector<Trs>& node_poses, const std::vector<NodePose>& poses) {
    std::vector<M4> world = world_matrices(src, node_poses);
    std::vector<float> got(16 * skeleton.joints.size());
    REQUIRE(skeleton_joint_matrices(skeleton, poses, got));
    double worst = 0, from_identity = 0;
    for (size_t j = 0; j < skeleton.joints.size(); ++j) {
      INFO("joint " << j << " '" << skeleton.joints[j].name << "'");
      REQUIRE(source_joint.count(skeleton.joints[j].name));
      size_t i = source_joint[skeleton.joints[j].name];
      size_t node = skin["joints"][i];
      CHECK(order[size_t(skeleton.joints[j].node)] == node);
      M4 bind;
      std::copy_n(ibm.begin() + ptrdiff_t(16 * i), 16, bind.begin());
      M4 expected = mul(world[node], bind);
      // Fox is modelled in centimetres: translations up to ~100.
      double d = max_difference(expected.data(), got.data() + 16 * j, 16);
      worst = std::max(worst, d);
      CHECK(d <= 1e-3);
      for (int k = 0; k < 16; ++k)
        from_identity = std::max(from_identity, std::fabs(expected[k] - (k % 5 == 0 ? 1 : 0)));
    }
    return std::pair{worst, from_identity};
  };

  SECTION("at rest") {
    std::vector<Trs> rest;
    for (const json& n : src.doc["nodes"]) rest.push_back(node_trs(n));
    std::vector<NodePose> poses;
    for (const SkeletonJoint& j : skeleton.joints) poses.push_back(j.rest);
    auto [worst, from_identity] = compare(rest, poses);
    // Fox's rest pose is its bind pose: world x inverse bind is the identity (to its float IBMs).
    CHECK(from_identity < 1e-3);
    WARN("Fox at rest: joint matrices within " << worst << " of the independent ones, within "
                                               << from_identity << " of the identity");
  }
  SECTION("animated: Survey at 1.234 s") {
    BakedClip clip = baked_clip(baked, prefab.clips[0]);
    std::vector<NodePose> prefab_poses = sampled_prefab(prefab, clip, 1.234f);
    std::vector<NodePose> poses;
    for (const SkeletonJoint& j : skeleton.joints) poses.push_back(prefab_poses[size_t(j.node)]);
    auto [worst, from_identity] = compare(animated_nodes(src, 0, 1.234), poses);
    CHECK(from_identity > 0.1);  // it moved
    WARN("Fox Survey at 1.234 s: joint matrices within " << worst << " of the independent ones");
  }
}

TEST_CASE("Fox: skinned vertices keep the source's joints and weights") {
  Source src = load_source(kFox, kFoxBin);
  test::BakedScene baked = test::bake_corpus_gltf(kFox);
  REQUIRE(baked.status.ok());
  const json& primitive = src.doc["meshes"][0]["primitives"][0];
  std::vector<double> positions = accessor(src, primitive["attributes"]["POSITION"], 3);
  std::vector<double> joints = accessor(src, primitive["attributes"]["JOINTS_0"], 4);
  std::vector<double> weights = accessor(src, primitive["attributes"]["WEIGHTS_0"], 4);
  const json& skin = src.doc["skins"][0];

  std::string mesh_name = std::string(kFox) + "#mesh/0";
  MeshInfo info = baked.mesh(mesh_name);
  REQUIRE(info.skin_format == SkinFormat::J8W8);
  REQUIRE(info.skin_joint_count == skin["joints"].size());
  CHECK(info.skeleton == std::string(kFox) + "#skin/0");
  const baker::BakedAsset* asset = baked.find(mesh_name);
  std::vector<Vertex_PNCVT_F32> vertices(info.vertex_count);
  std::vector<std::byte> indices(info.index_buffer_size);
  REQUIRE(unpack_mesh(info, asset->file.blob.data(), asset->file.blob.size(), vertices.data(),
                      info.vertex_buffer_size, indices.data(), indices.size()));
  std::vector<Skin_J8W8> skins(info.vertex_count);
  REQUIRE(unpack_mesh_skin(info, asset->file.blob.data(), asset->file.blob.size(), skins.data(),
                           info.skin_buffer_size));
  SkeletonInfo skeleton;
  REQUIRE(read_skeleton_info(baked.find(info.skeleton)->file, skeleton));

  size_t matched = 0;
  for (size_t v : {size_t(0), size_t(17), size_t(400), size_t(911), size_t(1727)}) {
    // The source vertex's influences by joint name, renormalised.
    std::map<std::string, double> expected;
    double sum = 0;
    for (int k = 0; k < 4; ++k) sum += weights[4 * v + k];
    for (int k = 0; k < 4; ++k) {
      if (weights[4 * v + k] == 0) continue;
      size_t node = skin["joints"][size_t(joints[4 * v + k])];
      expected[src.doc["nodes"][node]["name"]] += weights[4 * v + k] / sum;
    }
    for (uint32_t b = 0; b < info.vertex_count; ++b) {
      if (vertices[b].position[0] != float(positions[3 * v]) ||
          vertices[b].position[1] != float(positions[3 * v + 1]) ||
          vertices[b].position[2] != float(positions[3 * v + 2]))
        continue;
      INFO("source vertex " << v << ", baked vertex " << b);
      ++matched;
      int total = 0;
      std::map<std::string, double> got;
      for (int k = 0; k < 4; ++k) {
        total += skins[b].weights[k];
        if (skins[b].weights[k] > 0)
          got[skeleton.joints[skins[b].joints[k]].name] += skins[b].weights[k] / 255.0;
      }
      CHECK(total == 255);
      for (const auto& [name, w] : expected) {
        INFO(name);
        // Rounded to 1/255 (largest remainder: within one unit); below half a unit it may vanish.
        CHECK(std::fabs(got[name] - w) <= 1.0 / 255 + 1e-9);
      }
      for (const auto& [name, w] : got) CHECK(expected.count(name));
    }
  }
  CHECK(matched >= 5);
}

TEST_CASE("InterpolationTest: STEP, LINEAR and CUBICSPLINE keys are kept as authored") {
  const char* file = "draco-testdata/InterpolationTest/glTF/InterpolationTest.gltf";
  json g = test::gltf_json(test::corpus(file));
  Source src = load_source(
      file, "draco-testdata/InterpolationTest/glTF/" + g["buffers"][0]["uri"].get<std::string>());
  test::BakedScene baked = test::bake_corpus_gltf(file);
  INFO(baked.status.message());
  REQUIRE(baked.status.ok());
  PrefabInfo prefab = baked.prefab();
  std::vector<size_t> order = prefab_order(src.doc);
  REQUIRE(prefab.clips.size() == 9);
  for (size_t a = 0; a < 9; ++a) {
    BakedClip clip = baked_clip(baked, prefab.clips[a]);
    const json& sampler = src.doc["animations"][a]["samplers"][0];
    REQUIRE(clip.info.channels.size() == 1);
    CHECK(clip_interpolation_name(clip.info.channels[0].interpolation) == [&] {
      std::string s = sampler.value("interpolation", std::string("LINEAR"));
      for (char& c : s) c = char(std::tolower(c));
      return s;
    }());
    CHECK(clip.info.channels[0].key_count ==
          src.doc["accessors"][sampler["input"].get<size_t>()]["count"]);
    for (double t : {0.1, 0.5, 0.9, 1.3, 2.7, 4.0}) {
      INFO(clip.info.name << " at " << t);
      std::vector<Trs> expected = animated_nodes(src, a, t);
      std::vector<NodePose> got = sampled_prefab(prefab, clip, float(t));
      for (size_t p = 0; p < order.size(); ++p) {
        const Trs& e = expected[order[p]];
        CHECK(max_difference(e.t.data(), got[p].translation, 3) <= 1e-5);
        CHECK(max_difference(e.s.data(), got[p].scale, 3) <= 1e-5);
        double dot = 0;
        for (int k = 0; k < 4; ++k) dot += e.r[k] * got[p].rotation[k];
        CHECK(std::fabs(dot) >= 1 - 1e-6);
      }
    }
  }
}
