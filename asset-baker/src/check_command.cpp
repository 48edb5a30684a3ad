#include "check_command.h"

#include "asset_unpack_check.h"
#include "bake_cache.h"
#include "content_hash.h"

#include <assetlib/manifest.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/texture_asset.h>

#include <cstdio>
#include <set>
#include <vector>

namespace baker {
namespace {

namespace fs = std::filesystem;
using assetlib::Status;

}  // namespace

int run_check(const fs::path& baked_dir, bool quiet) {
  std::vector<std::string> problems;
  assetlib::Manifest manifest;
  if (Status s = assetlib::load_manifest((baked_dir / "manifest.json").string(), manifest); !s) {
    std::fprintf(stderr, "error: %s\n", s.message.c_str());
    return 1;
  }
  std::set<std::string> listed;
  for (const assetlib::ManifestEntry& e : manifest.assets) {
    std::string path = (baked_dir / e.path).string();
    listed.insert(e.path);
    std::error_code ec;
    uint64_t size = fs::file_size(path, ec);
    uint64_t hash = 0;
    if (ec || size != e.file_size) {
      problems.push_back(path + ": missing or size differs from the manifest");
      continue;
    }
    if (!hash_file(path, hash) || hash_string(hash) != e.hash) {
      problems.push_back(path + ": content hash differs from the manifest");
      continue;
    }
    UnpackedAsset asset;
    if (Status s = unpack_whole_asset(path, asset); !s) {
      problems.push_back(s.message.find(path) == std::string::npos ? path + ": " + s.message : s.message);
      continue;
    }
    if (asset.type != e.type) problems.push_back(path + ": type " + asset.type + ", manifest says " + e.type);
    if (asset.raw_size != e.raw_size) problems.push_back(path + ": unpacked size differs from the manifest");
    for (const std::string& ref : asset.texture_refs) {
      const assetlib::ManifestEntry* target = assetlib::find_asset(manifest, ref);
      if (!target || target->type != "TEXI") problems.push_back(path + ": material texture '" + ref + "' is not in the manifest");
    }
  }
  std::error_code ec;
  for (fs::recursive_directory_iterator it(baked_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string relative = fs::relative(it->path(), baked_dir).generic_string();
    std::string ext = it->path().extension().string();
    if (relative.find(".assetlib-tmp-") != std::string::npos) {
      problems.push_back(it->path().string() + ": temporary file left behind");
    } else if ((ext == ".tx" || ext == ".mesh") && !listed.count(relative)) {
      problems.push_back(it->path().string() + ": asset file not listed in the manifest");
    }
  }
  for (const std::string& p : problems) std::fprintf(stderr, "error: %s\n", p.c_str());
  if (!quiet) {
    std::printf("checked %zu assets in %s: %zu problem(s)\n", manifest.assets.size(), baked_dir.string().c_str(),
                problems.size());
  }
  return problems.empty() ? 0 : 1;
}

}  // namespace baker
