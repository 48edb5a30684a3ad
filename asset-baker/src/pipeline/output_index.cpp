#include "pipeline/output_index.h"

#include "pipeline/bake_job.h"

#include <assetlib/limits.h>
#include <assetlib/manifest.h>

#include <set>

namespace baker {

BakeStatus check_manifest_replaceable(const OutputTree& output) {
  if (!output.file_stat("manifest.json") || output.file_stat(kCacheFileName)) return {};
  std::optional<std::string> text = output.read_file("manifest.json", assetlib::kMaxManifestSize);
  assetlib::Manifest manifest;
  if (text && assetlib::read_manifest(*text, manifest)) return {};
  return BakeStatus::failure(BakeError::Config, (output.root() / "manifest.json").string(),
                             "is not an assetlib manifest, and no bake wrote this folder: not "
                             "replaced; bake into another folder, or move the file away");
}

bool outputs_hold(const OutputTree& output, const BakeCache& previous, CacheEntry& entry) {
  for (OutputRecord& record : entry.outputs) {
    std::optional<FileStat> now = output.file_stat(record.path);
    if (!now || now->size != record.size) return false;
    bool same_stamp = now->mtime_ns == record.mtime_ns && stamp_trusted(previous, record.mtime_ns);
    if (!same_stamp && output.file_hash(record.path) != record.hash) return false;
    record.mtime_ns = now->mtime_ns;
  }
  return true;
}

namespace {

// Whether a file at `path` stands where one of `files` goes: in a folder so named, or on its way.
bool in_the_way(const std::string& path, const std::set<std::string>& files) {
  const std::string folder = path + "/";
  auto inside = files.lower_bound(folder);
  if (inside != files.end() && inside->rfind(folder, 0) == 0) return true;
  for (size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1))
    if (files.count(path.substr(0, slash))) return true;
  return false;
}

}  // namespace

std::set<std::string> clear_way_for_files(const OutputTree& output, const BakeCache& previous,
                                          const std::set<std::string>& incoming, size_t& removed,
                                          std::vector<std::string>& kept) {
  std::set<std::string> cleared;
  for (const auto& [source, entry] : previous.entries) {
    for (const OutputRecord& o : entry.outputs) {
      if (incoming.count(o.path) || !in_the_way(o.path, incoming)) continue;
      cleared.insert(o.path);
      OutputTree::Removal removal = output.remove_if_unchanged(o.path, o.hash);
      removed += removal == OutputTree::Removal::Removed;
      if (removal == OutputTree::Removal::Kept) kept.push_back(o.path);
    }
  }
  return cleared;
}

std::set<std::string> held_textures(const BakeCache& cache) {
  std::set<std::string> held;
  for (const auto& [source, entry] : cache.entries) {
    for (const OutputRecord& o : entry.outputs)
      if (o.type == "TEXI") held.insert(o.name);
  }
  return held;
}

std::map<std::string, std::string> unheld_textures(const CacheEntry& entry,
                                                   const std::set<std::string>& held) {
  std::map<std::string, std::string> unheld;  // each once however many slots name it
  for (const Dependency& dep : entry.deps) {
    std::optional<TextureDependency> texture = texture_dependency_of(dep);
    if (texture && texture->name && !held.count(*texture->name))
      unheld.emplace(*texture->name, dep.path);
  }
  return unheld;
}

std::vector<std::string> unheld_texture_warnings(const BakeCache& next) {
  const std::set<std::string> held = held_textures(next);
  std::vector<std::string> warnings;
  for (const auto& [source, entry] : next.entries) {
    const std::map<std::string, std::string> unheld = unheld_textures(entry, held);
    if (unheld.empty()) continue;
    std::string list;
    for (const auto& [name, image] : unheld)
      list += (list.empty() ? "'" : ", '") + name + "' of " + image;
    const bool one = unheld.size() == 1;
    warnings.push_back(source +
                       (one ? ": a material names texture " : ": materials name textures ") + list +
                       (one ? ", which is" : ", which are") +
                       " not baked (excluded, deleted or failed to bake); bake again");
  }
  return warnings;
}

std::string kept_output_warning(const std::string& path) {
  return path +
         ": no source makes it any more, but it no longer holds what the baker wrote (edited "
         "since?): left in place, unlisted (check reports it); remove it if it is not needed";
}

BakeStatus write_index(const OutputTree& output, const BakeCache& previous, const BakeCache& next,
                       size_t& removed, std::vector<std::string>& kept) {
  assetlib::Manifest manifest;
  std::set<std::string> live;
  for (const auto& [source, entry] : next.entries) {
    for (const OutputRecord& o : entry.outputs) {
      manifest.assets.push_back({o.name, o.type, o.path, o.hash, o.size, o.raw_size});
      live.insert(o.path);
    }
  }
  for (const auto& [source, entry] : previous.entries) {
    for (const OutputRecord& o : entry.outputs) {
      if (live.count(o.path)) continue;
      OutputTree::Removal removal = output.remove_if_unchanged(o.path, o.hash);
      removed += removal == OutputTree::Removal::Removed;
      if (removal == OutputTree::Removal::Kept) kept.push_back(o.path);
    }
  }
  if (BakeStatus s = save_cache(output, next); !s) return s;
  std::string text = assetlib::write_manifest(manifest);
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  return output.write("manifest.json", parts);
}

}  // namespace baker
