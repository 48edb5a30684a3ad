// OBJ materials: .mtl libraries read through ImportInputs, and tinyobjloader's materials turned
// into the baker's one material model (assetlib::MaterialInfo, glTF's metallic-roughness), so an
// engine draws OBJ and glTF materials the same way (docs/baker.md, "Materials").
#pragma once

#include "common/bake_settings.h"
#include "import/import_inputs.h"

#include <assetlib/material_asset.h>
#include <tiny_obj_loader.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace baker {

// Serves the `mtllib` requests of parse_obj (obj_parse.h) through ImportInputs, so only checked
// paths inside the root are read, and remembers which folder each material came from (texture
// paths are relative to it) and which materials state a roughness (`Pr`). Each library is read
// once, however often and under whatever spelling the OBJ names it: the parser only skips a name
// it has loaded before under the same spelling, so thousands of `mtllib d1/../a.mtl`, `mtllib
// d2/../a.mtl`, ... lines parsed the library (and copied its materials) once each: 450 KB of OBJ
// took 44 s and 15 GB. A name that failed is not retried.
//
// An `mtllib` line names one library by the rest of the line, spaces included, as exporters write
// it ("mtllib My Model.mtl"; tinyobjloader split it into "My" and "Model.mtl"); only when no file
// has that name is the line read as the OBJ spec's list of names, and every one that exists is
// loaded. parse_obj passes the whole line; as a tinyobjloader MaterialReader (for LoadObj, which
// the tests compare parse_obj with) it gets the whole line through escape_mtllib_lines().
// What an .mtl material states itself, where tinyobjloader fills in a default that is not ours.
struct MtlStated {
  bool roughness = false;  // a `Pr` line (else roughness comes from Ns)
  bool diffuse = false;    // a `Kd` line (else white: tinyobjloader's 0.6, or 0, would darken)
  // Where tinyobjloader reads the line otherwise than the MTL format means it: a `Kd`, `Ke` or `Ks`
  // of one number is grey (it read red), `Kd xyz`/`spectral` is not read here (white; it shifted
  // the numbers along), `d -halo x` is x (it read "-halo" as 0: invisible). A `Tr 1` without a `d`
  // line is a dissolve of 1 (MeshLab and openMVS write it for opaque materials; LoadMtl reads
  // 1 - Tr: invisible).
  std::optional<float> diffuse_grey, emission_grey, specular_grey, dissolve;
  // An `illum` line's model number; tinyobjloader's default, 0, would read as "colour only" for
  // every material that states none.
  std::optional<int> illumination;
};

class MtlLibraries : public tinyobj::MaterialReader {
 public:
  MtlLibraries(const std::string& obj_path, const ImportInputs& inputs,
               std::vector<std::string>& warnings)
      : obj_path_(obj_path), inputs_(inputs), warnings_(warnings) {}

  bool operator()(const std::string& name, std::vector<tinyobj::material_t>* materials,
                  std::map<std::string, int>* material_map, std::string* warn,
                  std::string* err) override;

  // Loads the libraries of one `mtllib` line (`names`, the rest of the line), as above.
  bool load_line(const std::string& names, std::vector<tinyobj::material_t>* materials,
                 std::map<std::string, int>* material_map);

  const std::string& folder_of(size_t material) const { return folders_.at(material); }
  MtlStated stated(size_t material) const {
    auto it = stated_.find(material);
    return it == stated_.end() ? MtlStated{} : it->second;
  }

 private:
  // One library by name; `report` adds a warning when it cannot be read.
  bool load(const std::string& name, std::vector<tinyobj::material_t>* materials,
            std::map<std::string, int>* material_map, bool report);
  void warn_redefined_materials(const std::string& path,
                                const std::vector<tinyobj::material_t>& library,
                                const std::map<std::string, int>& library_map,
                                const std::map<std::string, int>& material_map, int first);

  std::string obj_path_;
  const ImportInputs& inputs_;
  std::vector<std::string>& warnings_;
  std::vector<std::string> folders_;
  std::map<size_t, MtlStated> stated_;  // by material index; absent: states nothing
  std::map<std::string, bool> loaded_names_, loaded_paths_;  // name or resolved path -> was it read
};

// `obj_text` with the names of each `mtllib` line escaped (spaces and backslashes) so that
// tinyobjloader's LoadObj passes the whole rest of the line to MtlLibraries as one request, as
// parse_obj does; the text itself, not copied, when no name needs it.
std::string escape_mtllib_lines(std::string obj_text);

// tinyobjloader's split of an `mtllib` line at spaces ('\' escaping the next character); the
// last piece is kept even when empty.
std::vector<std::string> split_library_names(std::string_view text);

// The images the materials of `obj_text` (the OBJ at `obj_path`) use, each with the role its slot
// gives it (map_Kd and map_Ke colour, norm / map_Bump / bump normal) and its edges (`-clamp on`).
// Reads only the `mtllib` lines and the libraries they name; references that are unsafe or not
// UTF-8 are left out (the import warns about them). For the bake's texture plan, before any source
// bakes.
std::vector<ImageUse> obj_texture_references(std::string_view obj_text, const std::string& obj_path,
                                             const ImportInputs& inputs);

// The specular colour (Ks) of a material, each component clamped to 0..1 (0 where not finite); one
// number is grey.
void mtl_specular_colour(const tinyobj::material_t& material, MtlStated stated, float out[3]);

// One .mtl material as a MaterialInfo (named `material.name`, original_file `obj_path`):
// Kd (white when not stated, and when black beside a map_Kd, as Maya writes it: the map is the
// colour then) and d base colour, Ke / map_Ke emissive,
// Pm metalness, Pr roughness (else derived from the Blinn-Phong exponent Ns: sqrt(2 / (Ns + 2))),
// map_Kd / norm / map_Bump textures with their -o and -s options as the texture transform and -bm
// as the normal scale, map_d equal to map_Kd as alpha MASK, d < 1 as BLEND. Maps with no slot in
// the model (map_Ks, map_Pr, map_Pm, a separate map_d, disp, refl...) are warned about. Texture
// names come from inputs.texture_name.
assetlib::MaterialInfo convert_mtl_material(const tinyobj::material_t& material,
                                            const std::string& folder, MtlStated stated,
                                            const std::string& obj_path, const ImportInputs& inputs,
                                            std::vector<std::string>& warnings);

}  // namespace baker
