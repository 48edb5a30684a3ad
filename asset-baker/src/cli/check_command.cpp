#include "cli/commands.h"

#include "common/asset_kinds.h"

#include "common/content_hash.h"
#include "common/mapped_file.h"
#include "common/terminal_text.h"
#include "pipeline/listed_assets.h"
#include "pipeline/output_tree.h"
#include "pipeline/unpack_check.h"

#include <assetlib/manifest.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/pack_file.h>
#include <assetlib/texture_asset.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <new>
#include <set>
#include <stdexcept>
#include <vector>

namespace baker {
namespace {

namespace fs = std::filesystem;
using assetlib::Status;

// What assets require of the assets they name (AssetReference), checked once every asset is
// read: a skinned mesh's skeleton has the joints its skin stream indexes; a prefab's skeletons and
// clips index only nodes it has; a prefab node gives its mesh one material per submesh and skins it
// only with the skeleton the mesh's skin stream was made for (a rigid mesh with none).
class CrossReferences {
 public:
  void add(const std::string& who, const std::string& name, const UnpackedAsset& asset) {
    if (asset.type == "SKEL") joints_[name] = asset.joint_count;
    if (asset.type == "SKEL" || asset.type == "CLIP") nodes_used_[name] = asset.nodes_used;
    if (asset.type == "MESH") meshes_[name] = {asset.submesh_count, asset.skeleton};
    for (const AssetReference& ref : asset.references) {
      if (ref.joint_count > 0 || ref.node_count || ref.submesh_count || ref.skeleton)
        needs_.push_back({who, ref});
    }
  }

  void check(std::vector<std::string>& problems) const {
    for (const Need& n : needs_) {
      const AssetReference& ref = n.reference;
      auto joints = joints_.find(ref.name);
      if (ref.joint_count > 0 && joints != joints_.end() && joints->second != ref.joint_count) {
        problems.push_back(n.who + ": its skin indexes " + std::to_string(ref.joint_count) +
                           " joints, skeleton '" + ref.name + "' has " +
                           std::to_string(joints->second));
      }
      auto used = nodes_used_.find(ref.name);
      if (ref.node_count && used != nodes_used_.end() && used->second > *ref.node_count) {
        problems.push_back(n.who + ": it has " + std::to_string(*ref.node_count) + " nodes, " +
                           ref.type + " '" + ref.name + "' refers to node " +
                           std::to_string(used->second - 1));
      }
      auto mesh = meshes_.find(ref.name);
      if (mesh == meshes_.end()) continue;
      if (ref.submesh_count && *ref.submesh_count != mesh->second.submeshes) {
        problems.push_back(n.who + ": it gives mesh '" + ref.name + "' " +
                           std::to_string(*ref.submesh_count) + " materials for its " +
                           std::to_string(mesh->second.submeshes) + " submeshes");
      }
      // No skin on a skinned mesh is a rigid draw in the bind pose (valid glTF); a skin must be
      // the one the mesh's joint indices were made for.
      if (ref.skeleton && !ref.skeleton->empty() && *ref.skeleton != mesh->second.skeleton) {
        problems.push_back(n.who + ": it skins mesh '" + ref.name + "' with " +
                           quoted_or(*ref.skeleton, "no skeleton") + ", the mesh's skin is for " +
                           quoted_or(mesh->second.skeleton, "no skeleton (a rigid mesh)"));
      }
    }
  }

 private:
  static std::string quoted_or(const std::string& name, const char* none) {
    return name.empty() ? std::string(none) : "skeleton '" + name + "'";
  }
  struct Need {
    std::string who;
    AssetReference reference;
  };
  struct MeshFacts {
    uint32_t submeshes = 0;
    std::string skeleton;
  };
  std::map<std::string, uint32_t> joints_;      // skeleton name -> joints
  std::map<std::string, uint64_t> nodes_used_;  // skeleton or clip name -> largest node + 1
  std::map<std::string, MeshFacts> meshes_;
  std::vector<Need> needs_;
};

// Checks one manifest entry, adding what is wrong to `problems`: the file read inside the folder
// and held to the manifest as `pack` holds it (listed_assets.h), then unpacked whole.
void check_entry(const OutputTree& baked, const assetlib::Manifest& manifest,
                 const assetlib::ManifestEntry& e, std::vector<std::string>& problems,
                 CrossReferences& cross) {
  std::vector<std::byte> bytes;
  assetlib::AssetView view;
  if (BakeStatus s = read_listed_asset(baked, e, bytes, view); !s) {
    problems.push_back(s.message());
    return;
  }
  const std::string path = (baked.root() / e.path).string();
  UnpackedAsset asset;
  if (BakeStatus s = unpack_whole_view(view, path, asset); !s) {
    problems.push_back(s.message());
    return;
  }
  cross.add(path, e.name, asset);
  for (const AssetReference& ref : asset.references) {
    const assetlib::ManifestEntry* target = assetlib::find_asset(manifest, ref.name);
    if (!target || target->type != ref.type) {
      problems.push_back(path + ": refers to " + ref.type + " '" + ref.name +
                         "', which is not in the manifest");
    }
  }
}

// What lies in the folder besides the listed assets: temporaries killed runs left, asset files the
// manifest does not list, and symlinks (a bake never makes one, and none is followed). The walk
// never leaves the folder and never throws: an entry it cannot look at, or a folder it cannot
// walk on, is a problem too.
void check_unlisted(const fs::path& baked_dir, const std::set<std::string>& listed,
                    std::vector<std::string>& problems) {
  std::error_code ec;
  fs::recursive_directory_iterator it(baked_dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    std::error_code kind;
    const fs::file_status status = it->symlink_status(kind);
    if (kind) {  // and nothing below it either (a path past PATH_MAX): said once
      problems.push_back(path.string() + ": cannot be looked at (" + kind.message() + ")");
      it.disable_recursion_pending();
      continue;
    }
    const std::string relative = path.lexically_relative(baked_dir).generic_string();
    if (fs::is_symlink(status)) {
      // A listed one was reported by check_entry.
      if (!listed.count(relative)) problems.push_back(path.string() + ": a symlink (not followed)");
      continue;
    }
    if (!fs::is_regular_file(status)) continue;
    if (relative.find(".assetlib-tmp-") != std::string::npos) {
      problems.push_back(path.string() + ": temporary file left behind");
    } else if (is_output_extension(path.extension().string()) && !listed.count(relative)) {
      problems.push_back(path.string() + ": asset file not listed in the manifest");
    }
  }
  if (ec)
    problems.push_back(baked_dir.string() + ": cannot walk the folder (" + ec.message() + ")");
}

// Runs `check`, recording running out of memory as a problem about `label` (the others are still
// checked).
template <typename Check>
void check_guarded(const std::string& label, std::vector<std::string>& problems, Check&& check) {
  const char* oom = nullptr;
  try {
    check();
  } catch (const std::bad_alloc&) {
    oom = "out of memory while checking it (std::bad_alloc)";
  } catch (const std::length_error&) {
    oom = "out of memory while checking it (std::length_error)";
  }
  if (oom) problems.push_back(label + ": " + oom);
}

// Checks pack entry `index` as check_entry checks a file: its hash, type, unpacked size and
// references against the table.
void check_pack_entry(const std::string& pack_name, const assetlib::PackView& pack, size_t index,
                      std::vector<std::string>& problems, CrossReferences& cross) {
  assetlib::PackEntry e = assetlib::pack_entry(pack, index);
  std::string label = pack_name + ": " + std::string(e.name);
  // open_pack checked the range: the bytes are there.
  std::span<const std::byte> bytes = pack.bytes.subspan(e.offset, e.size);
  if (hash_bytes(bytes.data(), bytes.size()) != e.hash) {
    problems.push_back(label + ": content hash differs from the pack's table");
    return;
  }
  assetlib::AssetView view;
  if (Status s = assetlib::read_pack_asset(pack, e, view, pack_name); !s) {
    problems.push_back(s.message);
    return;
  }
  UnpackedAsset asset;
  if (BakeStatus s = unpack_whole_view(view, label, asset); !s) {
    problems.push_back(s.message());
    return;
  }
  if (asset.raw_size != e.raw_size)
    problems.push_back(label + ": unpacked size differs from the pack's table");
  cross.add(label, std::string(e.name), asset);
  for (const AssetReference& ref : asset.references) {
    std::optional<assetlib::PackEntry> target = assetlib::find_pack_entry(pack, ref.name);
    if (!target || std::string_view(target->type, 4) != ref.type) {
      problems.push_back(label + ": refers to " + ref.type + " '" + ref.name +
                         "', which is not in the pack");
    }
  }
}

// The first difference between `pack` and the pack layout_pack makes of its entries, or "": the
// layout is fully determined (docs/format.md, "Pack file"), so bytes no entry accounts for
// (trailing data, gaps, non-zero padding, a moved asset) are not a pack the baker wrote.
std::string layout_difference(const assetlib::PackView& pack) {
  std::vector<assetlib::PackInput> inputs(pack.entry_count);
  for (size_t i = 0; i < inputs.size(); ++i) {
    assetlib::PackEntry e = assetlib::pack_entry(pack, i);
    inputs[i] = {e.name, {e.type[0], e.type[1], e.type[2], e.type[3]}, e.size, e.raw_size, e.hash};
  }
  assetlib::PackLayout layout;
  if (Status s = assetlib::layout_pack(inputs, layout); !s) return s.message;
  if (layout.file_size != pack.bytes.size()) {
    return "the pack is " + std::to_string(pack.bytes.size()) + " bytes, its entries laid out " +
           std::to_string(layout.file_size);
  }
  auto differs = [&](uint64_t from, std::span<const std::byte> expected) {
    return !std::equal(expected.begin(), expected.end(), pack.bytes.begin() + ptrdiff_t(from));
  };
  // Entries sorted by name are in file order; zeros pad each one up to the next. Offsets first:
  // the tables hold them, and a moved asset says more than "the tables differ".
  const std::vector<std::byte> zeros(assetlib::kPackAlignment);
  uint64_t end = layout.index.size();
  for (size_t k : layout.order) {
    assetlib::PackEntry e = assetlib::pack_entry(pack, k);
    if (e.offset != layout.offsets[k]) {
      return std::string(e.name) + " lies at " + std::to_string(e.offset) +
             ", its layout puts it at " + std::to_string(layout.offsets[k]);
    }
    if (e.offset - end > zeros.size() ||
        differs(end, std::span(zeros).first(size_t(e.offset - end)))) {
      return "bytes before " + std::string(e.name) + " belong to no entry";
    }
    end = e.offset + e.size;
  }
  if (differs(0, layout.index)) return "its header or tables differ from its entries' layout";
  return {};
}

int report(const std::vector<std::string>& problems, size_t assets, const std::string& where,
           bool quiet) {
  for (const std::string& p : problems) print_message("error", p);
  if (!quiet) {
    std::printf("checked %zu assets in %s: %zu problem(s)\n", assets, terminal_text(where).c_str(),
                problems.size());
  }
  return problems.empty() ? 0 : 1;
}

int check_pack(const fs::path& path, bool quiet) {
  MappedFile mapped;
  if (BakeStatus s = MappedFile::open(path, mapped); !s) {
    print_message("error", s.message());
    return 1;
  }
  assetlib::PackView pack;
  if (Status s = assetlib::open_pack(mapped.bytes(), pack, path.string()); !s) {
    print_message("error", s.message);
    return 1;
  }
  std::vector<std::string> problems;
  if (std::string difference = layout_difference(pack); !difference.empty())
    problems.push_back(path.string() + ": not laid out as a pack is written: " + difference);
  CrossReferences cross;
  for (size_t i = 0; i < pack.entry_count; ++i) {
    std::string label = path.string() + ": " + std::string(assetlib::pack_entry(pack, i).name);
    check_guarded(label, problems,
                  [&] { check_pack_entry(path.string(), pack, i, problems, cross); });
  }
  cross.check(problems);
  return report(problems, pack.entry_count, path.string(), quiet);
}

}  // namespace

int run_check(const fs::path& baked_dir, bool quiet) {
  std::error_code not_a_folder;
  if (!fs::is_directory(baked_dir, not_a_folder)) return check_pack(baked_dir, quiet);
  OutputTree baked;
  assetlib::Manifest manifest;
  BakeStatus opened = OutputTree::open(baked_dir, baked);
  if (opened) opened = read_baked_manifest(baked, manifest);
  if (!opened) {
    print_message("error", opened.message());
    return 1;
  }
  std::vector<std::string> problems;
  std::set<std::string> listed;
  CrossReferences cross;
  for (const assetlib::ManifestEntry& e : manifest.assets) {
    listed.insert(e.path);
    // Out of memory on one file is that file's problem; the others are still checked.
    check_guarded((baked_dir / e.path).string(), problems,
                  [&] { check_entry(baked, manifest, e, problems, cross); });
  }
  cross.check(problems);
  check_unlisted(baked_dir, listed, problems);
  return report(problems, manifest.assets.size(), baked_dir.string(), quiet);
}

}  // namespace baker
