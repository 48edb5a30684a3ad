#include "pipeline/bake_cache.h"

#include "pipeline/side_files.h"

#include "common/asset_kinds.h"
#include "common/source_paths.h"

#include <assetlib/asset_file.h>
#include <assetlib/manifest.h>
#include <assetlib/material_asset.h>

#include <nlohmann/json.hpp>

#include <algorithm>

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

json output_to_json(const OutputRecord& o) {
  return {{"name", o.name}, {"path", o.path},         {"type", o.type},        {"hash", o.hash},
          {"size", o.size}, {"mtime_ns", o.mtime_ns}, {"raw_size", o.raw_size}};
}

OutputRecord output_from_json(const json& j) {
  return {j.at("name").get<std::string>(), j.at("path").get<std::string>(),
          j.at("type").get<std::string>(), j.at("hash").get<std::string>(),
          j.at("size").get<uint64_t>(),    j.at("mtime_ns").get<int64_t>(),
          j.at("raw_size").get<uint64_t>()};
}

json entry_to_json(const CacheEntry& e) {
  json deps = json::array(), outputs = json::array();
  for (const Dependency& d : e.deps) deps.push_back({path_to_json(d.path), d.state});
  for (const OutputRecord& o : e.outputs) outputs.push_back(output_to_json(o));
  return {{"kind", e.kind}, {"settings", e.settings}, {"source_hash", e.source_hash},
          {"deps", deps},   {"outputs", outputs},     {"warnings", e.warnings}};
}

CacheEntry entry_from_json(const json& j) {
  CacheEntry e;
  e.kind = j.at("kind").get<std::string>();
  e.settings = j.at("settings").get<std::string>();
  e.source_hash = j.at("source_hash").get<std::string>();
  for (const json& d : j.at("deps"))
    e.deps.push_back({path_from_json(d.at(0)), d.at(1).get<std::string>()});
  for (const json& o : j.at("outputs")) e.outputs.push_back(output_from_json(o));
  e.warnings = j.at("warnings").get<std::vector<std::string>>();
  return e;
}

// [image, role] and the sampling (sampling_to_json).
json use_to_json(const ImageUse& use) {
  json j = {path_to_json(use.image), texture_role_name(use.role)};
  for (const json& value : sampling_to_json(use.sampling)) j.push_back(value);
  return j;
}

// nullopt for a use the baker could not have written: an unsafe path, an unknown role, a
// sampling sampling_from_json refuses.
std::optional<ImageUse> use_from_json(const json& j) {
  std::optional<TextureRole> role = texture_role_from_name(j.at(1).get<std::string>());
  std::optional<SlotSampling> sampling = sampling_from_json(json(j.begin() + 2, j.end()));
  ImageUse use{path_from_json(j.at(0)), TextureRole::Color, {}};
  if (!role || *role == TextureRole::Auto || !sampling ||
      !assetlib::is_safe_relative_path(use.image)) {
    return std::nullopt;
  }
  use.role = *role;
  use.sampling = *sampling;
  return use;
}

json planned_to_json(const PlannedModel& model) {
  json read = json::array(), uses = json::array();
  for (const Dependency& d : model.read) read.push_back({path_to_json(d.path), d.state});
  for (const ImageUse& use : model.uses) uses.push_back(use_to_json(use));
  return {{"read", read}, {"uses", uses}};
}

// nullopt for a record the baker could not have written (unsafe paths, unknown values): the model
// is then read again.
std::optional<PlannedModel> planned_from_json(const std::string& source, const json& j) {
  PlannedModel model;
  bool safe = assetlib::is_safe_relative_path(source);
  for (const json& d : j.at("read")) {
    model.read.push_back({path_from_json(d.at(0)), d.at(1).get<std::string>()});
    safe = safe && assetlib::is_safe_relative_path(model.read.back().path);
  }
  for (const json& u : j.at("uses")) {
    std::optional<ImageUse> use = use_from_json(u);
    if (!use) return std::nullopt;
    model.uses.push_back(std::move(*use));
  }
  if (!safe) return std::nullopt;
  return model;
}

// Only entries the baker could have written: every path inside its root, baked files' names.
bool trustworthy(const std::string& source, const CacheEntry& e) {
  if (!assetlib::is_safe_relative_path(source) || e.outputs.empty()) return false;
  return std::all_of(e.outputs.begin(), e.outputs.end(), [](const OutputRecord& o) {
    // Never under the baker's own names: "manifest.json/x.tx" would make the manifest a folder.
    return assetlib::is_safe_relative_path(o.path) &&
           is_output_extension(lower_extension(o.path)) && !is_baker_file(o.path);
  });
}

}  // namespace

BakeCache load_cache(const OutputTree& output, std::string* problem) {
  std::string ignored;
  std::string& why = problem ? *problem : ignored;
  why.clear();
  std::optional<std::string> text = output.read_file(kCacheFileName, kMaxCacheBytes);
  if (!text) {
    why = "missing, unreadable or over " + std::to_string(kMaxCacheBytes >> 20) + " MiB";
    return {};
  }
  json doc = json::parse(*text, nullptr, false);
  BakeCache cache;
  // A damaged cache only costs a full rebake, so any problem means "start empty".
  try {
    if (doc.is_discarded()) {
      why = "not JSON (damaged)";
      return {};
    }
    if (doc.at("baker_version").get<uint32_t>() != kBakerVersion) {
      why = "written by another baker version (cache version " + doc.at("baker_version").dump() +
            ", this baker " + std::to_string(kBakerVersion) + ")";
      return {};
    }
    size_t dropped = 0;
    for (auto& [source, entry] : doc.at("entries").items()) {
      CacheEntry e = entry_from_json(entry);
      if (trustworthy(source, e))
        cache.entries[source] = std::move(e);
      else
        ++dropped;
    }
    for (auto& [path, s] : doc.at("stamps").items()) {
      cache.stamps[path] = {s.at(0).get<uint64_t>(), s.at(1).get<int64_t>(),
                            s.at(2).get<std::string>()};
    }
    size_t dropped_plans = 0;
    if (doc.contains("planned")) {
      for (auto& [source, record] : doc.at("planned").items()) {
        std::optional<PlannedModel> model = planned_from_json(source, record);
        if (model)
          cache.planned[source] = std::move(*model);
        else
          ++dropped_plans;
      }
    }
    cache.run_started_ns = doc.value("run_started_ns", int64_t(0));
    cache.indexed_ns = doc.value("indexed_ns", cache.run_started_ns);
    if (doc.contains("shard")) {
      const json& shard = doc.at("shard");
      cache.shard = Shard{shard.at(0).get<uint32_t>() - 1, shard.at(1).get<uint32_t>()};
      if (cache.shard->count == 0 || cache.shard->index >= cache.shard->count)
        throw json::other_error::create(501, "shard K/N out of range", nullptr);
    }
    if (doc.contains("shard_plan")) cache.shard_plan = doc.at("shard_plan").get<uint64_t>();
    if (dropped > 0) {
      why = std::to_string(dropped) +
            " entries name paths outside the folder or files that are not baked assets";
    }
    if (dropped_plans > 0) {
      why += (why.empty() ? "" : "; ") + std::to_string(dropped_plans) +
             " texture plan records name paths outside the folder or unknown roles";
    }
  } catch (const json::exception& e) {
    why = std::string("malformed (") + e.what() + ")";
    return {};
  }
  return cache;
}

json cache_entry_to_json(const CacheEntry& entry) { return entry_to_json(entry); }

CacheEntry cache_entry_from_json(const json& j) { return entry_from_json(j); }

bool trustworthy_entry(const std::string& source, const CacheEntry& entry) {
  return trustworthy(source, entry);
}

json sampling_to_json(const SlotSampling& sampling) {
  json j = {assetlib::texture_wrap_name(sampling.u), assetlib::texture_wrap_name(sampling.v)};
  if (sampling.alpha_cutoff) j.push_back(*sampling.alpha_cutoff);
  return j;
}

std::optional<SlotSampling> sampling_from_json(const json& j) {
  SlotSampling sampling;
  sampling.u = assetlib::texture_wrap_from_name(j.at(0).get<std::string>());
  sampling.v = assetlib::texture_wrap_from_name(j.at(1).get<std::string>());
  if (j.size() > 2) {
    sampling.alpha_cutoff = testable_cutoff(j.at(2).get<double>());
    if (!sampling.alpha_cutoff) return std::nullopt;
  }
  if (sampling.u == assetlib::TextureWrap::Unknown || sampling.v == assetlib::TextureWrap::Unknown)
    return std::nullopt;
  return sampling;
}

bool cache_unchanged(const BakeCache& next, const BakeCache& previous) {
  if (previous.run_started_ns == 0 || next.entries != previous.entries ||
      next.stamps != previous.stamps || next.planned != previous.planned ||
      next.shard != previous.shard || next.shard_plan != previous.shard_plan) {
    return false;
  }
  auto trusted = [&](int64_t mtime_ns) { return stamp_trusted(previous, mtime_ns); };
  for (const auto& [path, stamp] : next.stamps) {
    if (!trusted(stamp.mtime_ns)) return false;
  }
  for (const auto& [source, entry] : next.entries) {
    for (const OutputRecord& o : entry.outputs) {
      if (!trusted(o.mtime_ns)) return false;
    }
  }
  return true;
}

BakeStatus save_cache(const OutputTree& output, const BakeCache& cache) {
  json entries = json::object(), stamps = json::object();
  for (const auto& [source, e] : cache.entries) entries[source] = entry_to_json(e);
  for (const auto& [path, s] : cache.stamps) stamps[path] = {s.size, s.mtime_ns, s.hash};
  json planned = json::object();
  for (const auto& [source, model] : cache.planned) planned[source] = planned_to_json(model);
  json doc = {{"baker_version", kBakerVersion},
              {"run_started_ns", cache.run_started_ns},
              {"indexed_ns", cache.indexed_ns},
              {"entries", entries},
              {"stamps", stamps},
              {"planned", planned}};
  if (cache.shard) doc["shard"] = {cache.shard->index + 1, cache.shard->count};
  if (cache.shard_plan) doc["shard_plan"] = *cache.shard_plan;
  std::string text = doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  return output.write(kCacheFileName, parts);
}

}  // namespace baker
