#include "common/asset_kinds.h"

#include "common/source_paths.h"

#include <algorithm>
#include <array>

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

bool is_output_extension(std::string_view extension) {
  return std::find(kOutputExtensions.begin(), kOutputExtensions.end(), extension) !=
         kOutputExtensions.end();
}

}  // namespace baker
