// The pieces of bakes that scale past one machine: shards (pipeline/shard.h), depfiles
// (pipeline/depfile.h), the shared cache's keys, entries and trimming (pipeline/shared_cache.h),
// and per-source plan files (pipeline/source_plan.h).
#include "corpus_files.h"
#include "temp_dir.h"

#include "common/content_hash.h"
#include "pipeline/bake_job.h"
#include "pipeline/depfile.h"
#include "pipeline/plan_textures.h"
#include "pipeline/shard.h"
#include "pipeline/shared_cache.h"
#include "pipeline/source_files.h"
#include "pipeline/source_plan.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>

#include <set>

using namespace baker;
namespace fs = std::filesystem;

TEST_CASE("shards: K/N parses 1-based shards and refuses anything else", "[shard]") {
  std::string why;
  std::optional<Shard> shard = parse_shard("2/4", why);
  REQUIRE(shard);
  CHECK(shard->index == 1);
  CHECK(shard->count == 4);
  for (const char* bad : {"0/4", "5/4", "4", "/4", "1/", "a/b", "1/0", "-1/4", "1/4x", "1/70000"}) {
    INFO(bad);
    CHECK_FALSE(parse_shard(bad, why));
    CHECK_FALSE(why.empty());
  }
}

TEST_CASE("Every source lies in exactly one shard, whatever the other sources", "[shard]") {
  std::vector<std::string> sources;
  for (int i = 0; i < 2000; ++i) sources.push_back("textures/" + std::to_string(i) + ".png");
  std::vector<size_t> sizes(4, 0);
  for (const std::string& s : sources) {
    int owners = 0;
    for (uint32_t k = 0; k < 4; ++k) {
      if (in_shard({k, 4}, s)) {
        ++owners;
        ++sizes[k];
      }
    }
    CHECK(owners == 1);
  }
  // By the path alone: balanced enough, and a source's shard is a function of its name.
  for (size_t size : sizes) CHECK(size > 400);
  CHECK(in_shard({0, 1}, "anything"));
}

TEST_CASE("Depfiles escape what Ninja and Make would misread", "[depfile]") {
  CHECK(depfile_text("out/a.stamp", {"/src/a b.png", "/src/c#1.mtl", "/src/$x", "/src/d\\ e"}) ==
        "out/a.stamp: \\\n  /src/a\\ b.png \\\n  /src/c\\#1.mtl \\\n  /src/$$x \\\n  /src/d\\\\\\ "
        "e\n");
  // A name holding a newline cannot be written: left out, not allowed to break the file.
  CHECK(depfile_text("t", {"bad\nname", ""}) == "t:\n");
}

namespace {

// A baked-looking output folder with one file, and the entry a bake of it would record.
struct Fixture {
  test::TempDir dir;
  OutputTree output;
  CacheEntry entry;
  std::string bytes = std::string(1000, 'x');

  Fixture() {
    REQUIRE(OutputTree::open(dir.path() / "out", output));
    const std::span<const std::byte> parts[] = {std::as_bytes(std::span(bytes))};
    REQUIRE(output.write("textures/a.tx", parts));
    entry.kind = "texture";
    entry.settings = "s";
    entry.source_hash = "xxh3-64:0000000000000001";
    entry.outputs = {{"textures/a.png", "textures/a.tx", "TEXI",
                      hash_string(hash_bytes(bytes.data(), bytes.size())), bytes.size(), 0, 0}};
  }
};

}  // namespace

TEST_CASE("Cache keys change with every input that decides the outputs", "[shared_cache]") {
  std::set<std::string> keys = {
      SharedCache::key("a.png", AssetKind::Texture, "s", "h"),
      SharedCache::key("b.png", AssetKind::Texture, "s", "h"),
      SharedCache::key("a.png", AssetKind::Mesh, "s", "h"),
      SharedCache::key("a.png", AssetKind::Texture, "t", "h"),
      SharedCache::key("a.png", AssetKind::Texture, "s", "i"),
      // Fields cannot run into each other.
      SharedCache::key("a.png", AssetKind::Texture, "s\nsource_hash 1:h", ""),
  };
  CHECK(keys.size() == 6);
  CHECK(SharedCache::key("a.png", AssetKind::Texture, "s", "h").size() == 32);
  CHECK(SharedCache::key("a.png", AssetKind::Texture, "s", "h") ==
        SharedCache::key("a.png", AssetKind::Texture, "s", "h"));
}

TEST_CASE("A stored entry is found, restored and verified", "[shared_cache]") {
  Fixture f;
  std::unique_ptr<SharedCache> cache;
  REQUIRE(SharedCache::open(f.dir.path() / "cache", 0, cache));
  std::string key = SharedCache::key("textures/a.png", AssetKind::Texture, "s", "h");
  CHECK_FALSE(cache->find(key, "textures/a.png"));
  REQUIRE(cache->store(key, "textures/a.png", f.entry, f.output, false));
  // Storing again (a second writer) keeps the first.
  REQUIRE(cache->store(key, "textures/a.png", f.entry, f.output, false));
  CHECK(cache->counts().stored == 1);

  OutputTree other;
  REQUIRE(OutputTree::open(f.dir.path() / "other", other));
  std::optional<CacheEntry> found = cache->find(key, "textures/a.png");
  REQUIRE(found);
  std::vector<StagedFile> staged;
  REQUIRE(cache->restore(key, *found, other, staged));
  REQUIRE(staged.size() == 1);
  REQUIRE(other.publish(staged[0]));
  CHECK(other.file_hash("textures/a.tx") == f.entry.outputs[0].hash);

  // Damaged: same size, other bytes. Refused, and the entry is removed.
  fs::path object;
  for (const auto& e : fs::recursive_directory_iterator(f.dir.path() / "cache"))
    if (e.path().filename() == "0") object = e.path();
  REQUIRE(!object.empty());
  REQUIRE(::unlink(object.c_str()) == 0);  // the output is a hard link of it: keep that intact
  f.dir.write(fs::relative(object, f.dir.path()).string(), std::string(1000, 'y'));
  OutputTree third;
  REQUIRE(OutputTree::open(f.dir.path() / "third", third));
  found = cache->find(key, "textures/a.png");
  REQUIRE(found);
  CHECK_FALSE(cache->restore(key, *found, third, staged));
  CHECK(cache->counts().damaged == 1);
  CHECK_FALSE(cache->find(key, "textures/a.png"));
  CHECK_FALSE(fs::exists(f.dir.path() / "third/textures/a.tx"));

  // An entry of another source under a key (planted: keys name their source) is refused.
  REQUIRE(cache->store(key, "textures/a.png", f.entry, f.output, false));
  CHECK_FALSE(cache->find(key, "textures/b.png"));
}

TEST_CASE("Trimming removes the least recently used entries first", "[shared_cache]") {
  Fixture f;
  std::unique_ptr<SharedCache> cache;
  // Room for about three entries of a 1000-byte output and its entry.json.
  REQUIRE(SharedCache::open(f.dir.path() / "cache", 4000, cache));
  std::vector<std::string> keys;
  for (int i = 0; i < 6; ++i) {
    keys.push_back(SharedCache::key("textures/a.png", AssetKind::Texture, std::to_string(i), "h"));
    REQUIRE(cache->store(keys.back(), "textures/a.png", f.entry, f.output, false));
    // Distinct times, oldest first (the file system's clock may be coarse).
    fs::path entry =
        f.dir.path() / "cache/v1" / keys.back().substr(0, 2) / keys.back() / "entry.json";
    struct timespec times[2] = {{1000000 + i, 0}, {1000000 + i, 0}};
    REQUIRE(::utimensat(AT_FDCWD, entry.c_str(), times, 0) == 0);
  }
  uint64_t left = cache->trim();
  CHECK(left <= 4000);
  CHECK(left > 0);
  CHECK_FALSE(cache->find(keys[0], "textures/a.png"));
  CHECK(cache->find(keys[5], "textures/a.png"));
  // The outputs linked from removed entries are untouched.
  CHECK(f.output.file_hash("textures/a.tx") == f.entry.outputs[0].hash);
}

TEST_CASE(
    "Plan files carry an image's roles and edges and a refusal, and are rewritten only on "
    "change",
    "[source_plan]") {
  using assetlib::TextureWrap;
  test::TempDir dir;
  dir.write("root/a.png", "not read");
  TexturePlan plan;
  plan.add_image("a.png", TextureRole::Color);
  plan.add_use("a.png", TextureRole::Normal, {TextureWrap::ClampToEdge, TextureWrap::Repeat, {}});
  plan.add_use("a.png", TextureRole::Color,
               {TextureWrap::MirroredRepeat, TextureWrap::Repeat, 0.25f});
  Source a{"a.png", AssetKind::Texture, {"a.tx"}, "", 8};
  Source b{"b.jpg", AssetKind::Texture, {"a.tx"}, "", 8};
  PlanWrite written;
  REQUIRE(write_source_plans(dir.path() / "plan", dir.path() / "root", {a, b}, {"", "a.tx"}, plan,
                             written));
  CHECK(written.rewritten == 2);
  PlanWrite again;
  REQUIRE(write_source_plans(dir.path() / "plan", dir.path() / "root", {a, b}, {"", "a.tx"}, plan,
                             again));
  CHECK(again.rewritten == 0);
  CHECK(again.unchanged == 2);

  TexturePlan read;
  std::string refused;
  REQUIRE(read_source_plan(dir.path() / "plan", "a.png", read, refused));
  CHECK(refused.empty());
  CHECK(read.roles("a.png") == plan.roles("a.png"));
  REQUIRE(read.targets("a.png").size() == 2);
  CHECK(read.targets("a.png")[0].sampling ==
        SlotSampling{TextureWrap::MirroredRepeat, TextureWrap::Repeat, 0.25f});
  CHECK(read.targets("a.png")[1].sampling ==
        SlotSampling{TextureWrap::ClampToEdge, TextureWrap::Repeat, {}});
  CHECK(read.texture_name("a.png", TextureRole::Normal) ==
        plan.texture_name("a.png", TextureRole::Normal));
  REQUIRE(read_source_plan(dir.path() / "plan", "b.jpg", read, refused));
  CHECK(refused == "a.tx");
  CHECK_FALSE(read_source_plan(dir.path() / "plan", "c.png", read, refused));
  dir.write("plan/a.png.plan", "{ broken");
  CHECK_FALSE(read_source_plan(dir.path() / "plan", "a.png", read, refused));
}

TEST_CASE("the texture plan gives each texture the edges its slots wrap, repeat winning a conflict",
          "[source_plan]") {
  using assetlib::TextureWrap;
  test::TempDir dir;
  // clamped.png: clamp by mirror in the glTF, clamped in the MTL (mirror wins); tiled.png: clamped
  // in the MTL, repeated in the glTF (repeat wins); alone.png: in no slot.
  dir.write("root/a.gltf", R"({"asset": {"version": "2.0"},
    "images": [{"uri": "clamped.png"}, {"uri": "tiled.png"}],
    "samplers": [{"wrapS": 33071, "wrapT": 33648}],
    "textures": [{"source": 0, "sampler": 0}, {"source": 1}],
    "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}},
                   "normalTexture": {"index": 1}}]})");
  dir.write("root/b.obj", "mtllib b.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n");
  dir.write("root/b.mtl", "newmtl M\nnorm -clamp on tiled.png\nmap_Kd -clamp on clamped.png\n");
  for (const char* image : {"root/clamped.png", "root/tiled.png", "root/alone.png"})
    dir.write(image, "not read");
  std::vector<Source> sources = {{"a.gltf", AssetKind::Scene, {}, "", 1},
                                 {"b.obj", AssetKind::Mesh, {}, "", 1},
                                 {"clamped.png", AssetKind::Texture, {}, "", 1},
                                 {"tiled.png", AssetKind::Texture, {}, "", 1},
                                 {"alone.png", AssetKind::Texture, {}, "", 1}};
  TexturePlan plan = plan_textures(dir.path() / "root", BakeConfig{}, sources);
  auto edges = [&](const std::string& image) {
    std::vector<TextureTarget> targets = plan.targets(image);
    REQUIRE(targets.size() == 1);
    return targets[0].sampling;
  };
  CHECK(edges("clamped.png") ==
        SlotSampling{TextureWrap::ClampToEdge, TextureWrap::MirroredRepeat, {}});
  CHECK(edges("tiled.png") == SlotSampling{TextureWrap::Repeat, TextureWrap::Repeat, {}});
  CHECK(edges("alone.png") == SlotSampling{});
  // Two plans whose only difference is a wrap are told apart.
  TexturePlan repeated, clamped;
  for (TexturePlan* p : {&repeated, &clamped}) p->add_image("a.png", TextureRole::Color);
  repeated.add_use("a.png", TextureRole::Color, {});
  clamped.add_use("a.png", TextureRole::Color, {TextureWrap::ClampToEdge, TextureWrap::Repeat, {}});
  CHECK(repeated.digest() != clamped.digest());
}

TEST_CASE(
    "a masked material's base colour texture is planned with the cutoff its alpha is tested by",
    "[source_plan]") {
  test::TempDir dir;
  // glTF: a.png masked at 0.3 under a base colour alpha of 0.6 (the texture's alpha is tested
  // against 0.5); b.png masked at the default 0.5 in one material and blended in another (the
  // mask wins); c.png masked but as an emissive map (not tested); d.png masked with a factor alpha
  // of 0.4 (no texel can pass: no cutoff). MTL: e.png is a cut-out (map_d is map_Kd), f.png not.
  dir.write("root/a.gltf", R"({"asset": {"version": "2.0"},
    "images": [{"uri": "a.png"}, {"uri": "b.png"}, {"uri": "c.png"}, {"uri": "d.png"}],
    "textures": [{"source": 0}, {"source": 1}, {"source": 2}, {"source": 3}],
    "materials": [
      {"alphaMode": "MASK", "alphaCutoff": 0.3,
       "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "baseColorFactor": [1, 1, 1, 0.6]}},
      {"alphaMode": "MASK", "pbrMetallicRoughness": {"baseColorTexture": {"index": 1}},
       "emissiveTexture": {"index": 2}},
      {"alphaMode": "BLEND", "pbrMetallicRoughness": {"baseColorTexture": {"index": 1}}},
      {"alphaMode": "MASK", "alphaCutoff": 0.5,
       "pbrMetallicRoughness": {"baseColorTexture": {"index": 3}, "baseColorFactor": [1, 1, 1, 0.4]}}]})");
  dir.write("root/b.obj", "mtllib b.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n");
  dir.write("root/b.mtl",
            "newmtl M\nmap_Kd e.png\nmap_d e.png\nnewmtl N\nmap_Kd f.png\nmap_d g.png\n");
  std::vector<Source> sources = {{"a.gltf", AssetKind::Scene, {}, "", 1},
                                 {"b.obj", AssetKind::Mesh, {}, "", 1}};
  for (const char* image : {"a.png", "b.png", "c.png", "d.png", "e.png", "f.png", "g.png"}) {
    dir.write(std::string("root/") + image, "not read");
    sources.push_back({image, AssetKind::Texture, {}, "", 1});
  }
  TexturePlan plan = plan_textures(dir.path() / "root", BakeConfig{}, sources);
  auto cutoff = [&](const std::string& image) {
    std::vector<TextureTarget> targets = plan.targets(image);
    REQUIRE(targets.size() == 1);
    return targets[0].sampling.alpha_cutoff;
  };
  REQUIRE(cutoff("a.png"));
  CHECK(*cutoff("a.png") == Approx(0.5f));
  CHECK(cutoff("b.png") == 0.5f);
  CHECK_FALSE(cutoff("c.png"));
  CHECK_FALSE(cutoff("d.png"));
  CHECK(cutoff("e.png") == 0.5f);
  CHECK_FALSE(cutoff("f.png"));
  // Two masked uses keep the lower cutoff.
  CHECK(either({assetlib::TextureWrap::Repeat, assetlib::TextureWrap::Repeat, 0.4f},
               {assetlib::TextureWrap::Repeat, assetlib::TextureWrap::Repeat, 0.7f})
            .alpha_cutoff == 0.4f);
}

TEST_CASE(
    "the texture plan takes a model's uses from the last run only while its files hold the "
    "same bytes",
    "[source_plan]") {
  test::TempDir dir;
  dir.write("root/a.obj", "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n");
  dir.write("root/a.mtl", "newmtl M\nmap_Kd wood.png\n");
  dir.write("root/wood.png", "not read");
  const std::vector<Source> sources = {{"a.obj", AssetKind::Mesh, {}, "", 1},
                                       {"wood.png", AssetKind::Texture, {}, "", 1}};
  // The hashes the files have now, as a bake's stamps would give them (or made up).
  std::map<std::string, std::string> hashes;
  auto hash_of = [&](const std::string& path) -> std::optional<std::string> {
    auto it = hashes.find(path);
    if (it != hashes.end()) return it->second;
    std::vector<std::byte> bytes = test::file_bytes((dir.path() / "root" / path).string());
    if (bytes.empty()) return std::nullopt;
    return hash_string(hash_bytes(bytes.data(), bytes.size()));
  };
  auto plan = [&](const std::map<std::string, PlannedModel>& previous,
                  std::map<std::string, PlannedModel>& planned) {
    PlanMemory memory{&previous, hash_of, &planned};
    return plan_textures(dir.path() / "root", BakeConfig{}, sources, &memory);
  };
  std::map<std::string, PlannedModel> first, second, third;
  CHECK(plan({}, first).targets("wood.png")[0].role == TextureRole::Color);
  REQUIRE(first.count("a.obj") == 1);
  CHECK(first["a.obj"].read ==
        std::vector<Dependency>{{"a.obj", *hash_of("a.obj")}, {"a.mtl", *hash_of("a.mtl")}});
  CHECK(first["a.obj"].uses.size() == 1);

  // The library now makes wood.png a normal map. While the stamps say its bytes are the old ones,
  // the model is not read again (the old use stands); once they say otherwise, it is.
  const std::string old_library = *hash_of("a.mtl");
  dir.write("root/a.mtl", "newmtl M\nnorm wood.png\n");
  hashes["a.mtl"] = old_library;
  CHECK(plan(first, second).targets("wood.png")[0].role == TextureRole::Color);
  CHECK(second == first);
  hashes.clear();
  CHECK(plan(second, third).targets("wood.png")[0].role == TextureRole::Normal);
  CHECK(third["a.obj"].read[1].state == *hash_of("a.mtl"));

  // A library that was missing and appears is read.
  std::map<std::string, PlannedModel> missing, found;
  fs::remove(dir.path() / "root/a.mtl");
  CHECK(plan({}, missing).targets("wood.png")[0].role == TextureRole::Color);  // by its name
  CHECK(missing["a.obj"].read[1] == Dependency{"a.mtl", kAbsentFile});
  dir.write("root/a.mtl", "newmtl M\nnorm wood.png\n");
  CHECK(plan(missing, found).targets("wood.png")[0].role == TextureRole::Normal);
}

TEST_CASE("a bake's plan memory, wired to its stamps, takes an unchanged model's uses unread",
          "[source_plan]") {
  test::TempDir dir;
  dir.write("root/a.obj", "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n");
  dir.write("root/a.mtl", "newmtl M\nmap_Kd wood.png\n");
  dir.write("root/wood.png", "not read");
  const fs::path root = dir.path() / "root";
  const std::vector<Source> sources = {{"a.obj", AssetKind::Mesh, {}, "", 1},
                                       {"wood.png", AssetKind::Texture, {}, "", 1}};
  OutputTree output;
  REQUIRE(OutputTree::open(dir.path() / "out", output).ok());
  BakeConfig config;
  MemoryBudget budget(1ull << 30);
  // As bake_tree.cpp wires it: the last run's records, this run's stamps (JobContext::file_hash).
  auto plan = [&](const BakeCache& previous, std::map<std::string, PlannedModel>& planned) {
    JobContext context(root, output, config, previous, budget);
    const PlanMemory memory{&previous.planned,
                            [&context](const std::string& path) { return context.file_hash(path); },
                            &planned};
    return plan_textures(root, config, sources, &memory);
  };
  BakeCache first;
  CHECK(plan({}, first.planned).targets("wood.png")[0].role == TextureRole::Color);
  // The hashes the plan records are the ones the stamps give (one format, one function).
  JobContext context(root, output, config, first, budget);
  for (const Dependency& file : first.planned["a.obj"].read)
    CHECK(context.file_hash(file.path) == file.state);

  // The library changes, but keeps its size and mtime, and the last run's stamps are trusted
  // (taken well after those mtimes): the run takes the stamps' word and the plan reads nothing.
  const std::optional<FileStamp> before = stat_file(root / "a.mtl");
  REQUIRE(before);
  dir.write("root/a.mtl", "newmtl M\nnorm   wood.png\n");
  REQUIRE(fs::file_size(root / "a.mtl") == before->size);
  const timespec times[2] = {
      {0, UTIME_OMIT},
      {time_t(before->mtime_ns / 1'000'000'000), long(before->mtime_ns % 1'000'000'000)}};
  REQUIRE(utimensat(AT_FDCWD, (root / "a.mtl").c_str(), times, 0) == 0);
  for (const Dependency& file : first.planned["a.obj"].read) {
    std::optional<FileStamp> stamp = stat_file(root / file.path);
    REQUIRE(stamp);
    stamp->hash = file.state;
    first.stamps[file.path] = *stamp;
  }
  first.run_started_ns = before->mtime_ns + 60'000'000'000;
  BakeCache second;
  CHECK(plan(first, second.planned).targets("wood.png")[0].role == TextureRole::Color);
  CHECK(second.planned == first.planned);
  // A record that does not name its model first is not taken for it.
  BakeCache forged = first;
  std::swap(forged.planned["a.obj"].read[0], forged.planned["a.obj"].read[1]);
  BakeCache third;
  CHECK(plan(forged, third.planned).targets("wood.png")[0].role == TextureRole::Normal);
}

TEST_CASE("a slot's texture dependency reads back its name, absence or failed image", "[cache]") {
  using baker::Dependency;
  using baker::texture_dependency_of;
  // An image whose name starts like the failed marker is still a name.
  auto named = texture_dependency_of(Dependency{"failed x.png", "texture:color:failed x.png"});
  REQUIRE(named);
  CHECK(named->name == std::optional<std::string>("failed x.png"));
  CHECK_FALSE(named->failed_image_hash);
  auto absent = texture_dependency_of(Dependency{"a.png", "texture:normal:absent"});
  REQUIRE(absent);
  CHECK_FALSE(absent->name);
  CHECK_FALSE(absent->failed_image_hash);
  auto failed =
      texture_dependency_of(Dependency{"a.png", "texture:color:/failed xxh3-64:0123456789abcdef"});
  REQUIRE(failed);
  CHECK_FALSE(failed->name);
  CHECK(failed->failed_image_hash == std::optional<std::string>("xxh3-64:0123456789abcdef"));
  CHECK_FALSE(texture_dependency_of(Dependency{"a.png", "xxh3-64:0123456789abcdef"}));
}
