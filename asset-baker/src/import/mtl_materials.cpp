#include "import/mtl_materials.h"

#include "common/source_paths.h"
#include "import/obj_lines.h"
#include "import/text_encoding.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

namespace baker {
namespace {

// The keys tinyobjloader reads (it tells case apart) and those it reads but no slot bakes.
const std::set<std::string, std::less<>> kMtlKeys = {
    "newmtl",   "Ka",       "Kd",    "Ks",     "Ke",     "Kt",     "Tf",     "Ns",     "Ni",
    "d",        "Tr",       "illum", "map_Ka", "map_Kd", "map_Ks", "map_Ke", "map_Ns", "map_d",
    "map_bump", "map_Bump", "bump",  "disp",   "decal",  "refl",   "norm",   "Pr",     "Pm",
    "Ps",       "Pc",       "Pcr",   "aniso",  "anisor", "map_Pr", "map_Pm", "map_Ps"};
const std::map<std::string, const char*, std::less<>> kUnslottedScalars = {
    {"Ps", "sheen"},
    {"Pc", "clearcoat"},
    {"Pcr", "clearcoat roughness"},
    {"aniso", "anisotropy"},
    {"anisor", "anisotropy rotation"}};
// Texture options that change what a map holds, which the baker does not apply (it applies -clamp,
// -o, -s and -bm; -blendu, -blendv and -texres change nothing baked).
const std::set<std::string, std::less<>> kUnappliedOptions = {"-mm", "-t", "-imfchan", "-cc"};

bool is_texture_statement(std::string_view key) {
  return key.substr(0, 4) == "map_" || key == "bump" || key == "disp" || key == "decal" ||
         key == "refl" || key == "norm";
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The numbers after a colour key: how many, the first, and whether one is outside 0..1.
struct ColourLine {
  int count = 0;
  float first = 0;
  bool outside = false;
  std::string word;  // a word in place of the first number ("xyz", "spectral")
};

ColourLine read_colour(std::istringstream& words) {
  ColourLine c;
  std::string token;
  while (words >> token) {
    char* end = nullptr;
    float v = std::strtof(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0') {
      if (c.count == 0 && c.word.empty()) c.word = token;
      continue;
    }
    if (c.count++ == 0) c.first = v;
    c.outside = c.outside || v < 0 || v > 1;
  }
  return c;
}

// What each material of `text` (an .mtl) states itself, by its index among the library's
// materials in the order tinyobjloader's LoadMtl gives them, one per `newmtl` (materials that
// state nothing of it are left out; a name defined twice has two), and `notes` on what
// tinyobjloader reads otherwise than the format means or what no slot bakes ("material 'm': ...").
std::map<size_t, MtlStated> stated_by_material(std::string_view text,
                                               std::vector<std::string>& notes) {
  std::map<size_t, MtlStated> found;
  ObjLines lines(text);
  std::string_view view;
  std::string current;
  std::optional<size_t> index;  // of the material being defined; none before the first newmtl
  std::set<std::string> noted;  // one note per material and kind
  auto note = [&](const std::string& kind, const std::string& what) {
    if (noted.insert(current + '\0' + kind).second)
      notes.push_back("material '" + current + "': " + what);
  };
  std::map<size_t, std::string> tr_invisible;  // materials whose Tr makes them fully transparent
  std::set<size_t> d_stated;
  while (lines.next(view)) {
    std::istringstream words{std::string(view)};
    std::string key;
    words >> key;
    if (key == "newmtl") {
      std::getline(words >> std::ws, current);
      while (!current.empty() && (current.back() == ' ' || current.back() == '\t'))
        current.pop_back();
      // LoadMtl takes "newmtl" with nothing after it for no statement at all.
      if (!current.empty()) index = index ? *index + 1 : 0;
      continue;
    }
    if (key.empty() || key[0] == '#' || !index) continue;
    MtlStated& stated = found[*index];
    if (!kMtlKeys.count(key)) {
      for (const std::string& known : kMtlKeys) {
        if (lower(known) == lower(key))
          note(key, "'" + key + "' is not read (keys tell case apart: '" + known + "')");
      }
      continue;
    }
    if (auto scalar = kUnslottedScalars.find(key); scalar != kUnslottedScalars.end()) {
      note(key, "'" + key + "' (" + scalar->second + ") is not baked: no such slot");
    } else if (key == "Pr") {
      stated.roughness = true;
    } else if (key == "illum") {
      int model = 0;
      if (words >> model) stated.illumination = model;
    } else if (key == "Kd" || key == "Ke" || key == "Ks") {
      ColourLine c = read_colour(words);
      const bool diffuse = key == "Kd";
      if (diffuse) stated.diffuse = true;
      std::optional<float>& grey = diffuse       ? stated.diffuse_grey
                                   : key == "Ke" ? stated.emission_grey
                                                 : stated.specular_grey;
      if (!c.word.empty()) {
        grey = diffuse ? 1.0f : 0.0f;
        note(key + "word", "'" + key + " " + c.word + " ...' (a CIE XYZ or spectral colour) is " +
                               "not read; " +
                               (diffuse       ? "white"
                                : key == "Ke" ? "no emission"
                                              : "no specular") +
                               " baked");
      } else if (c.count == 1) {
        grey = c.first;  // "if only r is specified, g and b are assumed equal to r"
      }
      if (diffuse && c.outside) note("Kd range", "'Kd' outside 0..1 clamped");
    } else if (key == "Tr") {
      // LoadMtl reads Tr as 1 - d unless a d line says otherwise. MeshLab (vcglib, to 2022) and
      // openMVS write "Tr 1" for every opaque material: alone, it would make it invisible.
      float transparency = 0;
      if (words >> transparency && transparency >= 1) tr_invisible[*index] = current;
    } else if (key == "d") {
      d_stated.insert(*index);
      std::string token;
      if (words >> token && token == "-halo") {
        float value = 1;
        if (words >> value) stated.dissolve = value;
        std::ostringstream said;
        said << "'d -halo' (dissolve by facing) is baked as a plain dissolve of " << value;
        note("halo", said.str());
      }
    } else if (is_texture_statement(key)) {
      std::string token;
      while (words >> token) {
        if (kUnappliedOptions.count(token))
          note(key + token, "texture option '" + token + "' of '" + key + "' is not applied");
      }
    }
  }
  for (const auto& [material, name] : tr_invisible) {
    if (d_stated.count(material)) continue;
    found[material].dissolve = 1;
    notes.push_back("material '" + name +
                    "': 'Tr 1' (fully transparent) without a 'd' line is read as opaque, as "
                    "MeshLab and openMVS mean it");
  }
  return found;
}

// A decimal number as MTL writes them: [sign] digits [. digits] [e [sign] digits], or [sign] .
// digits. Not "inf", "nan" or hexadecimal: file names could be those.
bool is_number(std::string_view word) {
  size_t i = 0, digits = 0;
  auto run = [&] {
    size_t start = i;
    while (i < word.size() && word[i] >= '0' && word[i] <= '9') ++i;
    return i - start;
  };
  if (i < word.size() && (word[i] == '+' || word[i] == '-')) ++i;
  digits += run();
  if (i < word.size() && word[i] == '.') ++i, digits += run();
  if (digits == 0) return false;
  if (i < word.size() && (word[i] == 'e' || word[i] == 'E')) {
    ++i;
    if (i < word.size() && (word[i] == '+' || word[i] == '-')) ++i;
    if (run() == 0) return false;
  }
  return i == word.size();
}

// The options that take up to `count` numbers, the ones left out taking `defaults`.
struct NumberedOption {
  std::string_view name;
  int count;
  const char* defaults[3];
};
constexpr NumberedOption kNumberedOptions[] = {{"-o", 3, {"0", "0", "0"}},
                                               {"-s", 3, {"1", "1", "1"}},
                                               {"-t", 3, {"0", "0", "0"}},
                                               {"-mm", 2, {"0", "1", nullptr}}};

// One texture statement's line with every -o, -s, -t and -mm option given all its numbers, and
// `-cc on|off` left out (see with_full_texture_options); the name and everything tinyobjloader
// reads right are copied as they are. `named` is false when no file name follows the options.
std::string full_texture_options(std::string_view line, bool& named) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  size_t at = 0;
  auto next_word = [&] {
    size_t start = at;
    while (at < line.size() && !blank(line[at])) ++at;
    return line.substr(start, at - start);
  };
  auto skip_blanks = [&] {
    while (at < line.size() && blank(line[at])) ++at;
  };
  skip_blanks();
  next_word();  // the statement
  std::string out(line.substr(0, at));
  // Options tinyobjloader reads right, with their word counts.
  static const std::map<std::string_view, int> kOthers = {
      {"-blendu", 1},  {"-blendv", 1}, {"-clamp", 1},      {"-boost", 1}, {"-texres", 1},
      {"-imfchan", 1}, {"-type", 1},   {"-colorspace", 1}, {"-bm", 1}};
  for (;;) {
    const size_t word_start = at;
    skip_blanks();
    const size_t option_start = at;
    std::string_view option = next_word();
    const NumberedOption* numbered = nullptr;
    for (const NumberedOption& o : kNumberedOptions) numbered = o.name == option ? &o : numbered;
    if (numbered) {
      // Appended piece by piece: GCC 12 warns falsely on a chain of string '+' (PR105651).
      out.append(" ").append(option);
      bool given = true;
      for (int k = 0; k < numbered->count; ++k) {
        const size_t before = at;
        skip_blanks();
        std::string_view word = next_word();
        given = given && is_number(word);
        if (!given) at = before;
        out.append(" ").append(given ? word : std::string_view(numbered->defaults[k]));
      }
    } else if (option == "-cc") {
      const size_t before = at;
      skip_blanks();
      std::string_view value = next_word();
      if (value != "on" && value != "off") at = before;
    } else if (auto other = kOthers.find(option); other != kOthers.end()) {
      for (int k = 0; k < other->second; ++k) {
        skip_blanks();
        next_word();
      }
      out.append(" ").append(line.substr(option_start, at - option_start));
    } else {
      named = !option.empty();
      out += line.substr(word_start);  // the name, as written
      return out;
    }
  }
}

// `text` (an .mtl) as tinyobjloader can read its texture options: it takes each of -o, -s and -t
// as three numbers (-mm as two), consuming whatever words follow, so "map_Kd -o 0.5 0.5 a.png"
// lost its name to the third number and the slot went untextured in silence. MTL lets v and w be
// left out (0 for -o and -t, 1 for -s; -mm's gain is 1): they are written out. `-cc on|off` (colour
// correction), which tinyobjloader takes for the start of the name, is left out. Other lines are
// unchanged; every line ends in '\n'. `nameless` counts the texture statements that name no file.
std::string with_full_texture_options(std::string_view text, size_t& nameless) {
  std::string out;
  out.reserve(text.size());
  ObjLines lines(text);
  std::string_view line;
  while (lines.next(line)) {
    size_t key_start = line.find_first_not_of(" \t");
    std::string_view key =
        key_start == std::string_view::npos ? std::string_view() : line.substr(key_start);
    key = key.substr(0, key.find_first_of(" \t"));
    bool named = true;
    out += is_texture_statement(key) ? full_texture_options(line, named) : std::string(line);
    nameless += !named;
    out += '\n';  // the line ends LoadMtl reads: '\r' and "\r\n" too, as ObjLines split them
  }
  return out;
}

// `-clamp on`: one copy of the map, not tiled; the edge texels beyond it are the nearest sampler
// mode a GPU has. Without it, a map repeats.
SlotSampling option_wrap(const tinyobj::texture_option_t& o) {
  using assetlib::TextureWrap;
  return o.clamp ? SlotSampling{TextureWrap::ClampToEdge, TextureWrap::ClampToEdge, std::nullopt}
                 : SlotSampling{};
}

// The textures a material uses, with their slot roles. One list for the plan and the import.
struct TextureUse {
  const std::string* name;
  const tinyobj::texture_option_t* options;
  TextureRole role;
};

std::vector<TextureUse> texture_uses(const tinyobj::material_t& m) {
  std::vector<TextureUse> uses;
  if (!m.diffuse_texname.empty())
    uses.push_back({&m.diffuse_texname, &m.diffuse_texopt, TextureRole::Color});
  if (!m.emissive_texname.empty())
    uses.push_back({&m.emissive_texname, &m.emissive_texopt, TextureRole::Color});
  if (!m.normal_texname.empty()) {
    uses.push_back({&m.normal_texname, &m.normal_texopt, TextureRole::Normal});
  } else if (!m.bump_texname.empty()) {
    uses.push_back({&m.bump_texname, &m.bump_texopt, TextureRole::Normal});
  }
  return uses;
}

// A texture an .mtl names, resolved against its folder: the root-relative path, or nullopt with
// the reason in `why`.
std::optional<std::string> texture_path(const std::string& folder, const std::string& name,
                                        std::string& why) {
  std::optional<std::string> path = resolve_reference(folder, name, &why);
  if (path && !is_utf8(*path)) {  // asset metadata is JSON, which holds only UTF-8: no match
    why = "name '" + *path + "' is not valid UTF-8";
    return std::nullopt;
  }
  return path;
}

// The slot for one texture use: its logical name (or none, with a warning) and the -o / -s
// options as a texture transform. OBJ V points up and the baker flips it (v' = 1 - v), so
// uv' = o + s * uv becomes, in the baked space, offset (o.u, 1 - o.v - s.v) and scale s.
assetlib::TextureSlot make_slot(const TextureUse& use, const std::string& folder,
                                const std::string& obj_path, const ImportInputs& inputs,
                                std::vector<std::string>& warnings) {
  assetlib::TextureSlot slot;
  std::string why;
  std::optional<std::string> path = texture_path(folder, *use.name, why);
  std::optional<std::string> name =
      path && inputs.texture_name ? inputs.texture_name(*path, use.role, why) : std::nullopt;
  if (!path) {
    warnings.push_back(obj_path + ": texture " + why + "; material left untextured");
    return slot;
  }
  if (!name) {
    warnings.push_back(obj_path + ": texture '" + *path + "' " + (why.empty() ? "not found" : why) +
                       "; material left untextured");
    return slot;
  }
  slot.texture = *name;
  const tinyobj::texture_option_t& o = *use.options;
  if (std::isfinite(o.origin_offset[0]) && std::isfinite(o.origin_offset[1]) &&
      std::isfinite(o.scale[0]) && std::isfinite(o.scale[1])) {
    slot.offset[0] = float(o.origin_offset[0]);
    slot.offset[1] = float(1 - o.origin_offset[1] - o.scale[1]);
    slot.scale[0] = float(o.scale[0]);
    slot.scale[1] = float(o.scale[1]);
  }
  const SlotSampling wrap = option_wrap(o);
  slot.wrap_u = wrap.u;
  slot.wrap_v = wrap.v;
  return slot;
}

float finite_or(double v, float fallback) { return std::isfinite(v) ? float(v) : fallback; }
float unit(double v, float fallback) { return std::clamp(finite_or(v, fallback), 0.0f, 1.0f); }

void warn_unbaked_maps(const tinyobj::material_t& m, const std::string& obj_path,
                       std::vector<std::string>& warnings) {
  const std::pair<const char*, const std::string*> unbaked[] = {
      {"map_Ka", &m.ambient_texname},
      {"map_Ks", &m.specular_texname},
      {"map_Ns", &m.specular_highlight_texname},
      {"disp", &m.displacement_texname},
      {"refl", &m.reflection_texname},
      {"map_Pr", &m.roughness_texname},
      {"map_Pm", &m.metallic_texname},
      {"map_Ps", &m.sheen_texname}};
  std::string names;
  for (const auto& [key, texture] : unbaked) {
    if (!texture->empty()) names += std::string(names.empty() ? "" : ", ") + key;
  }
  if (!m.alpha_texname.empty() && m.alpha_texname != m.diffuse_texname) {
    names += std::string(names.empty() ? "" : ", ") + "map_d (other than map_Kd)";
  }
  if (!names.empty()) {
    warnings.push_back(obj_path + ": material '" + m.name + "': " + names +
                       " not baked (no such slot in the material model; docs/baker.md)");
  }
}

}  // namespace

bool MtlLibraries::operator()(const std::string& name, std::vector<tinyobj::material_t>* materials,
                              std::map<std::string, int>* material_map, std::string*,
                              std::string*) {
  return load_line(name, materials, material_map);
}

std::vector<std::string> split_library_names(std::string_view text) {
  std::vector<std::string> names;
  std::string name;
  bool escaping = false;
  for (char c : text) {
    if (escaping) {
      escaping = false;
    } else if (c == '\\') {
      escaping = true;
      continue;
    } else if (c == ' ') {
      if (!name.empty()) names.push_back(name);
      name.clear();
      continue;
    }
    name += c;
  }
  names.push_back(name);
  return names;
}

bool MtlLibraries::load_line(const std::string& names, std::vector<tinyobj::material_t>* materials,
                             std::map<std::string, int>* material_map) {
  bool one_name = names.find_first_of(" \t") == std::string::npos;
  if (load(names, materials, material_map, one_name)) return true;
  if (one_name) return false;
  // "my\ lib.mtl" escapes its space as tinyobjloader reads it; without such an escape, a
  // backslash is a Windows path's ("..\mats\a.mtl b.mtl") and the words split at blanks.
  std::vector<std::string> words;
  if (names.find("\\ ") != std::string::npos) {
    words = split_library_names(names);
  } else {
    std::istringstream blank_separated(names);
    for (std::string word; blank_separated >> word;) words.push_back(word);
  }
  bool any = false;
  for (const std::string& word : words)
    any = (!word.empty() && load(word, materials, material_map, false)) || any;
  if (!any) {
    warnings_.push_back(obj_path_ + ": material library '" + names +
                        "' not found (nor a library for each of its words); default material used");
  }
  return any;
}

// A name that a `newmtl` defines again, in this library or after an earlier one: usemtl picks the
// first definition (tinyobjloader's map keeps it), so the later one is never drawn.
void MtlLibraries::warn_redefined_materials(const std::string& path,
                                            const std::vector<tinyobj::material_t>& library,
                                            const std::map<std::string, int>& library_map,
                                            const std::map<std::string, int>& material_map,
                                            int first) {
  size_t redefined = 0;
  const std::string* example = nullptr;
  for (size_t i = 0; i < library.size(); ++i) {
    auto in_library = library_map.find(library[i].name);
    auto overall = material_map.find(library[i].name);
    const bool first_definition = in_library != library_map.end() && in_library->second == int(i) &&
                                  overall != material_map.end() &&
                                  overall->second == first + int(i);
    if (first_definition) continue;
    if (redefined++ == 0) example = &library[i].name;
  }
  if (redefined == 0) return;
  warnings_.push_back(obj_path_ + ": material library '" + path +
                      "': " + std::to_string(redefined) +
                      " newmtl statement(s) define a name again (first: '" + *example +
                      "'); usemtl uses the first definition of a name");
}

namespace {

// tinyobjloader takes a material's name from the 8th character of its newmtl line on, so
// "newmtl  red" (two blanks) defines " red", which no usemtl names: usemtl and
// stated_by_material read names without the blanks around them. So are the names made here; the
// map keeps each name's first definition, as tinyobjloader's does.
void trim_material_names(std::vector<tinyobj::material_t>& library,
                         std::map<std::string, int>& library_map) {
  library_map.clear();
  for (size_t i = 0; i < library.size(); ++i) {
    std::string& name = library[i].name;
    const size_t begin = name.find_first_not_of(" \t");
    const size_t end = name.find_last_not_of(" \t");
    name = begin == std::string::npos ? "" : name.substr(begin, end - begin + 1);
    library_map.try_emplace(name, int(i));
  }
}

}  // namespace

bool MtlLibraries::load(const std::string& name, std::vector<tinyobj::material_t>* materials,
                        std::map<std::string, int>* material_map, bool report) {
  auto [by_name, new_name] = loaded_names_.try_emplace(name, false);
  if (!new_name) return by_name->second;
  std::string why;
  std::optional<std::string> path = resolve_reference(parent_of(obj_path_), name, &why);
  if (!path) {
    if (report) warnings_.push_back(obj_path_ + ": mtllib " + why);
    return false;
  }
  auto [by_path, new_path] = loaded_paths_.try_emplace(*path, false);
  if (!new_path) return by_name->second = by_path->second;
  std::optional<std::string> raw = inputs_.read_file ? inputs_.read_file(*path) : std::nullopt;
  std::string text;
  if (raw && !utf8_text(*raw, *path, text)) raw.reset();
  if (!raw) {
    if (report) {
      warnings_.push_back(obj_path_ + ": material library '" + *path +
                          "' not found or not readable; default material used");
    }
    return false;
  }
  std::map<std::string, int> library_map;
  std::vector<tinyobj::material_t> library;
  size_t nameless = 0;
  std::istringstream stream(with_full_texture_options(text, nameless));
  if (nameless > 0) {
    warnings_.push_back(obj_path_ + ": material library '" + *path +
                        "': " + std::to_string(nameless) +
                        " texture statement(s) name no file after their options; not baked");
  }
  std::string warn, err;
  tinyobj::LoadMtl(&library_map, &library, &stream, &warn, &err);
  trim_material_names(library, library_map);
  // Appended after the materials of earlier libraries, as tinyobjloader numbers them.
  size_t first = materials->size();
  std::vector<std::string> notes;
  for (const auto& [i, stated] : stated_by_material(text, notes)) stated_[first + i] = stated;
  for (const std::string& n : notes)
    warnings_.push_back(obj_path_ + ": material library '" + *path + "': " + n);
  for (auto& [material_name, index] : library_map) {
    material_map->emplace(material_name, int(first) + index);
  }
  warn_redefined_materials(*path, library, library_map, *material_map, int(first));
  materials->insert(materials->end(), library.begin(), library.end());
  folders_.resize(materials->size(), parent_of(*path));
  return by_name->second = by_path->second = true;
}

namespace {

// The rest of an `mtllib` line: the text after the keyword and its whitespace, without trailing
// whitespace. Empty when `line` is not an `mtllib` line.
std::string_view mtllib_names(std::string_view line) {
  size_t at = line.find_first_not_of(" \t");
  if (at == std::string_view::npos || line.substr(at, 6) != "mtllib" || line.size() <= at + 6 ||
      (line[at + 6] != ' ' && line[at + 6] != '\t'))
    return {};
  line.remove_prefix(at + 6);
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  line = line.substr(0, line.find('\0'));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line;
}

}  // namespace

namespace {

bool is_line_end(char c) { return c == '\n' || c == '\r'; }

// Calls visit(line, names) for each `mtllib` line of `text` (lines as ObjLines splits them), in
// order. Finds the keyword with string_view::find (memchr on its first letter) rather than
// walking every line: an OBJ has a few mtllib lines among millions, and this runs twice per OBJ
// (the texture plan and the import).
template <typename Visit>
void for_each_mtllib_line(std::string_view text, Visit visit) {
  for (size_t at = text.find("mtllib"); at != std::string_view::npos;) {
    size_t start = at;
    while (start > 0 && !is_line_end(text[start - 1])) --start;
    size_t end = at;
    while (end < text.size() && !is_line_end(text[end])) ++end;
    std::string_view line = text.substr(start, end - start);
    if (std::string_view names = mtllib_names(line); !names.empty()) visit(line, names);
    at = text.find("mtllib", end);
  }
}

}  // namespace

std::string escape_mtllib_lines(std::string obj_text) {
  auto needs_escape = [](char c) { return c == ' ' || c == '\t' || c == '\\'; };
  // A line already reads "mtllib <names>" with nothing to escape in the usual case: no copy then.
  bool any = false;
  for_each_mtllib_line(obj_text, [&](std::string_view line, std::string_view names) {
    any = any || line.size() != 7 + names.size() || line.substr(0, 7) != "mtllib " ||
          std::any_of(names.begin(), names.end(), needs_escape);
  });
  if (!any) return obj_text;
  std::string out;
  out.reserve(obj_text.size());
  size_t copied = 0;
  for_each_mtllib_line(obj_text, [&](std::string_view line, std::string_view names) {
    size_t line_at = size_t(line.data() - obj_text.data());
    out.append(obj_text, copied, line_at - copied);
    out += "mtllib ";
    for (char c : names) {
      if (needs_escape(c)) out += '\\';
      out += c;
    }
    copied = line_at + line.size();
  });
  out.append(obj_text, copied);
  return out;
}

// An .mtl has no alpha test of its own: a material whose opacity map (`map_d`) is its colour map
// is a cut-out (foliage, fences), drawn masked at the default cutoff. Its opacity (`d`) scales
// the map's alpha.
bool is_cut_out(const tinyobj::material_t& m) {
  return !m.alpha_texname.empty() && m.alpha_texname == m.diffuse_texname;
}
float opacity(const tinyobj::material_t& m, MtlStated stated) {
  return unit(stated.dissolve.value_or(m.dissolve), 1);
}

std::vector<ImageUse> obj_texture_references(std::string_view obj_text, const std::string& obj_path,
                                             const ImportInputs& inputs) {
  std::vector<std::string> ignored;
  MtlLibraries libraries(obj_path, inputs, ignored);
  std::vector<tinyobj::material_t> materials;
  std::map<std::string, int> material_map;
  std::string converted;
  std::string_view text;
  if (!utf8_view(obj_text, obj_path, converted, text)) return {};
  for_each_mtllib_line(text, [&](std::string_view, std::string_view names) {
    libraries.load_line(std::string(names), &materials, &material_map);
  });
  std::vector<ImageUse> references;
  for (size_t i = 0; i < materials.size(); ++i) {
    for (const TextureUse& use : texture_uses(materials[i])) {
      std::string why;
      auto path = texture_path(libraries.folder_of(i), *use.name, why);
      if (!path) continue;
      SlotSampling sampling = option_wrap(*use.options);
      if (use.name == &materials[i].diffuse_texname && is_cut_out(materials[i])) {
        sampling.alpha_cutoff = masked_texture_cutoff(assetlib::MaterialInfo().alpha_cutoff,
                                                      opacity(materials[i], libraries.stated(i)));
      }
      references.push_back({*path, use.role, sampling});
    }
  }
  return references;
}

void mtl_specular_colour(const tinyobj::material_t& m, MtlStated stated, float out[3]) {
  for (int k = 0; k < 3; ++k) out[k] = unit(stated.specular_grey.value_or(m.specular[k]), 0);
}

assetlib::MaterialInfo convert_mtl_material(const tinyobj::material_t& m, const std::string& folder,
                                            MtlStated stated, const std::string& obj_path,
                                            const ImportInputs& inputs,
                                            std::vector<std::string>& warnings) {
  assetlib::MaterialInfo out;
  out.name = m.name;
  out.original_file = obj_path;
  for (int k = 0; k < 3; ++k) {
    out.base_color_factor[k] =
        stated.diffuse ? unit(stated.diffuse_grey.value_or(m.diffuse[k]), 1) : 1.0f;
    out.emissive_factor[k] =
        std::max(finite_or(stated.emission_grey.value_or(m.emission[k]), 0), 0.0f);
  }
  out.base_color_factor[3] = opacity(m, stated);
  // Maya writes "Kd 0 0 0" for every material whose colour a texture gives: multiplying the map by
  // black is what the format says, but no exporter means a black model.
  if (!m.diffuse_texname.empty() && out.base_color_factor[0] == 0 &&
      out.base_color_factor[1] == 0 && out.base_color_factor[2] == 0) {
    std::fill(out.base_color_factor, out.base_color_factor + 3, 1.0f);
    warnings.push_back(obj_path + ": material '" + m.name +
                       "': 'Kd 0 0 0' beside map_Kd (as Maya writes it) is read as white: the map "
                       "is the colour");
  }
  out.metallic_factor = unit(m.metallic, 0);
  // Ns is a Blinn-Phong exponent (0..1000); sqrt(2 / (Ns + 2)) is the matching GGX roughness.
  float shininess = std::max(finite_or(m.shininess, 0), 0.0f);
  out.roughness_factor =
      stated.roughness ? unit(m.roughness, 1) : std::sqrt(2.0f / (shininess + 2.0f));
  if (out.base_color_factor[3] < 1) out.alpha_mode = assetlib::AlphaMode::Blend;
  // Illumination model 0 is "colour on, ambient off": the colour as it is, without lighting.
  out.unlit = stated.illumination == 0;
  for (const TextureUse& use : texture_uses(m)) {
    assetlib::TextureSlot slot = make_slot(use, folder, obj_path, inputs, warnings);
    if (use.name == &m.diffuse_texname) {
      out.base_color = slot;
    } else if (use.name == &m.emissive_texname) {
      out.emissive = slot;
      // Ke multiplies map_Ke; an exporter that leaves Ke at 0 beside a map means the map.
      if (out.emissive_factor[0] + out.emissive_factor[1] + out.emissive_factor[2] == 0) {
        std::fill(out.emissive_factor, out.emissive_factor + 3, 1.0f);
      }
    } else {
      out.normal = slot;
      out.normal_scale = finite_or(use.options->bump_multiplier, 1);
    }
  }
  if (is_cut_out(m)) out.alpha_mode = assetlib::AlphaMode::Mask;
  warn_unbaked_maps(m, obj_path, warnings);
  return out;
}

}  // namespace baker
