#include "pipeline/pack_folder.h"

#include "common/asset_kinds.h"
#include "common/source_paths.h"
#include "pipeline/bake_cache.h"
#include "pipeline/bake_folders.h"
#include "pipeline/interrupt.h"
#include "pipeline/listed_assets.h"
#include "pipeline/output_journal.h"
#include "pipeline/output_lock.h"
#include "pipeline/output_tree.h"
#include "pipeline/streamed_file.h"

#include <assetlib/manifest.h>
#include <assetlib/pack_file.h>

#include <charconv>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace baker {
namespace {

namespace fs = std::filesystem;

// "xxh3-64:0123456789abcdef" -> its 64 bits; false for any other text.
bool parse_hash(const std::string& text, uint64_t& out) {
  constexpr std::string_view kPrefix = "xxh3-64:";
  if (text.size() != kPrefix.size() + 16 || text.compare(0, kPrefix.size(), kPrefix) != 0)
    return false;
  const char* digits = text.data() + kPrefix.size();
  auto [end, ec] = std::from_chars(digits, digits + 16, out, 16);
  return ec == std::errc() && end == digits + 16;
}

// A pack inside the baked folder is written there, never through a symlinked folder planted on
// the way, which could lead anywhere (the bake itself never writes through one). Each folder on the
// way is placed by its real parent, so neither spelling (`..`, a symlinked ancestor, a trailing
// slash) nor a relative path hides where it lies. `root` is the baked folder, canonical.
BakeStatus check_folders_on_the_way(const fs::path& root, const fs::path& pack) {
  std::error_code ec;
  const fs::path folder = fs::absolute(pack, ec).parent_path();
  if (ec) return {};  // not resolvable: writing it will say why
  fs::path at;
  for (const fs::path& part : folder) {
    at /= part;
    if (part.empty() || at == at.root_path()) continue;
    const fs::path real = fs::weakly_canonical(at.parent_path(), ec) / at.filename();
    if (ec) return {};
    if (real == root || !folder_within(real, root) || !fs::is_symlink(fs::symlink_status(at, ec)))
      continue;
    return BakeStatus::failure(BakeError::Config, pack.string(),
                               "would be written through the symlink " + at.string() +
                                   " in the baked folder (not followed)");
  }
  return {};
}

// The pack must not replace a file the baked folder needs.
BakeStatus check_destination(const fs::path& baked_dir, const fs::path& pack,
                             const assetlib::Manifest& manifest) {
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(baked_dir, ec);
  if (ec) return {};  // not resolvable: opening it will say why
  if (BakeStatus s = check_folders_on_the_way(root, pack); !s) return s;
  fs::path target = fs::weakly_canonical(pack, ec);
  if (ec) return {};  // not resolvable: writing it will say why
  auto same = [&](const fs::path& p) {
    std::error_code e;
    return fs::weakly_canonical(p, e) == target && !e;
  };
  for (const char* own : {"manifest.json", kCacheFileName, kLockFileName, kJournalFileName}) {
    if (same(baked_dir / own)) {
      return BakeStatus::failure(BakeError::Config, pack.string(),
                                 std::string("would replace the baked folder's ") + own);
    }
  }
  for (const assetlib::ManifestEntry& e : manifest.assets) {
    if (same(baked_dir / e.path)) {
      return BakeStatus::failure(BakeError::Config, pack.string(),
                                 "would replace " + e.path + ", an asset it packs");
    }
  }
  // Named as an asset inside the folder, it would pass for one the manifest does not list, and
  // check would fail the folder.
  if (folder_within(target, root) &&
      is_output_extension(lower_extension(target.filename().string()))) {
    return BakeStatus::failure(BakeError::Config, pack.string(),
                               "inside the baked folder a pack must not be named as an asset (" +
                                   target.extension().string() + "); name it .pack");
  }
  return {};
}

// The index's view of each manifest entry: sizes, types and hashes as the manifest says; every
// file is then held to them as it is copied.
BakeStatus pack_inputs(const fs::path& baked_dir, const assetlib::Manifest& manifest,
                       std::vector<assetlib::PackInput>& out) {
  for (const assetlib::ManifestEntry& e : manifest.assets) {
    assetlib::PackInput in;
    in.name = e.name;
    std::memcpy(in.type, e.type.data(), 4);  // read_manifest: exactly 4 bytes
    in.size = e.file_size;
    in.raw_size = e.raw_size;
    if (!parse_hash(e.hash, in.hash)) {
      return BakeStatus::failure(BakeError::InvalidAsset, (baked_dir / "manifest.json").string(),
                                 e.name + ": hash '" + e.hash + "' is not xxh3-64:<16 hex digits>");
    }
    out.push_back(in);
  }
  return {};
}

// Reads the file of `entry` into `bytes`, held to the manifest (listed_assets.h).
BakeStatus read_verified(const OutputTree& baked, const assetlib::ManifestEntry& entry,
                         std::vector<std::byte>& bytes) {
  assetlib::AssetView view;
  BakeStatus s = read_listed_asset(baked, entry, bytes, view);
  if (!s) s.reason += "; not packed";
  return s;
}

// The index, then each asset at its offset, verified on the way.
BakeStatus write_pack(const OutputTree& baked, const assetlib::Manifest& manifest,
                      const assetlib::PackLayout& layout, const fs::path& pack,
                      StreamedFile& file) {
  if (BakeStatus s = file.write(layout.index); !s) return s;
  std::vector<std::byte> bytes;
  for (size_t k : layout.order) {
    if (int signal = interrupt_signal(); signal != 0) {
      return BakeStatus::failure(
          BakeError::IoError, pack.string(),
          "interrupted (signal " + std::to_string(signal) + "); " +
              (file.is_in_place() ? "what was written is incomplete" : "nothing written"));
    }
    if (BakeStatus s = read_verified(baked, manifest.assets[k], bytes); !s) return s;
    if (BakeStatus s = file.write_zeros(layout.offsets[k] - file.size()); !s) return s;
    if (BakeStatus s = file.write(bytes); !s) return s;
  }
  return {};
}

BakeStatus pack_throwing(const fs::path& baked_dir, const fs::path& pack, PackSummary& out) {
  std::string manifest_path = (baked_dir / "manifest.json").string();
  std::error_code ec;
  if (pack.empty()) return BakeStatus::failure(BakeError::Config, "", "no pack file named (-o)");
  if (!fs::is_directory(baked_dir, ec))
    return BakeStatus::failure(BakeError::Config, baked_dir.string(), "not a baked folder");
  OutputTree baked;
  if (BakeStatus s = OutputTree::open(baked_dir, baked); !s) return s;
  assetlib::Manifest manifest;
  if (BakeStatus s = read_baked_manifest(baked, manifest); !s) return s;
  if (BakeStatus s = check_destination(baked_dir, pack, manifest); !s) return s;
  std::vector<assetlib::PackInput> inputs;
  if (BakeStatus s = pack_inputs(baked_dir, manifest, inputs); !s) return s;
  assetlib::PackLayout layout;
  if (assetlib::Status s = assetlib::layout_pack(inputs, layout); !s)
    return BakeStatus::from_memory_call(s, BakeError::InvalidAsset, manifest_path);

  if (pack.has_parent_path()) fs::create_directories(pack.parent_path(), ec);
  StreamedFile file;
  if (BakeStatus s = file.open(pack); !s) return s;
  if (BakeStatus s = write_pack(baked, manifest, layout, pack, file); !s) return s;
  if (BakeStatus s = file.commit(); !s) return s;
  out = {};
  out.assets = inputs.size();
  for (const assetlib::PackInput& in : inputs) out.asset_bytes += in.size;
  out.pack_bytes = layout.file_size;
  return {};
}

}  // namespace

BakeStatus pack_baked_folder(const fs::path& baked_dir, const fs::path& pack, PackSummary& out) {
  const char* what = nullptr;
  try {
    return pack_throwing(baked_dir, pack, out);
  } catch (const std::bad_alloc&) {
    what = "out of memory while packing (std::bad_alloc)";
  } catch (const std::length_error&) {
    what = "out of memory while packing (std::length_error)";
  }
  return BakeStatus::failure(BakeError::Internal, pack.string(), what);
}

}  // namespace baker
