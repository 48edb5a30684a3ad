#include "import/gltf_import.h"

#include "common/asset_names.h"
#include "import/gltf_accessors.h"
#include "import/gltf_document.h"
#include "import/gltf_materials.h"
#include "import/gltf_meshes.h"
#include "import/gltf_scene.h"
#include "import/gltf_skins.h"
#include "import/gltf_transforms.h"

#include <map>
#include <type_traits>

namespace baker {
namespace {

// Where an image's bytes are: a file of the input tree, or inside this file.
struct ImageSource {
  std::optional<std::string> file;  // root-relative path of an external image
  bool embedded = false;
  std::string why;  // without `file` or `embedded`: why the URI names no file of the input tree
};

ImageSource image_source(const GltfDocument& doc, uint32_t index) {
  std::string path = json_path("images", index);
  const Json& image = doc.json["images"][index];
  std::string uri = string_or(image, path, "uri", "");
  if (uri.empty() || is_data_uri(uri)) return {std::nullopt, true, {}};
  ImageSource out;
  out.file = resolve_gltf_uri(doc.source, uri, out.why);
  return out;
}

std::string embedded_bytes(GltfData& data, uint32_t index) {
  const GltfDocument& doc = data.document();
  std::string path = json_path("images", index);
  const Json& image = doc.json["images"][index];
  std::string uri = string_or(image, path, "uri", "");
  if (!uri.empty()) return decode_data_uri(uri, json_path(path, "uri"));
  uint32_t view =
      index_of(image, path, "bufferView", array_size(doc.json, "bufferViews"), "buffer view");
  std::span<const uint8_t> bytes = data.view(view, path);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// "0, 3, 7" or "NORMAL, TEXCOORD_0": the items of a warning's list.
template <typename Items>
std::string listed(const Items& items) {
  std::string list;
  for (const auto& item : items) {
    if (!list.empty()) list += ", ";
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(item)>>) {
      list += std::to_string(item);
    } else {
      list += item;
    }
  }
  return list;
}

void warn_mesh_notes(const GltfMeshNotes& notes, const std::string& source,
                     std::vector<std::string>& warnings) {
  for (uint32_t m : notes.unskinned) {
    warnings.push_back(source + ": meshes[" + std::to_string(m) +
                       "] has JOINTS_0 and WEIGHTS_0 but no node gives it a skin; baked rigid");
  }
  if (!notes.dropped_alpha.empty()) {
    warnings.push_back(source + ": COLOR_0 alpha of meshes " + listed(notes.dropped_alpha) +
                       " not baked (vertex colours are RGB)");
  }
  if (notes.clamped_colors > 0) {
    warnings.push_back(source + ": " + std::to_string(notes.clamped_colors) +
                       " COLOR_0 component(s) outside 0..1 clamped");
  }
  if (notes.zero_normals > 0) {
    warnings.push_back(source + ": " + std::to_string(notes.zero_normals) +
                       " vertex NORMAL(s) of no length (zero, or cancelled by morph targets) "
                       "given the normal of a face using them");
  }
  if (!notes.morphed.empty()) {
    warnings.push_back(source + ": morph targets of meshes " + listed(notes.morphed) +
                       " baked at the mesh's default weights; the shapes do not animate");
  }
  if (!notes.unapplied_morph_attributes.empty()) {
    warnings.push_back(source + ": morph target deltas of " +
                       listed(notes.unapplied_morph_attributes) +
                       " not applied (only POSITION, NORMAL and TANGENT are)");
  }
  if (!notes.ignored_attributes.empty()) {
    warnings.push_back(source + ": vertex attributes " + listed(notes.ignored_attributes) +
                       " not baked");
  }
}

// A prefab node that a skeleton or a clip poses as translation, rotation and scale holds them
// rather than a matrix: glTF forbids animating a matrix node, and exporters write rest poses of
// joints as matrices.
void pose_as_trs(assetlib::PrefabInfo& prefab, const std::vector<uint32_t>& instances,
                 uint32_t node) {
  for (uint32_t p : instances) {
    assetlib::PrefabNode& n = prefab.nodes[p];
    if (!n.has_matrix) continue;
    std::string why;
    std::optional<assetlib::NodePose> pose = decompose_trs(local_matrix(n), why);
    if (!pose) {
      throw GltfError(json_path(json_path("nodes", node), "matrix"),
                      "a joint or animated node must be a translation, rotation and scale; its "
                      "matrix has " +
                          why);
    }
    n.has_matrix = false;
    std::copy_n(pose->translation, 3, n.translation);
    std::copy_n(pose->rotation, 4, n.rotation);
    std::copy_n(pose->scale, 3, n.scale);
  }
}

// Skeletons and clips, once the scene has given every glTF node its prefab nodes.
void import_motion(GltfData& data, std::vector<GltfSkin>& skins, GltfScene& scene, GltfImport& out,
                   std::vector<std::string>& warnings) {
  const std::string& source = data.document().source;
  bind_skins_to_prefab(skins, scene.instances, source, warnings);
  GltfClips clips = import_gltf_animations(data, scene.instances, warnings);
  std::set<uint32_t> posed = std::move(clips.targets);
  for (GltfSkin& skin : skins) {
    posed.insert(skin.joint_nodes.begin(), skin.joint_nodes.end());
    out.skeletons.push_back(std::move(skin.skeleton));
  }
  for (uint32_t node : posed) pose_as_trs(scene.prefab, scene.instances[node], node);
  for (size_t a = 0; a < clips.clips.size(); ++a)
    scene.prefab.clips.push_back(part_name(source, PartKind::Clip, a));
  out.clips = std::move(clips.clips);
  out.prefab = std::move(scene.prefab);
}

// How the slots that use each image in each role sample it, merged (either()).
using UseSampling = std::map<std::pair<uint32_t, TextureRole>, SlotSampling>;
UseSampling sampling_of_uses(const Json& root) {
  UseSampling sampling;
  for (const GltfImageUse& use : gltf_image_uses(root)) {
    auto [it, added] = sampling.try_emplace({use.image, use.role}, use.sampling);
    if (!added) it->second = either(it->second, use.sampling);
  }
  return sampling;
}

void import_document(GltfData& data, const ImportInputs& inputs, GltfImport& out,
                     std::vector<std::string>& warnings) {
  const GltfDocument& doc = data.document();
  const std::string& source = doc.source;
  std::map<uint32_t, std::set<TextureRole>> embedded_roles;
  GltfTextureName texture_name = [&](uint32_t image, TextureRole role,
                                     std::string& why) -> std::optional<std::string> {
    ImageSource where = image_source(doc, image);
    if (where.embedded) {
      embedded_roles[image].insert(role);
      return texture_variant_name(part_name(source, PartKind::Image, image), role,
                                  TextureRole::Color);
    }
    if (!where.file) {
      why = where.why;
      return std::nullopt;
    }
    std::optional<std::string> name =
        inputs.texture_name ? inputs.texture_name(*where.file, role, why) : std::nullopt;
    if (!name) {
      why = "'" + *where.file + "' " +
            (why.empty() ? "is not an image of this bake (missing, or a format the baker does not "
                           "read)"
                         : why);
    }
    return name;
  };
  out.materials = gltf_materials(doc.json, source, texture_name, warnings);
  assetlib::MaterialInfo& fallback = out.materials.emplace_back();
  fallback.name = "default";
  fallback.original_file = source;

  std::vector<std::string> material_names;
  for (size_t i = 0; i < out.materials.size(); ++i)
    material_names.push_back(part_name(source, PartKind::Material, i));
  std::vector<GltfSkin> skins = import_gltf_skins(data);
  std::vector<std::string> skin_names;
  for (size_t s = 0; s < skins.size(); ++s)
    skin_names.push_back(part_name(source, PartKind::Skin, s));
  std::vector<std::optional<uint32_t>> bindings = mesh_skins(doc.json, skins);
  GltfMeshNotes notes;
  std::vector<std::optional<GltfMeshRef>> refs;
  size_t meshes = array_size(doc.json, "meshes");
  for (uint32_t m = 0; m < meshes; ++m) {
    std::optional<GltfMeshSkin> skin;
    if (bindings[m]) {
      const GltfSkin& bound = skins[*bindings[m]];
      skin = GltfMeshSkin{&bound.skeleton_joint, uint32_t(bound.skeleton.joints.size()),
                          bound.format(), skin_names[*bindings[m]]};
    }
    std::optional<ImportedMesh>& mesh = out.meshes.emplace_back(import_gltf_mesh(
        data, m, out.materials, material_names, skin ? &*skin : nullptr, notes, warnings));
    std::optional<GltfMeshRef>& ref = refs.emplace_back();
    if (!mesh) continue;
    ref.emplace().mesh = part_name(source, PartKind::Mesh, m);
    if (mesh->skin_format != assetlib::SkinFormat::None) ref->skeleton = mesh->skeleton;
    for (const assetlib::MeshMaterial& material : mesh->materials) {
      ref->materials.push_back(material.material);
      out.default_material_used |= material.material == material_names.back();
    }
  }
  GltfScene scene = import_gltf_scene(data, refs, skin_names.size(), warnings);
  import_motion(data, skins, scene, out, warnings);
  warn_mesh_notes(notes, source, warnings);
  // Read once for all embedded images (a file may embed thousands).
  const UseSampling sampling = embedded_roles.empty() ? UseSampling() : sampling_of_uses(doc.json);
  for (const auto& [image, roles] : embedded_roles) {
    GltfEmbeddedImage& embedded = out.images.emplace_back();
    embedded.index = image;
    embedded.bytes = embedded_bytes(data, image);
    for (TextureRole role : roles) {
      auto it = sampling.find({image, role});
      embedded.uses[role] = it == sampling.end() ? SlotSampling{} : it->second;
    }
  }
}

}  // namespace

BakeStatus import_gltf(std::span<const std::byte> bytes, const std::string& source,
                       const ImportInputs& inputs, GltfImport& out,
                       std::vector<std::string>& warnings) {
  try {
    GltfDocument doc;
    load_gltf_document(bytes, source, inputs, doc, warnings);
    GltfData data(doc, bytes.size());
    import_document(data, inputs, out, warnings);
  } catch (const GltfError& e) {
    return BakeStatus::failure(e.code, source, e.what());
  }
  return {};
}

}  // namespace baker
