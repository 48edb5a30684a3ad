#include "cli/commands.h"
#include "cli/pack_magic.h"

#include "cli/texture_level.h"
#include "common/asset_kinds.h"
#include "common/bake_status.h"
#include "common/content_hash.h"
#include "common/mapped_asset.h"
#include "common/mapped_file.h"
#include "common/regular_file.h"
#include "common/source_paths.h"
#include "common/terminal_text.h"
#include "pipeline/source_files.h"

#include "texture/texture_quality.h"

#include <assetlib/clip_asset.h>
#include <assetlib/manifest.h>
#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/pack_file.h>
#include <assetlib/prefab_asset.h>
#include <assetlib/skeleton_asset.h>
#include <assetlib/texture_asset.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

namespace baker {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> baked_files(const fs::path& path) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return {path};
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    std::string ext = it->path().extension().string();
    std::error_code kind;  // no throw, whatever the entry
    const fs::file_status status = it->symlink_status(kind);
    if (fs::is_symlink(status) && is_output_extension(ext)) {
      // What it points to may lie anywhere: the folder is described, not what it links to.
      print_message("warning", it->path().string() + ": a symlink (not followed)");
    } else if (fs::is_regular_file(status) && is_output_extension(ext)) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

json texture_json(const assetlib::TextureInfo& info) {
  json mips = json::array();
  for (const auto& m : info.mips) mips.push_back({m.width, m.height, m.offset, m.size});
  return {{"format", assetlib::texture_format_name(info.format)},
          {"width", info.width},
          {"height", info.height},
          {"mip_count", info.mips.size()},
          {"mips", mips},
          {"chunks", info.chunks.size()},
          {"original_file", info.original_file}};
}

json mesh_json(const assetlib::MeshInfo& info) {
  const auto& b = info.bounds;
  json submeshes = json::array();
  for (const auto& s : info.submeshes) {
    submeshes.push_back({{"first_index", s.first_index},
                         {"index_count", s.index_count},
                         {"material", info.materials[s.material].name}});
  }
  json lods = json::array();
  for (const auto& lod : info.lods) {
    uint32_t count = 0;
    for (const auto& r : lod.submeshes) count += r.index_count;
    lods.push_back({{"triangles", count / 3}, {"error", lod.error}});
  }
  const auto& st = info.stats;
  return {{"vertex_format", assetlib::vertex_format_name(info.vertex_format)},
          {"vertex_count", info.vertex_count},
          {"index_count", info.index_count},
          {"index_size", info.index_size},
          {"triangles", info.index_count / 3},
          {"submeshes", submeshes},
          {"materials", info.materials.size()},
          {"lods", lods},
          {"meshlets", info.meshlet_count},
          {"acmr", {{"before", st.acmr_before}, {"after", st.acmr_after}}},
          {"atvr", {{"before", st.atvr_before}, {"after", st.atvr_after}}},
          {"bounds",
           {{"origin", {b.origin[0], b.origin[1], b.origin[2]}},
            {"extents", {b.extents[0], b.extents[1], b.extents[2]}},
            {"radius", b.radius}}},
          {"skin", info.skin_format == assetlib::SkinFormat::None
                       ? json(nullptr)
                       : json{{"format", assetlib::skin_format_name(info.skin_format)},
                              {"joint_count", info.skin_joint_count},
                              {"skeleton", info.skeleton}}},
          {"original_file", info.original_file}};
}

// The joints are listed by name, parents first (their index is the mesh's joint index).
json skeleton_json(const assetlib::SkeletonInfo& info) {
  json joints = json::array();
  size_t roots = 0;
  for (const assetlib::SkeletonJoint& j : info.joints) {
    joints.push_back({{"name", j.name}, {"parent", j.parent}, {"node", j.node}});
    roots += j.parent < 0;
  }
  return {{"joint_count", info.joints.size()},
          {"roots", roots},
          {"joints", joints},
          {"original_file", info.original_file}};
}

json clip_json(const assetlib::ClipInfo& info) {
  json paths = json::object(), interpolations = json::object();
  uint64_t keys = 0;
  for (const assetlib::ClipChannel& c : info.channels) {
    const char* path = assetlib::clip_path_name(c.path);
    const char* interpolation = assetlib::clip_interpolation_name(c.interpolation);
    paths[path] = paths.value(path, 0) + 1;
    interpolations[interpolation] = interpolations.value(interpolation, 0) + 1;
    keys += c.key_count;
  }
  return {{"name", info.name},
          {"duration", info.duration},
          {"channel_count", info.channels.size()},
          {"channels_by_path", paths},
          {"channels_by_interpolation", interpolations},
          {"keys", keys},
          {"original_file", info.original_file}};
}

// PSNR of level 0 against the source named by original_file under `sources` (when given). Only
// level 0 is unpacked. original_file comes from the file: used only when it is a safe relative
// path.
void add_psnr(const assetlib::AssetView& file, const assetlib::TextureInfo& info,
              const fs::path& sources, json& out) {
  if (sources.empty() || !assetlib::is_safe_relative_path(info.original_file)) return;
  // Read as the baker reads sources: never through a symlink that leads out of the folder.
  std::optional<fs::path> file_path = inside_root(sources, info.original_file);
  std::vector<std::byte> source;
  if (!file_path || read_regular_file(*file_path, kMaxSourceBytes, source) != ReadResult::Ok ||
      source.empty())
    return;
  std::vector<std::byte> level0;
  if (!unpack_level(info, file.blob, 0, level0, info.original_file)) return;
  std::optional<double> psnr = texture_psnr(info, level0, source);
  if (psnr) out["psnr_db"] = std::isinf(*psnr) ? 999.0 : std::round(*psnr * 100) / 100;
}

json material_json(const assetlib::MaterialInfo& m) {
  json textures = json::object();
  const std::pair<const char*, const assetlib::TextureSlot*> slots[] = {
      {"base_color", &m.base_color},
      {"metallic_roughness", &m.metallic_roughness},
      {"normal", &m.normal},
      {"occlusion", &m.occlusion},
      {"emissive", &m.emissive}};
  for (const auto& [slot, t] : slots) {
    if (!t->texture.empty()) textures[slot] = {{"texture", t->texture}, {"uv_set", t->uv_set}};
  }
  const float* c = m.base_color_factor;
  return {{"name", m.name},
          {"base_color_factor", {c[0], c[1], c[2], c[3]}},
          {"metallic_factor", m.metallic_factor},
          {"roughness_factor", m.roughness_factor},
          {"alpha_mode", assetlib::alpha_mode_name(m.alpha_mode)},
          {"double_sided", m.double_sided},
          {"unlit", m.unlit},
          {"textures", textures},
          {"original_file", m.original_file}};
}

json prefab_json(const assetlib::PrefabInfo& p) {
  std::set<std::string> meshes, materials, skins;
  size_t roots = 0, instances = 0;
  for (const assetlib::PrefabNode& n : p.nodes) {
    if (!n.mesh.empty()) meshes.insert(n.mesh);
    if (!n.skin.empty()) skins.insert(n.skin);
    materials.insert(n.materials.begin(), n.materials.end());
    roots += n.parent < 0;
    instances += n.instances.size();
  }
  return {{"nodes", p.nodes.size()},
          {"roots", roots},
          {"meshes", meshes.size()},
          {"materials", materials.size()},
          {"cameras", p.cameras.size()},
          {"lights", p.lights.size()},
          {"instances", instances},
          {"skins", skins.size()},
          {"clips", p.clips},
          {"original_file", p.original_file}};
}

const char* codec(assetlib::Compression c) {
  switch (c) {
    case assetlib::Compression::LZ4: return "LZ4";
    case assetlib::Compression::LegacyLZ4: return "LZ4, one block";
    case assetlib::Compression::None: break;
  }
  return "None";
}

// The description of one loaded file by its type; `raw` gets its unpacked size.
assetlib::Status describe_asset(const assetlib::AssetView& file, const fs::path& sources, json& out,
                                uint64_t& raw) {
  assetlib::Status s;
  if (assetlib::has_type(file, "TEXI")) {
    assetlib::TextureInfo info;
    if (!(s = assetlib::read_texture_info(file, info))) return s;
    out["texture"] = texture_json(info);
    add_psnr(file, info, sources, out["texture"]);
    out["compression"] = codec(info.compression);
    out["legacy"] = info.legacy;
    raw = info.total_size;
  } else if (assetlib::has_type(file, "MATL") || assetlib::has_type(file, "MATX")) {
    assetlib::MaterialInfo info;
    if (!(s = assetlib::read_material_info(file, info))) return s;
    out["material"] = material_json(info);
    out["compression"] = "None";
    out["legacy"] = info.legacy;
  } else if (assetlib::has_type(file, "PRFB")) {
    assetlib::PrefabInfo info;
    if (!(s = assetlib::read_prefab_info(file, info))) return s;
    out["prefab"] = prefab_json(info);
    out["compression"] = "None";
    out["legacy"] = info.legacy;
  } else if (assetlib::has_type(file, "SKEL")) {
    assetlib::SkeletonInfo info;
    if (!(s = assetlib::read_skeleton_info(file, info))) return s;
    out["skeleton"] = skeleton_json(info);
    out["compression"] = "None";
  } else if (assetlib::has_type(file, "CLIP")) {
    assetlib::ClipInfo info;
    if (!(s = assetlib::read_clip_info(file, info))) return s;
    out["clip"] = clip_json(info);
    out["compression"] = codec(info.compression);
    raw = assetlib::clip_unpacked_size(info);
  } else {
    assetlib::MeshInfo info;
    if (!(s = assetlib::read_mesh_info(file, info))) return s;
    out["mesh"] = mesh_json(info);
    out["compression"] = codec(info.compression);
    out["legacy"] = info.legacy;
    raw = assetlib::mesh_unpacked_size(info);
  }
  return s;
}

// Describes one asset already split into header, JSON and blob: `out` gets its header fields and
// its description (or "error", the reason without `label`, which names it).
bool describe_view(const assetlib::AssetView& file, const std::string& label,
                   const fs::path& sources, json& out, uint64_t& raw) {
  out["type"] = std::string(file.type, 4);
  out["version"] = file.version;
  out["json_bytes"] = file.json.size();
  out["blob_bytes"] = file.blob.size();
  out["file_bytes"] = 16 + file.json.size() + file.blob.size();
  if (assetlib::Status s = describe_asset(file, sources, out, raw); !s) {
    out["error"] = BakeStatus::from_memory_call(s, BakeError::InvalidAsset, label).reason;
    return false;
  }
  out["unpacked_bytes"] = raw;
  return true;
}

// Describes one file; `raw` gets its unpacked size. Returns false (with "error" set, the reason
// without the file, which is printed beside it) on a bad file.
bool describe_throwing(const fs::path& path, const fs::path& sources, json& out, uint64_t& raw) {
  MappedAsset asset;
  out["file"] = path.string();
  out["unpacked_bytes"] = raw = 0;
  if (BakeStatus s = map_asset(path, asset); !s) {
    out["error"] = s.reason;
    return false;
  }
  return describe_view(asset.view, path.string(), sources, out, raw);
}

// `describe`, running out of memory reported as the error of the record `identity` starts.
template <typename Describe>
bool guarded_describe(const json& identity, json& out, uint64_t& raw, Describe&& describe) {
  const char* what = nullptr;
  try {
    return describe();
  } catch (const std::bad_alloc&) {
    what = "out of memory (std::bad_alloc)";
  } catch (const std::length_error&) {
    what = "out of memory (std::length_error)";
  }
  out = identity;
  out["error"] = what;
  out["unpacked_bytes"] = 0;
  raw = 0;
  return false;
}

// describe_throwing, with running out of memory reported as this file's error.
bool describe(const fs::path& path, const fs::path& sources, json& out, uint64_t& raw) {
  return guarded_describe(json{{"file", path.string()}}, out, raw,
                          [&] { return describe_throwing(path, sources, out, raw); });
}

// One pack entry: where it lies and what the table says, then the asset as for a file.
bool describe_entry(const fs::path& pack_path, const assetlib::PackView& pack, size_t index,
                    const fs::path& sources, json& out, uint64_t& raw) {
  assetlib::PackEntry e = assetlib::pack_entry(pack, index);
  json identity = {{"file", pack_path.string()}, {"entry", std::string(e.name)}};
  return guarded_describe(identity, out, raw, [&] {
    out = identity;
    out["entry_type"] = std::string(e.type, 4);
    out["offset"] = e.offset;
    out["hash"] = hash_string(e.hash);
    out["raw_size"] = e.raw_size;
    out["unpacked_bytes"] = raw = 0;
    std::string label = pack_path.string() + ": " + std::string(e.name);
    assetlib::AssetView view;
    if (assetlib::Status s = assetlib::read_pack_asset(pack, e, view, pack_path.string()); !s) {
      out["error"] = BakeStatus::from_file_call(s, BakeError::InvalidAsset, label).reason;
      return false;
    }
    return describe_view(view, label, sources, out, raw);
  });
}

// "baked/a.tx", or "game.pack: textures/a.png" for a pack entry.
std::string label_of(const json& d) {
  std::string label = d["file"].get<std::string>();
  if (d.contains("entry")) label += ": " + d["entry"].get<std::string>();
  return label;
}

// "24 joints (1 root): _rootJoint, b_Root_00, b_Hip_01, ... (21 more)"; "#3" for an unnamed joint.
void print_skeleton(const json& k) {
  const json& joints = k["joints"];
  std::string names;
  const size_t shown = std::min<size_t>(joints.size(), 6);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) names += ", ";
    std::string name = joints[i]["name"].get<std::string>();
    if (name.empty()) {  // an unnamed joint by its index (+=: GCC 12 warns falsely on "#" + ...)
      names += "#";
      name = std::to_string(i);
    }
    names += name;
  }
  if (joints.size() > shown) names += ", ... (" + std::to_string(joints.size() - shown) + " more)";
  std::printf("  skeleton, %zu joints (%zu roots): %s; from %s\n", k["joint_count"].get<size_t>(),
              k["roots"].get<size_t>(), names.c_str(),
              k["original_file"].get<std::string>().c_str());
}

void print_clip(const json& c) {
  std::string paths;
  for (const auto& [path, count] : c["channels_by_path"].items())
    paths += (paths.empty() ? "" : ", ") + path + " " + std::to_string(count.get<size_t>());
  std::string interpolations;
  for (const auto& [name, count] : c["channels_by_interpolation"].items()) {
    interpolations +=
        (interpolations.empty() ? "" : ", ") + name + " " + std::to_string(count.get<size_t>());
  }
  std::printf("  clip '%s', %.3f s, %zu channels (%s; %s), %llu keys, from %s\n",
              c["name"].get<std::string>().c_str(), c["duration"].get<double>(),
              c["channel_count"].get<size_t>(), paths.empty() ? "none" : paths.c_str(),
              interpolations.empty() ? "-" : interpolations.c_str(),
              (unsigned long long)c["keys"].get<uint64_t>(),
              c["original_file"].get<std::string>().c_str());
}

// `j` with every string, keys included, through terminal_text: the names in a baked file come from
// sources others wrote.
json for_terminal(const json& j) {
  if (j.is_string()) return terminal_text(j.get<std::string>());
  if (j.is_array()) {
    json out = json::array();
    for (const json& item : j) out.push_back(for_terminal(item));
    return out;
  }
  if (!j.is_object()) return j;
  json out = json::object();
  for (const auto& [key, value] : j.items()) out[terminal_text(key)] = for_terminal(value);
  return out;
}

void print_text(const json& described) {
  const json d = for_terminal(described);
  if (d.contains("error")) {
    std::fflush(stdout);  // in order with the files before it when both go to one place
    std::fprintf(stderr, "%s: error: %s\n", label_of(d).c_str(),
                 d["error"].get<std::string>().c_str());
    return;
  }
  uint64_t file = d["file_bytes"], raw = d["unpacked_bytes"];
  std::printf("%s\n", label_of(d).c_str());
  if (d.contains("entry")) {
    std::printf("  entry at offset %llu, %llu B, raw %llu B, %s\n",
                (unsigned long long)d["offset"].get<uint64_t>(),
                (unsigned long long)d["file_bytes"].get<uint64_t>(),
                (unsigned long long)d["raw_size"].get<uint64_t>(),
                d["hash"].get<std::string>().c_str());
  }
  std::printf("  %s v%u, json %llu B, blob %llu B (%s), unpacked %llu B, ratio %.2f\n",
              d["type"].get<std::string>().c_str(), d["version"].get<unsigned>(),
              (unsigned long long)d["json_bytes"].get<uint64_t>(),
              (unsigned long long)d["blob_bytes"].get<uint64_t>(),
              d["compression"].get<std::string>().c_str(), (unsigned long long)raw,
              file ? double(raw) / double(file) : 0.0);
  if (d.value("legacy", false))
    std::printf("  legacy vkguide file: read-only, rebake its source to get this format\n");
  if (d.contains("texture")) {
    const json& t = d["texture"];
    std::printf("  texture %s %ux%u, %zu mips, %zu chunks, from %s",
                t["format"].get<std::string>().c_str(), t["width"].get<unsigned>(),
                t["height"].get<unsigned>(), t["mip_count"].get<size_t>(),
                t["chunks"].get<size_t>(), t["original_file"].get<std::string>().c_str());
    if (t.contains("psnr_db")) std::printf(", PSNR %.2f dB", t["psnr_db"].get<double>());
    std::printf("\n");
  } else if (d.contains("material")) {
    const json& m = d["material"];
    std::string slots;
    for (auto& [slot, t] : m["textures"].items()) slots += " " + slot;
    std::printf("  material '%s', %s%s, textures:%s, from %s\n",
                m["name"].get<std::string>().c_str(), m["alpha_mode"].get<std::string>().c_str(),
                m["double_sided"].get<bool>() ? ", double-sided" : "",
                slots.empty() ? " none" : slots.c_str(),
                m["original_file"].get<std::string>().c_str());
  } else if (d.contains("prefab")) {
    const json& p = d["prefab"];
    std::printf(
        "  prefab, %zu nodes (%zu roots), %zu meshes, %zu materials, %zu cameras, %zu lights,"
        " %zu instances, from %s\n",
        p["nodes"].get<size_t>(), p["roots"].get<size_t>(), p["meshes"].get<size_t>(),
        p["materials"].get<size_t>(), p["cameras"].get<size_t>(), p["lights"].get<size_t>(),
        p["instances"].get<size_t>(), p["original_file"].get<std::string>().c_str());
    if (p["skins"].get<size_t>() > 0 || !p["clips"].empty()) {
      std::string clips;
      for (const json& c : p["clips"]) clips += (clips.empty() ? "" : ", ") + c.get<std::string>();
      std::printf("  %zu skins, %zu clips%s%s\n", p["skins"].get<size_t>(), p["clips"].size(),
                  clips.empty() ? "" : ": ", clips.c_str());
    }
  } else if (d.contains("skeleton")) {
    print_skeleton(d["skeleton"]);
  } else if (d.contains("clip")) {
    print_clip(d["clip"]);
  } else {
    const json& m = d["mesh"];
    std::printf(
        "  mesh %s, %u vertices, %u triangles, %u-bit indices, %zu submeshes, %zu LODs, %u "
        "meshlets, "
        "radius %.3f, from %s\n",
        m["vertex_format"].get<std::string>().c_str(), m["vertex_count"].get<unsigned>(),
        m["triangles"].get<unsigned>(), m["index_size"].get<unsigned>() * 8, m["submeshes"].size(),
        m["lods"].size(), m["meshlets"].get<unsigned>(), m["bounds"]["radius"].get<double>(),
        m["original_file"].get<std::string>().c_str());
    if (!m["skin"].is_null()) {
      std::printf("  skin %s, %u joints, skeleton %s\n",
                  m["skin"]["format"].get<std::string>().c_str(),
                  m["skin"]["joint_count"].get<unsigned>(),
                  m["skin"]["skeleton"].get<std::string>().c_str());
    }
    std::printf("  ACMR %.3f -> %.3f, ATVR %.3f -> %.3f", m["acmr"]["before"].get<double>(),
                m["acmr"]["after"].get<double>(), m["atvr"]["before"].get<double>(),
                m["atvr"]["after"].get<double>());
    for (const json& lod : m["lods"]) {
      std::printf("; LOD %u tris (error %.4f)", lod["triangles"].get<unsigned>(),
                  lod["error"].get<double>());
    }
    std::printf("\n");
  }
}

// Prints the records and their totals; the exit code.
int report(const json& files, uint64_t total_file, uint64_t total_raw, bool ok, bool as_json,
           json extra = json::object()) {
  json totals = {
      {"files", files.size()}, {"file_bytes", total_file}, {"unpacked_bytes", total_raw}};
  if (as_json) {
    extra["files"] = files;
    extra["totals"] = totals;
    std::printf("%s\n", extra.dump(2, ' ', false, json::error_handler_t::replace).c_str());
  } else {
    std::printf("total: %zu files, %llu bytes on disk, %llu bytes unpacked\n", files.size(),
                (unsigned long long)total_file, (unsigned long long)total_raw);
  }
  return ok ? 0 : 1;
}

// `info game.pack`: the pack's line, then every entry described as a file is.
int info_pack(const fs::path& path, std::span<const std::byte> bytes, const fs::path& sources,
              bool as_json) {
  assetlib::PackView pack;
  if (assetlib::Status s = assetlib::open_pack(bytes, pack, path.string()); !s) {
    BakeStatus b = BakeStatus::from_file_call(s, BakeError::InvalidAsset, path.string());
    std::fprintf(stderr, "%s: error: %s\n", terminal_text(path.string()).c_str(),
                 terminal_text(b.reason).c_str());
    return 1;
  }
  if (!as_json) {
    std::printf("%s: pack v%u, %u entries, %zu bytes\n", terminal_text(path.string()).c_str(),
                assetlib::kPackVersion, pack.entry_count, bytes.size());
  }
  json files = json::array();
  uint64_t total_file = 0, total_raw = 0;
  bool ok = true;
  for (size_t i = 0; i < pack.entry_count; ++i) {
    json d;
    uint64_t raw = 0;
    ok = describe_entry(path, pack, i, sources, d, raw) && ok;
    if (d.contains("file_bytes")) total_file += d["file_bytes"].get<uint64_t>();
    total_raw += raw;
    if (!as_json) print_text(d);
    files.push_back(std::move(d));
  }
  json pack_json = {{"file", path.string()},
                    {"version", assetlib::kPackVersion},
                    {"entries", pack.entry_count},
                    {"file_bytes", bytes.size()}};
  return report(files, total_file, total_raw, ok, as_json, {{"pack", pack_json}});
}

}  // namespace

int run_info(const fs::path& path, const fs::path& sources, bool as_json) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    MappedFile mapped;
    if (MappedFile::open(path, mapped) && has_pack_magic(mapped.bytes()))
      return info_pack(path, mapped.bytes(), sources, as_json);
  }
  json files = json::array();
  uint64_t total_file = 0, total_raw = 0;
  bool ok = true;
  for (const fs::path& f : baked_files(path)) {
    json d;
    uint64_t raw = 0;
    ok = describe(f, sources, d, raw) && ok;
    if (d.contains("file_bytes")) total_file += d["file_bytes"].get<uint64_t>();
    total_raw += raw;
    if (!as_json) print_text(d);
    files.push_back(std::move(d));
  }
  return report(files, total_file, total_raw, ok, as_json);
}

}  // namespace baker
