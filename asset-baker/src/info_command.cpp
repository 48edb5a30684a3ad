#include "info_command.h"

#include "texture_quality.h"

#include <assetlib/mesh_asset.h>
#include <assetlib/texture_asset.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
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
    if (it->is_regular_file() && (ext == ".tx" || ext == ".mesh")) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

json texture_json(const assetlib::TextureInfo& info) {
  json mips = json::array();
  for (const auto& m : info.mips) mips.push_back({m.width, m.height, m.offset, m.size});
  return {{"format", assetlib::texture_format_name(info.format)}, {"width", info.width}, {"height", info.height},
          {"mip_count", info.mips.size()}, {"mips", mips}, {"chunks", info.chunks.size()},
          {"original_file", info.original_file}};
}

json mesh_json(const assetlib::MeshInfo& info) {
  const auto& b = info.bounds;
  json submeshes = json::array();
  for (const auto& s : info.submeshes) {
    submeshes.push_back({{"first_index", s.first_index}, {"index_count", s.index_count},
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
          {"vertex_count", info.vertex_count}, {"index_count", info.index_count}, {"index_size", info.index_size},
          {"triangles", info.index_count / 3}, {"submeshes", submeshes}, {"materials", info.materials.size()},
          {"lods", lods}, {"meshlets", info.meshlet_count},
          {"acmr", {{"before", st.acmr_before}, {"after", st.acmr_after}}},
          {"atvr", {{"before", st.atvr_before}, {"after", st.atvr_after}}},
          {"bounds", {{"origin", {b.origin[0], b.origin[1], b.origin[2]}},
                      {"extents", {b.extents[0], b.extents[1], b.extents[2]}}, {"radius", b.radius}}},
          {"original_file", info.original_file}};
}

// PSNR of level 0 against the source named by original_file under `sources` (when given).
void add_psnr(const assetlib::AssetFile& file, const assetlib::TextureInfo& info, const fs::path& sources, json& out) {
  if (sources.empty()) return;
  std::ifstream in(sources / info.original_file, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> unpacked(info.total_size);
  if (bytes.empty() ||
      !assetlib::unpack_texture(info, file.blob.data(), file.blob.size(), unpacked.data(), unpacked.size())) {
    return;
  }
  std::optional<double> psnr = texture_psnr(info, unpacked, std::as_bytes(std::span(bytes)));
  if (psnr) out["psnr_db"] = std::isinf(*psnr) ? 999.0 : std::round(*psnr * 100) / 100;
}

// Describes one file; `raw` gets its unpacked size. Returns false (with "error" set) on a bad file.
bool describe(const fs::path& path, const fs::path& sources, json& out, uint64_t& raw) {
  assetlib::AssetFile file;
  out["file"] = path.string();
  assetlib::Status s = assetlib::load_binaryfile(path.string(), file);
  if (s) {
    out["type"] = std::string(file.type, 4);
    out["version"] = file.version;
    out["json_bytes"] = file.json.size();
    out["blob_bytes"] = file.blob.size();
    out["file_bytes"] = 16 + file.json.size() + file.blob.size();
    if (assetlib::has_type(file, "TEXI")) {
      assetlib::TextureInfo info;
      if ((s = assetlib::read_texture_info(file, info))) {
        out["texture"] = texture_json(info);
        add_psnr(file, info, sources, out["texture"]);
        out["compression"] = info.compression == assetlib::Compression::LZ4 ? "LZ4" : "None";
        raw = info.total_size;
      }
    } else {
      assetlib::MeshInfo info;
      if ((s = assetlib::read_mesh_info(file, info))) {
        out["mesh"] = mesh_json(info);
        out["compression"] = info.compression == assetlib::Compression::LZ4 ? "LZ4" : "None";
        raw = assetlib::mesh_unpacked_size(info);
      }
    }
  }
  if (!s) out["error"] = s.message;
  out["unpacked_bytes"] = raw;
  return s.ok();
}

void print_text(const json& d) {
  if (d.contains("error")) {
    std::printf("%s: error: %s\n", d["file"].get<std::string>().c_str(), d["error"].get<std::string>().c_str());
    return;
  }
  uint64_t file = d["file_bytes"], raw = d["unpacked_bytes"];
  std::printf("%s\n  %s v%u, json %llu B, blob %llu B (%s), unpacked %llu B, ratio %.2f\n",
              d["file"].get<std::string>().c_str(), d["type"].get<std::string>().c_str(), d["version"].get<unsigned>(),
              (unsigned long long)d["json_bytes"].get<uint64_t>(), (unsigned long long)d["blob_bytes"].get<uint64_t>(),
              d["compression"].get<std::string>().c_str(), (unsigned long long)raw, file ? double(raw) / double(file) : 0.0);
  if (d.contains("texture")) {
    const json& t = d["texture"];
    std::printf("  texture %s %ux%u, %zu mips, %zu chunks, from %s", t["format"].get<std::string>().c_str(),
                t["width"].get<unsigned>(), t["height"].get<unsigned>(), t["mip_count"].get<size_t>(),
                t["chunks"].get<size_t>(), t["original_file"].get<std::string>().c_str());
    if (t.contains("psnr_db")) std::printf(", PSNR %.2f dB", t["psnr_db"].get<double>());
    std::printf("\n");
  } else {
    const json& m = d["mesh"];
    std::printf("  mesh %s, %u vertices, %u triangles, %u-bit indices, %zu submeshes, %zu LODs, %u meshlets, "
                "radius %.3f, from %s\n",
                m["vertex_format"].get<std::string>().c_str(), m["vertex_count"].get<unsigned>(),
                m["triangles"].get<unsigned>(), m["index_size"].get<unsigned>() * 8, m["submeshes"].size(),
                m["lods"].size(), m["meshlets"].get<unsigned>(), m["bounds"]["radius"].get<double>(),
                m["original_file"].get<std::string>().c_str());
    std::printf("  ACMR %.3f -> %.3f, ATVR %.3f -> %.3f", m["acmr"]["before"].get<double>(),
                m["acmr"]["after"].get<double>(), m["atvr"]["before"].get<double>(), m["atvr"]["after"].get<double>());
    for (const json& lod : m["lods"]) {
      std::printf("; LOD %u tris (error %.4f)", lod["triangles"].get<unsigned>(), lod["error"].get<double>());
    }
    std::printf("\n");
  }
}

}  // namespace

int run_info(const fs::path& path, const fs::path& sources, bool as_json) {
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
  json totals = {{"files", files.size()}, {"file_bytes", total_file}, {"unpacked_bytes", total_raw}};
  if (as_json) {
    std::printf("%s\n", json({{"files", files}, {"totals", totals}}).dump(2, ' ', false, json::error_handler_t::replace).c_str());
  } else {
    std::printf("total: %zu files, %llu bytes on disk, %llu bytes unpacked\n", files.size(),
                (unsigned long long)total_file, (unsigned long long)total_raw);
  }
  return ok ? 0 : 1;
}

}  // namespace baker
