// The incremental-bake cache (pipeline/bake_cache.h): what save_cache writes load_cache reads back,
// and a cache that is missing, damaged, of another version or untrustworthy loads as empty.
#include "temp_dir.h"

#include "pipeline/bake_cache.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using baker::BakeCache;
using baker::CacheEntry;
using baker::FileStamp;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

CacheEntry texture_entry() {
  CacheEntry e;
  e.kind = "texture";
  e.settings = R"({"compression":"LZ4"})";
  e.source_hash = "xxh3-64:0123456789abcdef";
  e.outputs = {{"textures/a.png", "textures/a.tx", "TEXI", "xxh3-64:fedcba9876543210",
                5000000000ull, 1700000000123456789ll, 123456},
               {"textures/a.png#normal", "textures/a.normal.tx", "TEXI", "xxh3-64:0000000000000001",
                7, 8, 9}};
  return e;
}

CacheEntry mesh_entry() {
  CacheEntry e;
  e.kind = "mesh";
  e.settings = R"({"vertex_format":"PNCVT_F32"})";
  e.source_hash = "xxh3-64:1111111111111111";
  e.deps = {{"models/b.mtl", "xxh3-64:2222222222222222"},
            {"textures/wood.png", "texture:color:textures/wood.png"},
            {"textures/missing.png", "texture:normal:absent"}};
  e.outputs = {{"models/b.obj#material/0", "models/b.obj.parts/0.mat", "MATL",
                "xxh3-64:4444444444444444", 300, 0, 0},
               {"models/b.obj", "models/b.mesh", "MESH", "xxh3-64:3333333333333333", 42, -5, 99}};
  return e;
}

void check_same(const CacheEntry& a, const CacheEntry& b) {
  CHECK(a.kind == b.kind);
  CHECK(a.settings == b.settings);
  CHECK(a.source_hash == b.source_hash);
  REQUIRE(a.deps.size() == b.deps.size());
  for (size_t i = 0; i < a.deps.size(); ++i) {
    CHECK(a.deps[i].path == b.deps[i].path);
    CHECK(a.deps[i].state == b.deps[i].state);
  }
  REQUIRE(a.outputs.size() == b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    const baker::OutputRecord &x = a.outputs[i], &y = b.outputs[i];
    CHECK(x.name == y.name);
    CHECK(x.path == y.path);
    CHECK(x.type == y.type);
    CHECK(x.hash == y.hash);
    CHECK(x.size == y.size);
    CHECK(x.mtime_ns == y.mtime_ns);
    CHECK(x.raw_size == y.raw_size);
  }
}

struct Output {
  test::TempDir dir;
  baker::OutputTree tree;
  Output() {
    baker::BakeStatus s = baker::OutputTree::open(dir.path() / "out", tree);
    INFO(s.message());
    REQUIRE(s.ok());
  }
  fs::path cache_path() const { return tree.root() / baker::kCacheFileName; }
  void save(const BakeCache& cache) const {
    baker::BakeStatus s = baker::save_cache(tree, cache);
    INFO(s.message());
    REQUIRE(s.ok());
  }
  json read_json() const {
    std::ifstream in(cache_path());
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
  }
  void write_text(const std::string& text) const {
    std::ofstream(cache_path(), std::ios::binary) << text;
  }
};

baker::PlannedModel planned_model() {
  baker::PlannedModel model;
  model.read = {{"models/b.obj", "xxh3-64:1111111111111111"},
                {"models/b.mtl", "xxh3-64:2222222222222222"},
                {"models/gone.mtl", baker::kAbsentFile}};
  baker::ImageUse color{"textures/wood.png", baker::TextureRole::Color, {}};
  baker::ImageUse masked{
      "textures/leaf.png",
      baker::TextureRole::Color,
      {assetlib::TextureWrap::ClampToEdge, assetlib::TextureWrap::MirroredRepeat, 0.3f}};
  baker::ImageUse normal{"textures/wood_n.png", baker::TextureRole::Normal, {}};
  model.uses = {color, masked, normal};
  return model;
}

BakeCache one_good_entry() {
  BakeCache cache;
  cache.entries["textures/a.png"] = texture_entry();
  cache.stamps["textures/a.png"] = {10, 20, "xxh3-64:0123456789abcdef"};
  return cache;
}

}  // namespace

TEST_CASE("cache: entries and stamps survive a save and a load", "[cache]") {
  Output out;
  BakeCache cache;
  cache.entries["textures/a.png"] = texture_entry();
  cache.entries["models/b.obj"] = mesh_entry();
  cache.stamps["textures/a.png"] = {18446744073709551615ull, 1700000000123456789ll,
                                    "xxh3-64:0123456789abcdef"};
  cache.stamps["models/b.mtl"] = {0, -1, "xxh3-64:2222222222222222"};
  out.save(cache);
  CHECK(fs::is_regular_file(out.cache_path()));

  BakeCache loaded = baker::load_cache(out.tree);
  REQUIRE(loaded.entries.size() == 2);
  REQUIRE(loaded.entries.count("textures/a.png") == 1);
  REQUIRE(loaded.entries.count("models/b.obj") == 1);
  check_same(loaded.entries["textures/a.png"], cache.entries["textures/a.png"]);
  check_same(loaded.entries["models/b.obj"], cache.entries["models/b.obj"]);
  REQUIRE(loaded.stamps.size() == 2);
  for (const auto& [path, stamp] : cache.stamps) {
    INFO(path);
    REQUIRE(loaded.stamps.count(path) == 1);
    CHECK(loaded.stamps[path].size == stamp.size);
    CHECK(loaded.stamps[path].mtime_ns == stamp.mtime_ns);
    CHECK(loaded.stamps[path].hash == stamp.hash);
  }
}

TEST_CASE("cache: an empty cache round-trips and records the baker version", "[cache]") {
  Output out;
  out.save(BakeCache{});
  CHECK(out.read_json().at("baker_version") == baker::kBakerVersion);
  BakeCache loaded = baker::load_cache(out.tree);
  CHECK(loaded.entries.empty());
  CHECK(loaded.stamps.empty());
}

TEST_CASE("cache: a dependency path that is not UTF-8 reads back as the same bytes", "[cache]") {
  Output out;
  BakeCache cache;
  CacheEntry e = mesh_entry();
  std::string latin1 = "textures/caf\xE9.png";
  e.deps = {{latin1, "texture:color:absent"}};
  cache.entries["models/b.obj"] = e;
  out.save(cache);
  BakeCache loaded = baker::load_cache(out.tree);
  REQUIRE(loaded.entries.count("models/b.obj") == 1);
  REQUIRE(loaded.entries["models/b.obj"].deps.size() == 1);
  CHECK(loaded.entries["models/b.obj"].deps[0].path == latin1);
}

TEST_CASE("cache: a dependency path with an overlong UTF-8 sequence reads back as the same bytes",
          "[cache]") {
  // An overlong "\xC0\xAF" ('/') is not UTF-8: stored as a JSON string, the cache's dump would
  // turn it into U+FFFD and the dependency would no longer match its path on the next run.
  Output out;
  BakeCache cache;
  CacheEntry e = mesh_entry();
  std::string overlong = "textures/a\xC0\xAF.png";
  e.deps = {{overlong, "texture:color:absent"}};
  cache.entries["models/b.obj"] = e;
  out.save(cache);
  BakeCache loaded = baker::load_cache(out.tree);
  REQUIRE(loaded.entries.count("models/b.obj") == 1);
  REQUIRE(loaded.entries["models/b.obj"].deps.size() == 1);
  CHECK(loaded.entries["models/b.obj"].deps[0].path == overlong);
}

TEST_CASE("cache: an output folder without a cache loads an empty cache", "[cache]") {
  Output out;
  BakeCache loaded = baker::load_cache(out.tree);
  CHECK(loaded.entries.empty());
  CHECK(loaded.stamps.empty());
}

TEST_CASE("cache: a cache that is not JSON or not an object loads empty", "[cache]") {
  Output out;
  for (const char* text : {"", "garbage", "{\"baker_version\": 1, \"entries\": {", "[]", "null",
                           "1", "\"text\"", "{}"}) {
    INFO(text);
    out.write_text(text);
    BakeCache loaded = baker::load_cache(out.tree);
    CHECK(loaded.entries.empty());
    CHECK(loaded.stamps.empty());
  }
}

TEST_CASE("cache: a cache of another baker version loads empty", "[cache]") {
  Output out;
  out.save(one_good_entry());
  REQUIRE(baker::load_cache(out.tree).entries.size() == 1);  // the unedited file loads
  json doc = out.read_json();
  for (json version : {json(baker::kBakerVersion + 1), json(0),
                       json(std::to_string(baker::kBakerVersion)), json(nullptr)}) {
    INFO(version.dump());
    doc["baker_version"] = version;
    out.write_text(doc.dump());
    BakeCache loaded = baker::load_cache(out.tree);
    CHECK(loaded.entries.empty());
    CHECK(loaded.stamps.empty());
  }
}

TEST_CASE("cache: a field of the wrong type anywhere makes the whole cache empty, not a throw",
          "[cache]") {
  Output out;
  BakeCache cache = one_good_entry();
  cache.entries["models/b.obj"] = mesh_entry();
  cache.planned["models/b.obj"] = planned_model();
  out.save(cache);
  const json good = out.read_json();
  REQUIRE(baker::load_cache(out.tree).entries.size() == 2);
  REQUIRE(baker::load_cache(out.tree).planned.size() == 1);

  auto edited = [&](auto edit) {
    json doc = good;
    edit(doc);
    out.write_text(doc.dump());
    BakeCache loaded;
    REQUIRE_NOTHROW(loaded = baker::load_cache(out.tree));
    return loaded.entries.empty() && loaded.stamps.empty();
  };
  CHECK(edited([](json& d) { d["entries"]["models/b.obj"]["outputs"][1]["size"] = "42"; }));
  CHECK(edited([](json& d) { d["entries"]["models/b.obj"]["outputs"][0].erase("name"); }));
  CHECK(edited([](json& d) { d["entries"]["models/b.obj"]["outputs"] = "models/b.mesh"; }));
  CHECK(edited([](json& d) { d["entries"]["models/b.obj"]["kind"] = 3; }));
  CHECK(edited([](json& d) { d["entries"]["models/b.obj"].erase("source_hash"); }));
  CHECK(edited([](json& d) { d["entries"]["models/b.obj"]["deps"] = "models/b.mtl"; }));
  CHECK(edited(
      [](json& d) { d["entries"]["models/b.obj"]["deps"][0] = json::array({"only-a-path"}); }));
  CHECK(edited([](json& d) { d["entries"]["models/b.obj"] = json::array(); }));
  CHECK(edited([](json& d) { d["entries"] = 3; }));
  CHECK(edited([](json& d) { d.erase("entries"); }));
  CHECK(edited([](json& d) { d["stamps"]["textures/a.png"] = {10, 20}; }));
  CHECK(edited([](json& d) { d["stamps"]["textures/a.png"] = {"10", 20, "h"}; }));
  CHECK(edited([](json& d) { d["stamps"]["textures/a.png"] = json::object(); }));
  CHECK(edited([](json& d) { d.erase("stamps"); }));
  CHECK(edited([](json& d) { d["planned"]["models/b.obj"]["read"] = "models/b.obj"; }));
  CHECK(edited([](json& d) { d["planned"]["models/b.obj"]["read"][0] = {"models/b.obj"}; }));
  CHECK(edited([](json& d) { d["planned"]["models/b.obj"]["uses"][0][1] = 3; }));
  CHECK(edited([](json& d) { d["planned"]["models/b.obj"]["uses"][1][4] = "0.3"; }));
  CHECK(edited([](json& d) { d["planned"]["models/b.obj"].erase("uses"); }));
  CHECK(edited([](json& d) { d["planned"] = 3; }));
}

TEST_CASE("cache: entries with unsafe paths or a non-baked output are dropped, the rest kept",
          "[cache]") {
  Output out;
  BakeCache cache = one_good_entry();
  auto with_output = [](std::string output) {
    CacheEntry e = texture_entry();
    e.outputs[1].path = std::move(output);  // one unsafe output condemns the entry
    return e;
  };
  cache.entries["../outside.png"] = texture_entry();
  cache.entries["/etc/abs.png"] = texture_entry();
  cache.entries["b.png"] = with_output("../../victim.tx");
  cache.entries["c.png"] = with_output("/tmp/victim.tx");
  cache.entries["d.png"] = with_output("important.txt");
  cache.entries["e.png"] = with_output("C:/victim.tx");
  cache.entries["f.png"] = with_output("a/./f.tx");
  cache.entries["g.obj"] = with_output("models/g.mesh");
  cache.entries["h.obj"] = with_output("models/h.obj.parts/0.mat");
  CacheEntry none = texture_entry();
  none.outputs.clear();
  cache.entries["i.png"] = none;
  out.save(cache);
  BakeCache loaded = baker::load_cache(out.tree);
  CHECK(loaded.entries.size() == 3);
  CHECK(loaded.entries.count("textures/a.png") == 1);
  CHECK(loaded.entries.count("g.obj") == 1);
  CHECK(loaded.entries.count("h.obj") == 1);
  CHECK(loaded.stamps.size() == 1);
}

TEST_CASE("cache: a cache file that is a symlink is not followed", "[cache]") {
  Output out;
  out.save(one_good_entry());
  REQUIRE(baker::load_cache(out.tree).entries.size() == 1);
  fs::path elsewhere = out.dir.path() / "planted.json";
  fs::rename(out.cache_path(), elsewhere);
  fs::create_symlink(elsewhere, out.cache_path());
  CHECK(baker::load_cache(out.tree).entries.empty());
}

TEST_CASE("cache: the texture plan's records survive a save and a load", "[cache]") {
  Output out;
  BakeCache cache = one_good_entry();
  cache.planned["models/b.obj"] = planned_model();
  cache.planned["models/empty.gltf"] = {{{"models/empty.gltf", "xxh3-64:3333333333333333"}}, {}};
  out.save(cache);
  std::string problem;
  BakeCache loaded = baker::load_cache(out.tree, &problem);
  CHECK(problem.empty());
  CHECK(loaded.planned == cache.planned);
  REQUIRE(loaded.planned.count("models/b.obj") == 1);
  CHECK(loaded.planned["models/b.obj"].uses[1].sampling.alpha_cutoff == 0.3f);
}

TEST_CASE("cache: plan records naming unsafe paths or unknown values are dropped, the rest kept",
          "[cache]") {
  Output out;
  BakeCache cache = one_good_entry();
  cache.planned["models/b.obj"] = planned_model();
  out.save(cache);
  json doc = out.read_json();
  json good = doc["planned"]["models/b.obj"];
  auto planted = [&](const char* source, const std::string& pointer, json value) {
    json record = good;
    record[json::json_pointer(pointer)] = std::move(value);
    doc["planned"][source] = record;
  };
  doc["planned"]["../up.obj"] = good;
  planted("a.obj", "/read/1/0", "../../etc/passwd");
  planted("c.obj", "/uses/0/0", "/etc/shadow.png");
  planted("d.obj", "/uses/0/1", "auto");
  planted("e.obj", "/uses/0/1", "sideways");
  planted("f.obj", "/uses/1/2", "bounce");
  planted("g.obj", "/uses/1/4", 1.5);
  out.write_text(doc.dump());
  std::string problem;
  BakeCache loaded = baker::load_cache(out.tree, &problem);
  CHECK(loaded.planned.size() == 1);
  CHECK(loaded.planned.count("models/b.obj") == 1);
  CHECK(loaded.entries.size() == 1);
  CHECK(problem.find("7 texture plan records") != std::string::npos);
}

TEST_CASE("cache: a run that found the cache's contents again leaves it unwritten", "[cache]") {
  const int64_t start = 1'800'000'000'000'000'000;
  BakeCache previous = one_good_entry();
  previous.planned["models/b.obj"] = planned_model();
  previous.run_started_ns = start;
  previous.entries["textures/a.png"].outputs[0].mtime_ns = start - 5'000'000'000;
  previous.entries["textures/a.png"].outputs[1].mtime_ns = start - 6'000'000'000;
  previous.stamps["textures/a.png"].mtime_ns = start - 7'000'000'000;
  BakeCache next = previous;
  next.run_started_ns = next.indexed_ns = start + 9'000'000'000;
  CHECK(baker::cache_unchanged(next, previous));
  // Anything recorded differently is written.
  BakeCache changed = next;
  changed.stamps["textures/b.png"] = {1, 2, "xxh3-64:5555555555555555"};
  CHECK_FALSE(baker::cache_unchanged(changed, previous));
  changed = next;
  changed.planned["models/b.obj"].uses.pop_back();
  CHECK_FALSE(baker::cache_unchanged(changed, previous));
  changed = next;
  changed.entries["textures/a.png"].warnings.push_back("new");
  CHECK_FALSE(baker::cache_unchanged(changed, previous));
  changed = next;
  changed.shard = baker::Shard{0, 2};
  CHECK_FALSE(baker::cache_unchanged(changed, previous));
  // So is a cache whose stamps or outputs are too recent to trust against the old start: written
  // with the new one, the next run need not hash those files again.
  changed = next;
  changed.stamps["textures/a.png"].mtime_ns = previous.stamps["textures/a.png"].mtime_ns =
      start - 1'000'000'000;
  CHECK_FALSE(baker::cache_unchanged(changed, previous));
  changed = next;
  changed.entries["textures/a.png"].outputs[1].mtime_ns =
      previous.entries["textures/a.png"].outputs[1].mtime_ns = start + 1;
  CHECK_FALSE(baker::cache_unchanged(changed, previous));
  // A cache that was never read (missing or damaged) is always written.
  CHECK_FALSE(baker::cache_unchanged(BakeCache{}, BakeCache{}));
}
