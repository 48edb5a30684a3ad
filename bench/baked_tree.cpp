#include "baked_tree.h"

#include <assetlib/assetlib.h>

#include <stb/stb_image.h>

#include <cstdio>
#include <cstring>
#include <memory>

namespace bench {
namespace fs = std::filesystem;

namespace {

// Format of a baked file: the texture format or the vertex format from its metadata.
bool describe(BakedAsset& asset, std::string& error) {
  assetlib::AssetFile file;
  if (auto s = assetlib::load_binaryfile(asset.baked.string(), file); !s) {
    error = s.message;
    return false;
  }
  if (assetlib::has_type(file, "TEXI")) {
    assetlib::TextureInfo info;
    if (auto s = assetlib::read_texture_info(file, info); !s) {
      error = s.message;
      return false;
    }
    asset.format = assetlib::texture_format_name(info.format);
    asset.unpacked_bytes = info.total_size;
    int w = 0, h = 0, comp = 0;
    const std::string source = asset.source.string();
    if (stbi_info(source.c_str(), &w, &h, &comp)) {
      asset.source_bytes_per_channel = stbi_is_hdr(source.c_str()) ? 4 : stbi_is_16_bit(source.c_str()) ? 2 : 1;
      asset.decoded_source_bytes = uint64_t(w) * uint64_t(h) * 4 * uint64_t(asset.source_bytes_per_channel);
    }
    return true;
  }
  assetlib::MeshInfo info;
  if (auto s = assetlib::read_mesh_info(file, info); !s) {
    error = s.message;
    return false;
  }
  asset.format = assetlib::vertex_format_name(info.vertex_format);
  asset.unpacked_bytes = info.vertex_buffer_size + info.index_buffer_size + info.meshlet_data_size;
  return true;
}

}  // namespace

bool read_baked_tree(const std::string& label, const std::string& variant, const fs::path& source_root,
                     const fs::path& baked_root, BakedTree& out, std::string& error) {
  assetlib::Manifest manifest;
  if (auto s = assetlib::load_manifest((baked_root / "manifest.json").string(), manifest); !s) {
    error = s.message;
    return false;
  }
  out = BakedTree{label, variant, source_root, baked_root, {}};
  for (const assetlib::ManifestEntry& e : manifest.assets) {
    BakedAsset asset;
    asset.name = e.name;
    asset.source = source_root / e.name;
    asset.baked = baked_root / e.path;
    asset.type = e.type;
    asset.file_bytes = e.file_size;
    asset.unpacked_bytes = e.raw_size;
    std::error_code ec;
    asset.source_bytes = fs::file_size(asset.source, ec);
    if (ec) {
      error = asset.source.string() + ": " + ec.message();
      return false;
    }
    if (!describe(asset, error)) return false;
    out.assets.push_back(std::move(asset));
  }
  return true;
}

bool warm_page_cache(const fs::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return false;
  static char buffer[1 << 16];
  while (std::fread(buffer, 1, sizeof buffer, f.get()) == sizeof buffer) {
  }
  return std::ferror(f.get()) == 0;
}

const std::vector<std::string>& size_classes() {
  static const std::vector<std::string> classes = {"< 64 KiB", "64 KiB - 1 MiB", "1 - 16 MiB", ">= 16 MiB"};
  return classes;
}

const char* size_class(uint64_t unpacked_bytes) {
  const auto& c = size_classes();
  if (unpacked_bytes < (64u << 10)) return c[0].c_str();
  if (unpacked_bytes < (1u << 20)) return c[1].c_str();
  if (unpacked_bytes < (16u << 20)) return c[2].c_str();
  return c[3].c_str();
}

std::byte* Staging::get(uint64_t size) {
  if (bytes_.size() < size) {
    bytes_.clear();
    bytes_.shrink_to_fit();
    bytes_.resize(size_t(size));  // value-initialised: every page touched once here
  }
  return bytes_.data();
}

}  // namespace bench
