// assetlib-bench, measurement 8: asset-baker against gltfpack (Debian package gltfpack), the
// nearest peer, converting the same files on one thread. Two sets are staged from the corpus: the
// OBJ models of common-3d-test-models (with their .mtl), and the glTF/GLB files without images
// (with their buffers); gltfpack leaves images as they are while the baker compresses every one to
// BCn, so files with images would compare different work. Each set is converted by
// `asset-baker <set> -j1` and by gltfpack (default options, one process per file, each to .glb),
// alternating, --bake-reps times; the medians of the total wall and CPU times are compared.
#include "bench.h"
#include "report.h"

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace bench {
namespace fs = std::filesystem;
using nlohmann::json;

double PeerTool::median_wall() const { return median_of(wall_seconds); }
double PeerTool::median_cpu() const { return median_of(cpu_seconds); }

namespace {

// The OBJ set: the models of this corpus folder (real scans and sculpts, 17 MB); a tree without
// it (the bundled assets/ in --quick mode) gives every .obj it has.
constexpr const char* kObjFolder = "common-3d-test-models";

bool has_extension(const fs::path& p, std::initializer_list<const char*> extensions) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return std::any_of(extensions.begin(), extensions.end(), [&](const char* e) { return ext == e; });
}

// Regular files under `root` with one of `extensions`, in path order.
std::vector<fs::path> files_under(const fs::path& root,
                                  std::initializer_list<const char*> extensions) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && has_extension(it->path(), extensions)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// %XX escapes of a URI decoded (glTF URIs are URI-encoded file names).
std::string uri_decode(const std::string& uri) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(uint8_t(uri[i + 1])) &&
        std::isxdigit(uint8_t(uri[i + 2]))) {
      out += char(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

// The JSON of a .gltf, or of a .glb's first chunk; discarded when it does not parse.
json gltf_json(const fs::path& path) {
  std::string bytes = read_file_bytes(path);
  if (bytes.size() >= 20 && bytes.compare(0, 4, "glTF") == 0) {
    uint32_t length = 0;
    std::copy_n(bytes.data() + 12, 4, reinterpret_cast<char*>(&length));
    bytes = bytes.substr(20, std::min<size_t>(length, bytes.size() - 20));
  }
  return json::parse(bytes, nullptr, false);
}

bool names_images(const json& doc) {
  return doc.is_object() && doc.contains("images") && doc["images"].is_array() &&
         !doc["images"].empty();
}

// The external files (buffers, images) a glTF names, relative to its folder.
std::vector<std::string> gltf_references(const json& doc) {
  std::vector<std::string> out;
  if (!doc.is_object()) return out;
  for (const char* key : {"buffers", "images"}) {
    if (!doc.contains(key) || !doc[key].is_array()) continue;
    for (const json& item : doc[key]) {
      if (!item.is_object() || !item.contains("uri") || !item["uri"].is_string()) continue;
      std::string uri = item["uri"].get<std::string>();
      if (uri.rfind("data:", 0) != 0 && uri.find("://") == std::string::npos)
        out.push_back(uri_decode(uri));
    }
  }
  return out;
}

// The .mtl libraries an OBJ names: the rest of each `mtllib` line as one name when such a file
// exists, else each word (as the baker reads them).
std::vector<std::string> obj_references(const fs::path& obj) {
  std::vector<std::string> out;
  std::istringstream lines(read_file_bytes(obj));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("mtllib", 0) != 0 || line.size() < 8) continue;
    std::string rest = line.substr(7);
    while (!rest.empty() && std::isspace(uint8_t(rest.back()))) rest.pop_back();
    if (fs::is_regular_file(obj.parent_path() / rest)) {
      out.push_back(rest);
      continue;
    }
    std::istringstream words(rest);
    for (std::string w; words >> w;) out.push_back(w);
  }
  return out;
}

bool inside(const fs::path& folder, const fs::path& path) {
  auto rel = path.lexically_normal().lexically_relative(folder.lexically_normal());
  return !rel.empty() && *rel.begin() != "..";
}

// Copies `file` and the files it names into a folder of its own, <stage>/<k>/ (no two sources
// share a buffer or a library, as in the script this stage replaces). Only references that stay
// inside `root` and exist are copied. Returns the staged path of `file`.
fs::path stage_one(const fs::path& root, const fs::path& file,
                   const std::vector<std::string>& references, const fs::path& folder) {
  fs::create_directories(folder);
  fs::path staged = folder / file.filename();
  fs::copy_file(file, staged, fs::copy_options::overwrite_existing);
  for (const std::string& ref : references) {
    fs::path source = (file.parent_path() / ref).lexically_normal();
    fs::path target = (folder / ref).lexically_normal();
    if (!inside(root, source) || !inside(folder, target) || !fs::is_regular_file(source)) continue;
    fs::create_directories(target.parent_path());
    fs::copy_file(source, target, fs::copy_options::overwrite_existing);
  }
  return staged;
}

// One staged set: its folder (the baker's input) and the staged sources (gltfpack's inputs).
struct StagedSet {
  std::string name;
  fs::path folder;
  std::vector<fs::path> sources;
  uint64_t source_bytes = 0;
};

StagedSet stage_obj_set(const fs::path& root, const fs::path& stage) {
  StagedSet set{"OBJ", stage / "obj", {}, 0};
  fs::path models = root / kObjFolder;
  for (const fs::path& obj : files_under(fs::is_directory(models) ? models : root, {".obj"})) {
    char folder[16];
    std::snprintf(folder, sizeof folder, "%04zu", set.sources.size());
    set.sources.push_back(stage_one(root, obj, obj_references(obj), set.folder / folder));
    set.source_bytes += fs::file_size(obj);
  }
  return set;
}

// Files whose JSON does not parse have no images: they stay in the set, and each tool pays for
// refusing them.
StagedSet stage_gltf_set(const fs::path& root, const fs::path& stage) {
  StagedSet set{"glTF without images", stage / "gltf", {}, 0};
  for (const fs::path& file : files_under(root, {".gltf", ".glb"})) {
    json doc = gltf_json(file);
    if (names_images(doc)) continue;
    char folder[16];
    std::snprintf(folder, sizeof folder, "%04zu", set.sources.size());
    set.sources.push_back(stage_one(root, file, gltf_references(doc), set.folder / folder));
    set.source_bytes += fs::file_size(file);
  }
  return set;
}

// Whether `name` is an executable file in a folder of $PATH.
bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    if (!folder.empty() && access((fs::path(folder) / name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Output folders are never deleted between repetitions: on ext4 without a journal (this
// machine's), creating a file skips every inode freed in the last seconds, one inode-table lookup
// each, so a run right after deleting the previous run's hundreds of outputs paid ~0.5 ms per
// file it created (0.35 s instead of 0.14 s for the baker's 288 glTF outputs). Each run writes a
// fresh folder; all are deleted after the last one.
struct PeerRunner {
  const BenchOptions& options;
  fs::path out_root, logs, config;

  // asset-baker <set> -o <fresh> -j1 -q --json ... --config <defaults>.
  bool run_baker(const StagedSet& set, int rep, PeerTool& tool, std::string& error) const {
    std::string stem = set.folder.filename().string() + "-baker-" + std::to_string(rep);
    fs::path report = logs / (stem + ".report.json");
    std::vector<std::string> argv = {options.baker.string(),
                                     set.folder.string(),
                                     "-o",
                                     (out_root / stem).string(),
                                     "-j",
                                     "1",
                                     "-q",
                                     "--json",
                                     report.string(),
                                     "--config",
                                     config.string()};
    double busy = machine_busy_seconds();
    ChildResult r = run_measured(options.self, argv, logs / stem);
    tool.others_cpu_seconds += std::max(0.0, machine_busy_seconds() - busy - r.cpu_seconds);
    if (!r.ran || r.signal != 0 || (r.exit_code != 0 && r.exit_code != 1)) {
      error = "asset-baker on " + set.folder.string() +
              " failed: " + (r.error.empty() ? "exit " + std::to_string(r.exit_code) : r.error) +
              " (log: " + (logs / stem).string() + ".err)";
      return false;
    }
    tool.wall_seconds.push_back(r.wall_seconds);
    tool.cpu_seconds.push_back(r.cpu_seconds);
    std::ifstream in(report);
    json doc = json::parse(in, nullptr, false);
    if (!doc.is_object()) {
      error = report.string() + ": no readable baker report";
      return false;
    }
    tool.converted = doc.value("baked", uint64_t(0));
    tool.failed = doc.value("failed", uint64_t(0));
    tool.bytes_out = doc.value("bytes_out", uint64_t(0));
    return true;
  }

  // gltfpack -i <source> -o <fresh>/<k>.glb, one process per source, times summed.
  bool run_gltfpack(const StagedSet& set, int rep, PeerTool& tool, std::string& error) const {
    std::string stem = set.folder.filename().string() + "-gltfpack-" + std::to_string(rep);
    fs::path out = out_root / stem;
    fs::create_directories(out);
    double wall = 0, cpu = 0;
    tool.converted = tool.failed = tool.bytes_out = 0;
    for (size_t k = 0; k < set.sources.size(); ++k) {
      fs::path glb = out / (std::to_string(k) + ".glb");
      double busy = machine_busy_seconds();
      ChildResult r = run_measured(options.self,
                                   {"gltfpack", "-i", set.sources[k].string(), "-o", glb.string()},
                                   logs / (stem + "-" + std::to_string(k)));
      tool.others_cpu_seconds += std::max(0.0, machine_busy_seconds() - busy - r.cpu_seconds);
      if (!r.ran || r.signal != 0) {
        error = "gltfpack on " + set.sources[k].string() + " did not finish: " +
                (r.error.empty() ? "signal " + std::to_string(r.signal) : r.error);
        return false;
      }
      wall += r.wall_seconds;
      cpu += r.cpu_seconds;
      std::error_code ec;
      if (r.exit_code == 0 && fs::is_regular_file(glb, ec)) {
        ++tool.converted;
        tool.bytes_out += fs::file_size(glb, ec);
      } else {
        ++tool.failed;
      }
    }
    tool.wall_seconds.push_back(wall);
    tool.cpu_seconds.push_back(cpu);
    return true;
  }
};

// Reads every staged file once: both tools start from the page cache.
void warm(const StagedSet& set) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(set.folder, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_regular_file(ec)) warm_page_cache(it->path());
  }
}

}  // namespace

bool bench_peers(const BenchOptions& options, const fs::path& root,
                 std::vector<PeerComparison>& out, std::vector<std::string>& notes,
                 std::string& error) {
  if (!on_path("gltfpack")) {
    notes.push_back(
        "bake against gltfpack not measured: gltfpack is not on PATH (Debian package gltfpack)");
    return true;
  }
  fs::path base = options.work_dir / "peer";
  fs::remove_all(base);
  PeerRunner runner{options, base / "out", base / "logs", base / "baker.json"};
  fs::create_directories(runner.logs);
  fs::create_directories(runner.out_root);
  std::ofstream(runner.config) << "{ \"settings\": {} }\n";
  std::fprintf(stderr, "bake against gltfpack (%s)\n", root.c_str());
  for (StagedSet set : {stage_obj_set(root, base / "in"), stage_gltf_set(root, base / "in")}) {
    if (set.sources.empty()) continue;
    warm(set);
    PeerComparison c;
    c.set = set.name;
    c.files = set.sources.size();
    c.source_bytes = set.source_bytes;
    for (int rep = 0; rep < options.bake_repetitions; ++rep) {
      if (options.quiet_wait > 0) wait_for_quiet_machine(options.quiet_wait);
      // Alternating which tool goes first, so that a drift in the machine's load hits both.
      bool baker_first = rep % 2 == 0;
      for (int turn = 0; turn < 2; ++turn) {
        bool ok = (turn == 0) == baker_first ? runner.run_baker(set, rep, c.baker, error)
                                             : runner.run_gltfpack(set, rep, c.gltfpack, error);
        if (!ok) return false;
      }
      std::fprintf(stderr, "  %s: asset-baker %.2f s (CPU %.2f s), gltfpack %.2f s (CPU %.2f s)\n",
                   c.set.c_str(), c.baker.wall_seconds.back(), c.baker.cpu_seconds.back(),
                   c.gltfpack.wall_seconds.back(), c.gltfpack.cpu_seconds.back());
    }
    out.push_back(std::move(c));
  }
  std::error_code ec;
  fs::remove_all(runner.out_root, ec);
  return true;
}

std::string peer_section(const Results& r) {
  if (r.peers.empty()) return "";
  std::string out =
      "\n## 8. Bake against gltfpack\n\n"
      "The same files converted by asset-baker -j1 (one bake of the set) and by gltfpack (default "
      "options, one process per file, to .glb), alternating, median of " +
      std::to_string(r.bake_repetitions) +
      " runs each; every run writes a fresh folder. CPU is user + system time. Ratio = gltfpack / "
      "asset-baker (above 1: the baker is faster); the target is judged on CPU time, as the "
      "baker's -j1 may still spread a glTF's meshes over the cores. *others*: cores other "
      "processes used during the baker's runs.\n\n";
  Table table({"set", "files", "source MiB", "baker wall", "baker CPU", "baked, failed",
               "baker MiB out", "gltfpack wall", "gltfpack CPU", "converted, failed",
               "gltfpack MiB out", "ratio CPU", "ratio wall", "others"});
  for (const PeerComparison& c : r.peers) {
    // During the baker's runs only: gltfpack's runs are short processes, each started by a
    // launcher whose own start-up would count as others.
    double wall = 0;
    for (double w : c.baker.wall_seconds) wall += w;
    double others = wall > 0 ? c.baker.others_cpu_seconds / wall : 0;
    table.add({c.set, std::to_string(c.files), mib(c.source_bytes), seconds(c.baker.median_wall()),
               seconds(c.baker.median_cpu()),
               std::to_string(c.baker.converted) + ", " + std::to_string(c.baker.failed),
               mib(c.baker.bytes_out), seconds(c.gltfpack.median_wall()),
               seconds(c.gltfpack.median_cpu()),
               std::to_string(c.gltfpack.converted) + ", " + std::to_string(c.gltfpack.failed),
               mib(c.gltfpack.bytes_out), ratio(c.cpu_ratio()), ratio(c.wall_ratio()),
               fixed(others, 2)});
  }
  return out + table.markdown();
}

}  // namespace bench
