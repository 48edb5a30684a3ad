// assetlib-bench: the load measurements. A source decoder against the baked load (1. textures,
// 2. meshes), fast LZ4 against LZ4-HC (5., load side), and the loader's peak RSS (4., loader side).
// Every file is read once before it is timed (page cache warm), every comparison side by side.
#include "bench.h"

#include <assetlib/assetlib.h>

#include <stb/stb_image.h>
#include <tiny_obj_loader.h>

#include <cstdio>
#include <functional>
#include <map>
#include <unordered_map>

namespace bench {
namespace fs = std::filesystem;

namespace {

// --- The source side: what an engine without assetlib does on every launch -----------------------

// One stb_image call that decodes `path` to 4 channels; true when it did.
template <auto StbLoad>
std::function<bool()> stb_call(std::string path) {
  return [path = std::move(path)] {
    int w = 0, h = 0, c = 0;
    auto* pixels = StbLoad(path.c_str(), &w, &h, &c, 4);
    const bool decoded = pixels != nullptr;
    stbi_image_free(pixels);
    return decoded;
  };
}

// The stb_image call an engine would make for the pixels the baked file holds: 16-bit data
// textures stay 16-bit, HDR stays float, everything else (8-bit and block-compressed) is 8-bit.
// stb allocates the pixels; the copy into a staging buffer an engine would then make, the mip
// chain it would still have to build and any block compression are not charged to this side.
std::function<bool()> stb_decode(const BakedAsset& a) {
  if (a.format == "RGBA16_SFLOAT") return stb_call<stbi_loadf>(a.source.string());
  if (a.format == "RGBA16_UNORM") return stb_call<stbi_load_16>(a.source.string());
  return stb_call<stbi_load>(a.source.string());
}

struct CornerKey {
  int position, normal, uv;
  bool operator==(const CornerKey&) const = default;
};

struct CornerHash {
  size_t operator()(const CornerKey& k) const {
    uint64_t h = uint64_t(uint32_t(k.position)) * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t(uint32_t(k.normal)) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2));
    h ^= (uint64_t(uint32_t(k.uv)) + 0x8CB92BA72F3D8DD7ull + (h << 6) + (h >> 2));
    return size_t(h);
  }
};

float at(const std::vector<tinyobj::real_t>& v, size_t i) { return float(v[i]); }

assetlib::Vertex_PNCV_F32 make_vertex(const tinyobj::attrib_t& a, const tinyobj::index_t& idx) {
  assetlib::Vertex_PNCV_F32 v{};
  size_t p = size_t(idx.vertex_index);
  for (size_t k = 0; k < 3; ++k) {
    v.position[k] = at(a.vertices, 3 * p + k);
    v.color[k] = a.colors.size() == a.vertices.size() ? at(a.colors, 3 * p + k) : 1.0f;
  }
  if (idx.normal_index >= 0 && 3 * size_t(idx.normal_index) + 2 < a.normals.size()) {
    for (size_t k = 0; k < 3; ++k) v.normal[k] = at(a.normals, 3 * size_t(idx.normal_index) + k);
  }
  if (idx.texcoord_index >= 0 && 2 * size_t(idx.texcoord_index) + 1 < a.texcoords.size()) {
    v.uv[0] = at(a.texcoords, 2 * size_t(idx.texcoord_index));
    v.uv[1] = 1.0f - at(a.texcoords, 2 * size_t(idx.texcoord_index) + 1);
  }
  return v;
}

volatile size_t g_sink = 0;  // keeps the built arrays observable

// Parse the OBJ and index its corners. Deliberately lean: no normal generation for files
// without normals, no grouping by material, no vertex-cache optimisation (the baker does all
// three offline).
bool obj_to_arrays(const std::string& path, const std::string& folder) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), folder.c_str(),
                        true))
    return false;
  std::vector<assetlib::Vertex_PNCV_F32> vertices;
  std::vector<uint32_t> indices;
  std::unordered_map<CornerKey, uint32_t, CornerHash> seen;
  seen.reserve(attrib.vertices.size() / 3);
  const size_t positions = attrib.vertices.size() / 3;
  for (const tinyobj::shape_t& shape : shapes) {
    for (const tinyobj::index_t& idx : shape.mesh.indices) {
      if (idx.vertex_index < 0 || size_t(idx.vertex_index) >= positions) return false;
      auto [it, inserted] =
          seen.try_emplace(CornerKey{idx.vertex_index, idx.normal_index, idx.texcoord_index},
                           uint32_t(vertices.size()));
      if (inserted) vertices.push_back(make_vertex(attrib, idx));
      indices.push_back(it->second);
    }
  }
  g_sink = g_sink + vertices.size() + indices.size();
  return !indices.empty();
}

std::function<bool()> obj_decode(const BakedAsset& a) {
  return [source = a.source.string(), folder = a.source.parent_path().string() + "/"] {
    return obj_to_arrays(source, folder);
  };
}

// --- Source against baked -----------------------------------------------------------------------

// For every asset of `type` ("TEXI" or "MESH") in `tree`: times `source_side(asset)` against the
// baked load (load_asset into staging buffers reused across assets), both from the page cache,
// side by side, and appends the medians to `out`. A file that cannot be read, or that either side
// fails to load, is skipped with a note; assetlib failing is noted as an error. `decoder` names
// the source side in notes.
void compare_loads(const BakedTree& tree, const std::string& type, const std::string& decoder,
                   std::function<bool()> (*source_side)(const BakedAsset&),
                   const TimingPolicy& policy, std::vector<LoadComparison>& out,
                   std::vector<std::string>& notes) {
  const std::string kind = type == "TEXI" ? "texture" : "mesh";
  size_t total = 0, done = 0;
  for (const BakedAsset& a : tree.assets) total += a.type == type;
  Progress progress(kind + " load " + tree.label + " " + tree.variant, total);
  StagingBuffers staging;
  for (const BakedAsset& a : tree.assets) {
    if (a.type != type) continue;
    progress.step(++done);
    const std::string what = tree.label + "/" + a.name;
    if (!warm_page_cache(a.source) || !warm_page_cache(a.baked)) {
      notes.push_back(what + ": cannot read; " + kind + " load skipped");
      continue;
    }
    const std::function<bool()> sides[] = {source_side(a),
                                           [&] { return load_asset(a.baked, staging); }};
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok || !t[1].ok) {
      // The source decoder refusing a file the baker took is a note; assetlib failing is an error.
      notes.push_back((t[0].failed ? "" : "error: ") + what + ": " +
                      (t[0].failed ? decoder : "baked load") + " failed; " + kind +
                      " load skipped");
      continue;
    }
    out.push_back({tree.label, tree.variant, a.name, a.format, a.source_bytes, a.file_bytes,
                   a.unpacked_bytes, t[0].median, t[1].median});
  }
}

}  // namespace

void bench_texture_loads(const BakedTree& tree, const TimingPolicy& policy,
                         std::vector<LoadComparison>& out, std::vector<std::string>& notes) {
  compare_loads(tree, "TEXI", "stb_image", stb_decode, policy, out, notes);
}

void bench_mesh_loads(const BakedTree& tree, const TimingPolicy& policy,
                      std::vector<LoadComparison>& out, std::vector<std::string>& notes) {
  compare_loads(tree, "MESH", "tinyobjloader", obj_decode, policy, out, notes);
}

// --- LZ4 against LZ4-HC -------------------------------------------------------------------------

void bench_codec_loads(const BakedTree& lz4, const BakedTree& hc, const TimingPolicy& policy,
                       std::vector<CodecLoad>& out, std::vector<std::string>& notes) {
  std::map<std::string, const BakedAsset*> hc_by_name;
  for (const BakedAsset& a : hc.assets) hc_by_name[a.name] = &a;
  Progress progress("LZ4 vs LZ4-HC load " + lz4.label, lz4.assets.size());
  StagingBuffers staging;
  size_t done = 0;
  for (const BakedAsset& a : lz4.assets) {
    progress.step(++done);
    auto other = hc_by_name.find(a.name);
    if (other == hc_by_name.end()) {
      notes.push_back(lz4.label + "/" + a.name + ": missing from the LZ4-HC bake");
      continue;
    }
    const BakedAsset& h = *other->second;
    if (!warm_page_cache(a.baked) || !warm_page_cache(h.baked)) continue;
    std::string fast = a.baked.string(), high = h.baked.string();
    const std::function<bool()> sides[] = {
        [&] { return load_asset(fast, staging); },
        [&] { return load_asset(high, staging); },
    };
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok) {
      notes.push_back("error: " + lz4.label + "/" + a.name + ": LZ4 / LZ4-HC load failed");
      continue;
    }
    out.push_back({lz4.label, a.name, a.type, a.file_bytes, h.file_bytes, a.unpacked_bytes,
                   t[0].median, t[1].median});
  }
}

// --- The loader's peak RSS ----------------------------------------------------------------------

int load_all_main(int argc, char** argv) {
  int failures = 0;
  for (int i = 2; i < argc; ++i) {
    assetlib::Manifest manifest;
    fs::path dir = argv[i];
    if (auto s = assetlib::load_manifest((dir / "manifest.json").string(), manifest); !s) {
      std::fprintf(stderr, "%s\n", s.message.c_str());
      ++failures;
      continue;
    }
    for (const assetlib::ManifestEntry& e : manifest.assets) {
      StagingBuffers buffers;  // fresh per asset, freed when the next one starts
      if (!load_asset(dir / e.path, buffers)) {
        std::fprintf(stderr, "%s: load failed\n", (dir / e.path).c_str());
        ++failures;
      }
    }
  }
  return failures ? 1 : 0;
}

namespace {

// The asset with the most file bytes + unpacked bytes over `baked_dirs`: what the loader must
// hold at least, besides itself.
bool find_largest_need(const std::vector<std::string>& baked_dirs, LoaderRss& out,
                       std::string& error) {
  for (const std::string& dir : baked_dirs) {
    assetlib::Manifest manifest;
    if (auto s = assetlib::load_manifest((fs::path(dir) / "manifest.json").string(), manifest);
        !s) {
      error = s.message;
      return false;
    }
    for (const assetlib::ManifestEntry& e : manifest.assets) {
      if (e.file_size + e.raw_size > out.largest_need) {
        out.largest_need = e.file_size + e.raw_size;
        out.largest_name = e.name;
      }
    }
  }
  return true;
}

}  // namespace

bool measure_loader_rss(const BenchOptions& options, const std::vector<std::string>& baked_dirs,
                        LoaderRss& out, std::string& error) {
  out = LoaderRss{};
  if (!find_largest_need(baked_dirs, out, error)) return false;
  fs::path logs = options.work_dir / "logs";
  fs::create_directories(logs);
  std::vector<std::string> argv = {options.self.string(), "--load-all"};
  ChildResult baseline = run_measured(options.self, argv, logs / "loader-baseline");
  argv.insert(argv.end(), baked_dirs.begin(), baked_dirs.end());
  ChildResult all = run_measured(options.self, argv, logs / "loader-all");
  for (const ChildResult* r : {&baseline, &all}) {
    if (!r->ran || r->exit_code != 0) {
      error = "loader child failed: " +
              (r->error.empty() ? "exit " + std::to_string(r->exit_code) : r->error) +
              " (logs in " + logs.string() + ")";
      return false;
    }
  }
  out.baseline = baseline.peak_rss;
  out.peak = all.peak_rss;
  out.measured = true;
  return true;
}

}  // namespace bench
