#include "common/asset_names.h"

#include "common/bake_settings.h"

namespace baker {
namespace {

const char* kind_word(PartKind kind) {
  switch (kind) {
    case PartKind::Mesh: return "mesh";
    case PartKind::Material: return "material";
    case PartKind::Image: return "image";
    case PartKind::Skin: return "skin";
    case PartKind::Clip: return "clip";
  }
  return "?";
}

const char* kind_extension(PartKind kind) {
  switch (kind) {
    case PartKind::Mesh: return ".mesh";
    case PartKind::Material: return ".mat";
    case PartKind::Image: return ".tx";
    case PartKind::Skin: return ".skel";
    case PartKind::Clip: return ".clip";
  }
  return "";
}

}  // namespace

std::string part_name(std::string_view source, PartKind kind, size_t index) {
  return std::string(source) + "#" + kind_word(kind) + "/" + std::to_string(index);
}

std::string parts_folder(std::string_view source) { return std::string(source) + ".parts/"; }

std::string part_path(std::string_view source, PartKind kind, size_t index) {
  // One folder for all parts, told apart by extension: each folder costs a directory creation,
  // which on ext4 weighs as much as baking a small part.
  return parts_folder(source) + std::to_string(index) + kind_extension(kind);
}

std::string texture_variant_name(std::string_view image_name, TextureRole role,
                                 TextureRole natural) {
  std::string name(image_name);
  return role == natural ? name : name + "#" + texture_role_name(role);
}

std::string texture_variant_path(std::string_view image_path, TextureRole role,
                                 TextureRole natural) {
  std::string path(image_path);
  if (role == natural) return path;
  size_t dot = path.rfind('.');  // image_path ends in ".tx"
  return path.substr(0, dot) + "." + texture_role_name(role) + path.substr(dot);
}

}  // namespace baker
