#include "bake_cache.h"

#include "source_paths.h"

#include <assetlib/asset_file.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace baker {
namespace {

using nlohmann::json;

// JSON holds only UTF-8, but an .mtl may name a file whose name is not: such a path is stored as
// its bytes, so that it reads back as the same path and the dependency still matches.
json path_to_json(const std::string& path) {
  if (is_utf8(path)) return path;
  return std::vector<uint8_t>(path.begin(), path.end());
}

std::string path_from_json(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  std::vector<uint8_t> bytes = j.get<std::vector<uint8_t>>();
  return std::string(bytes.begin(), bytes.end());
}

json entry_to_json(const CacheEntry& e) {
  json deps = json::array();
  for (const Dependency& d : e.deps) deps.push_back({path_to_json(d.path), d.state});
  return {{"kind", e.kind},           {"output", e.output},           {"settings", e.settings},
          {"source_hash", e.source_hash}, {"deps", deps},              {"type", e.type},
          {"output_hash", e.output_hash}, {"output_size", e.output_size}, {"raw_size", e.raw_size}};
}

CacheEntry entry_from_json(const json& j) {
  CacheEntry e;
  e.kind = j.at("kind").get<std::string>();
  e.output = j.at("output").get<std::string>();
  e.settings = j.at("settings").get<std::string>();
  e.source_hash = j.at("source_hash").get<std::string>();
  for (const json& d : j.at("deps")) e.deps.push_back({path_from_json(d.at(0)), d.at(1).get<std::string>()});
  e.type = j.at("type").get<std::string>();
  e.output_hash = j.at("output_hash").get<std::string>();
  e.output_size = j.at("output_size").get<uint64_t>();
  e.raw_size = j.at("raw_size").get<uint64_t>();
  return e;
}

}  // namespace

BakeCache load_cache(const std::filesystem::path& output_root) {
  std::ifstream in(output_root / kCacheFileName);
  if (!in) return {};
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, false);
  BakeCache cache;
  // A damaged cache only costs a full rebake, so any problem means "start empty".
  try {
    if (doc.is_discarded() || doc.at("baker_version").get<uint32_t>() != kBakerVersion) return {};
    for (auto& [source, entry] : doc.at("entries").items()) cache.entries[source] = entry_from_json(entry);
    for (auto& [path, s] : doc.at("stamps").items()) {
      cache.stamps[path] = {s.at(0).get<uint64_t>(), s.at(1).get<int64_t>(), s.at(2).get<std::string>()};
    }
  } catch (const json::exception&) {
    return {};
  }
  return cache;
}

assetlib::Status save_cache(const std::filesystem::path& output_root, const BakeCache& cache) {
  json entries = json::object(), stamps = json::object();
  for (const auto& [source, e] : cache.entries) entries[source] = entry_to_json(e);
  for (const auto& [path, s] : cache.stamps) stamps[path] = {s.size, s.mtime_ns, s.hash};
  json doc = {{"baker_version", kBakerVersion}, {"entries", entries}, {"stamps", stamps}};
  std::string text = doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  return assetlib::write_file_atomically((output_root / kCacheFileName).string(), parts);
}

}  // namespace baker
