#include "common/asset_kinds.h"

#include "common/source_paths.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

namespace baker {
namespace {

struct KindExtension {
  std::string_view extension;
  AssetKind kind;
};

// Every image container stb_image reads, Wavefront OBJ, and glTF 2.0 (text and binary).
constexpr std::array kSourceExtensions = {
    KindExtension{".png", AssetKind::Texture},  KindExtension{".jpg", AssetKind::Texture},
    KindExtension{".jpeg", AssetKind::Texture}, KindExtension{".tga", AssetKind::Texture},
    KindExtension{".bmp", AssetKind::Texture},  KindExtension{".psd", AssetKind::Texture},
    KindExtension{".gif", AssetKind::Texture},  KindExtension{".hdr", AssetKind::Texture},
    KindExtension{".pic", AssetKind::Texture},  KindExtension{".pnm", AssetKind::Texture},
    KindExtension{".ppm", AssetKind::Texture},  KindExtension{".pgm", AssetKind::Texture},
    KindExtension{".obj", AssetKind::Mesh},     KindExtension{".gltf", AssetKind::Scene},
    KindExtension{".glb", AssetKind::Scene},
};

enum class Unread { Image, Model };

struct UnreadFormat {
  std::string_view extension, what;
  Unread kind;
};

// Image and model formats an asset folder often holds that neither stb_image nor the baker reads.
constexpr std::array kUnreadFormats = {
    UnreadFormat{".webp", "a WebP", Unread::Image},
    UnreadFormat{".avif", "an AVIF", Unread::Image},
    UnreadFormat{".tif", "a TIFF", Unread::Image},
    UnreadFormat{".tiff", "a TIFF", Unread::Image},
    UnreadFormat{".exr", "an OpenEXR", Unread::Image},
    UnreadFormat{".dds", "a DDS", Unread::Image},
    UnreadFormat{".ktx", "a KTX", Unread::Image},
    UnreadFormat{".ktx2", "a KTX2", Unread::Image},
    UnreadFormat{".basis", "a Basis Universal", Unread::Image},
    UnreadFormat{".jxl", "a JPEG XL", Unread::Image},
    UnreadFormat{".heic", "a HEIF", Unread::Image},
    UnreadFormat{".fbx", "an FBX", Unread::Model},
    UnreadFormat{".dae", "a COLLADA", Unread::Model},
    UnreadFormat{".3ds", "a 3ds Max", Unread::Model},
    UnreadFormat{".blend", "a Blender", Unread::Model},
    UnreadFormat{".usd", "a USD", Unread::Model},
    UnreadFormat{".usda", "a USD", Unread::Model},
    UnreadFormat{".usdc", "a USD", Unread::Model},
    UnreadFormat{".usdz", "a USD", Unread::Model},
    UnreadFormat{".stl", "an STL", Unread::Model},
    UnreadFormat{".ply", "a PLY", Unread::Model},
    UnreadFormat{".abc", "an Alembic", Unread::Model},
};

constexpr std::array<std::string_view, 6> kOutputExtensions = {".tx",     ".mesh", ".mat",
                                                               ".prefab", ".skel", ".clip"};

}  // namespace

std::optional<AssetKind> source_kind(std::string_view relative_path) {
  std::string ext = lower_extension(relative_path);
  auto it = std::find_if(kSourceExtensions.begin(), kSourceExtensions.end(),
                         [&](const KindExtension& k) { return k.extension == ext; });
  if (it == kSourceExtensions.end()) return std::nullopt;
  return it->kind;
}

bool is_source_companion(std::string_view relative_path) {
  std::string ext = lower_extension(relative_path);
  std::string_view name = relative_path.substr(relative_path.rfind('/') + 1);
  return ext == ".mtl" || ext == ".bin" || name == "baker.json";
}

std::optional<std::string> unread_asset_format(std::string_view relative_path) {
  std::string ext = lower_extension(relative_path);
  auto it = std::find_if(kUnreadFormats.begin(), kUnreadFormats.end(),
                         [&](const UnreadFormat& f) { return f.extension == ext; });
  if (it == kUnreadFormats.end()) return std::nullopt;
  return std::string(it->what) +
         (it->kind == Unread::Image
              ? " image, which the baker does not read; convert it to PNG or JPEG (HDR for HDR)"
              : " model, which the baker does not read; export it as glTF 2.0 or OBJ");
}

const char* kind_name(AssetKind kind) {
  switch (kind) {
    case AssetKind::Texture: return "texture";
    case AssetKind::Mesh: return "mesh";
    case AssetKind::Scene: return "scene";
  }
  return "?";
}

const char* output_extension(AssetKind kind) {
  switch (kind) {
    case AssetKind::Texture: return ".tx";
    case AssetKind::Mesh: return ".mesh";
    case AssetKind::Scene: return ".prefab";
  }
  return "";
}

bool is_baked_type(const void* type) {
  for (const char* asset : {"TEXI", "MESH", "MATL", "PRFB", "SKEL", "CLIP"})
    if (std::memcmp(type, asset, 4) == 0) return true;
  return false;
}

bool is_output_extension(std::string_view extension) {
  return std::find(kOutputExtensions.begin(), kOutputExtensions.end(), extension) !=
         kOutputExtensions.end();
}

}  // namespace baker
