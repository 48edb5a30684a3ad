#include "import/gltf_document.h"

#include "common/source_paths.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <set>

namespace baker {
namespace {

constexpr std::array<const char*, 8> kSupportedExtensions = {
    "KHR_draco_mesh_compression",      "EXT_meshopt_compression", "KHR_mesh_quantization",
    "KHR_texture_transform",           "KHR_materials_unlit",     "KHR_lights_punctual",
    "KHR_materials_emissive_strength", "EXT_mesh_gpu_instancing"};

uint32_t le32(const std::byte* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

Json parse_json_text(std::span<const std::byte> text) {
  if (text.size() > kMaxGltfJsonBytes) {
    throw GltfError("", "JSON of " + std::to_string(text.size()) +
                            " bytes is over the 32 MiB limit for glTF JSON");
  }
  auto begin = reinterpret_cast<const char*>(text.data());
  Json json = Json::parse(begin, begin + text.size(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) throw GltfError("", "not valid JSON");
  if (!json.is_object()) throw GltfError("", "the JSON is not an object");
  return json;
}

// A .glb: 12-byte header, then chunks of (length, type, data padded to 4 bytes). The first is the
// JSON; a BIN chunk may follow.
Json parse_glb(std::span<const std::byte> bytes, std::optional<std::span<const std::byte>>& bin) {
  if (bytes.size() < 20) throw GltfError("", "GLB header cut short");
  if (le32(bytes.data() + 4) != 2)
    throw GltfError("", "GLB container version " + std::to_string(le32(bytes.data() + 4)) +
                            " (only 2 is glTF 2.0)");
  uint64_t length = le32(bytes.data() + 8);
  if (length > bytes.size())
    throw GltfError("", "GLB header claims " + std::to_string(length) + " bytes, the file holds " +
                            std::to_string(bytes.size()));
  std::span<const std::byte> body = bytes.subspan(12, size_t(length) - 12);
  std::optional<Json> json;
  for (size_t at = 0; at + 8 <= body.size();) {
    uint64_t chunk = le32(body.data() + at), type = le32(body.data() + at + 4);
    if (chunk > body.size() - at - 8)
      throw GltfError("", "GLB chunk at byte " + std::to_string(12 + at) + " runs past the end");
    std::span<const std::byte> data = body.subspan(at + 8, size_t(chunk));
    if (!json) {
      if (type != 0x4E4F534A) throw GltfError("", "GLB: the first chunk is not JSON");
      json = parse_json_text(data);
    } else if (type == 0x004E4942 && !bin) {
      bin = data;
    }  // other chunk types are skipped, as the GLB specification says
    at += 8 + size_t(chunk);
  }
  if (!json) throw GltfError("", "GLB without a JSON chunk");
  return std::move(*json);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 3986 percent-decoding ("my%20image.png" -> "my image.png"); nullopt on a bad escape.
std::optional<std::string> percent_decoded(const std::string& uri) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out += uri[i];
      continue;
    }
    if (i + 2 >= uri.size() || hex_value(uri[i + 1]) < 0 || hex_value(uri[i + 2]) < 0)
      return std::nullopt;
    out += char(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2]));
    i += 2;
  }
  return out;
}

// Extension names of the `extensions` objects on the things the baker reads (the file, its scenes,
// nodes, meshes and primitives, materials and their texture references, textures, images and
// samplers), for files that use one without listing it in extensionsUsed. Lenient: what is not an
// object is the readers' to refuse.
std::set<std::string> extensions_present(const Json& root) {
  std::set<std::string> out;
  auto add = [&](const Json& object) {
    if (!object.is_object()) return;
    auto it = object.find("extensions");
    if (it == object.end() || !it->is_object()) return;
    for (auto e = it->begin(); e != it->end(); ++e) out.insert(e.key());
  };
  auto each = [&](const Json& object, const char* key, const auto& visit) {
    if (!object.is_object()) return;
    auto it = object.find(key);
    if (it == object.end() || !it->is_array()) return;
    for (const Json& element : *it) visit(element);
  };
  add(root);
  for (const char* key : {"scenes", "nodes", "textures", "images", "samplers"})
    each(root, key, add);
  each(root, "meshes", [&](const Json& mesh) {
    add(mesh);
    each(mesh, "primitives", add);
  });
  each(root, "materials", [&](const Json& material) {
    add(material);
    if (!material.is_object()) return;
    for (auto slot = material.begin(); slot != material.end(); ++slot) add(slot.value());
    auto pbr = material.find("pbrMetallicRoughness");
    if (pbr == material.end() || !pbr->is_object()) return;
    for (auto slot = pbr->begin(); slot != pbr->end(); ++slot) add(slot.value());
  });
  return out;
}

void check_extensions(const Json& root, const std::string& source,
                      std::vector<std::string>& warnings) {
  std::vector<std::string> unsupported;
  const Json& required = array_or_empty(root, "", "extensionsRequired");
  for (size_t i = 0; i < required.size(); ++i) {
    if (!required[i].is_string())
      throw GltfError(json_path("extensionsRequired", i), "must be a string");
    if (!supported_gltf_extension(required[i].get<std::string>()))
      unsupported.push_back(required[i].get<std::string>());
  }
  if (!unsupported.empty()) {
    std::string list;
    for (const std::string& e : unsupported) list += (list.empty() ? "" : ", ") + e;
    throw GltfError("extensionsRequired", "requires " + list + ", which the baker does not read",
                    true);
  }
  std::string ignored;
  std::set<std::string> listed;
  const Json& used = array_or_empty(root, "", "extensionsUsed");
  for (size_t i = 0; i < used.size(); ++i) {
    if (!used[i].is_string()) throw GltfError(json_path("extensionsUsed", i), "must be a string");
    listed.insert(used[i].get<std::string>());
    if (!supported_gltf_extension(used[i].get<std::string>()))
      ignored += (ignored.empty() ? "" : ", ") + used[i].get<std::string>();
  }
  if (!ignored.empty()) {
    warnings.push_back(source + ": extensions " + ignored +
                       " not baked (not required by the file: their fallbacks are)");
  }
  std::string unlisted;
  for (const std::string& name : extensions_present(root)) {
    if (!listed.count(name) && !supported_gltf_extension(name))
      unlisted += (unlisted.empty() ? "" : ", ") + name;
  }
  if (!unlisted.empty()) {
    warnings.push_back(source + ": extensions " + unlisted +
                       " not baked (used, though extensionsUsed does not list them)");
  }
}

// A buffer only EXT_meshopt_compression reads, with no data of its own.
bool meshopt_fallback(const Json& buffer, const std::string& path) {
  const Json& ext = object_or_empty(object_or_empty(buffer, path, "extensions"),
                                    json_path(path, "extensions"), "EXT_meshopt_compression");
  return bool_or(ext, json_path(path, "extensions.EXT_meshopt_compression"), "fallback", false);
}

std::string buffer_bytes(const Json& buffer, const std::string& path, size_t index,
                         const std::optional<std::span<const std::byte>>& bin,
                         const std::string& source, const ImportInputs& inputs) {
  uint64_t length = uint_or(buffer, path, "byteLength", UINT64_MAX);
  if (length == UINT64_MAX) throw GltfError(json_path(path, "byteLength"), "is required");
  std::optional<std::string> uri;
  if (member(buffer, path, "uri")) uri = string_or(buffer, path, "uri", "");
  std::string bytes;
  if (!uri) {
    if (meshopt_fallback(buffer, path)) return {};
    if (index != 0 || !bin) throw GltfError(path, "has no uri and is not a GLB's BIN chunk");
    bytes.assign(reinterpret_cast<const char*>(bin->data()), bin->size());
  } else if (is_data_uri(*uri)) {
    bytes = decode_data_uri(*uri, json_path(path, "uri"));
  } else {
    std::string why;
    std::optional<std::string> file = resolve_gltf_uri(source, *uri, why);
    if (!file) throw GltfError(json_path(path, "uri"), why);
    std::optional<std::string> read = inputs.read_file ? inputs.read_file(*file) : std::nullopt;
    if (!read) throw GltfError(json_path(path, "uri"), "cannot read '" + *file + "'");
    bytes = std::move(*read);
  }
  if (bytes.size() < length) {
    throw GltfError(path, "byteLength is " + std::to_string(length) + " but the data holds " +
                              std::to_string(bytes.size()) + " bytes");
  }
  bytes.resize(size_t(length));
  return bytes;
}

}  // namespace

bool supported_gltf_extension(const std::string& name) {
  return std::find(kSupportedExtensions.begin(), kSupportedExtensions.end(), name) !=
         kSupportedExtensions.end();
}

void parse_gltf_container(std::span<const std::byte> bytes, Json& json,
                          std::optional<std::span<const std::byte>>& bin) {
  bool glb = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
  json = glb ? parse_glb(bytes, bin) : parse_json_text(bytes);
  const Json& asset = *[&] {
    const Json* a = member(json, "", "asset");
    if (!a) throw GltfError("asset", "is required");
    return a;
  }();
  std::string version = string_or(asset, "asset", "version", "");
  if (version.rfind("2.", 0) != 0)
    throw GltfError("asset.version", "'" + version + "' is not glTF 2.x", true);
  // A later 2.x file loads as 2.0 unless its minVersion says a 2.0 reader must not read it.
  std::string min_version = string_or(asset, "asset", "minVersion", "2.0");
  if (min_version != "2.0") {
    throw GltfError("asset.minVersion",
                    "'" + min_version + "' is required to read the file; this baker reads 2.0",
                    true);
  }
}

void load_gltf_document(std::span<const std::byte> bytes, const std::string& source,
                        const ImportInputs& inputs, GltfDocument& out,
                        std::vector<std::string>& warnings) {
  std::optional<std::span<const std::byte>> bin;
  parse_gltf_container(bytes, out.json, bin);
  out.source = source;
  check_extensions(out.json, source, warnings);
  const Json& buffers = array_or_empty(out.json, "", "buffers");
  out.buffers.clear();
  for (size_t i = 0; i < buffers.size(); ++i) {
    out.buffers.push_back(
        buffer_bytes(buffers[i], json_path("buffers", i), i, bin, source, inputs));
  }
}

namespace {

// A URI as a message quotes it: whole up to 200 bytes; a longer one (a foreign scheme's payload, a
// data URI the caller did not take for one) cut, with its length, so one line stays one line.
std::string quoted_uri(const std::string& uri) {
  constexpr size_t kShown = 200;
  if (uri.size() <= kShown) return "URI '" + uri + "'";
  size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(uri[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 whole
  return "URI '" + uri.substr(0, cut) + "...' (" + std::to_string(uri.size()) + " bytes)";
}

// `text` starts with `prefix`, ignoring ASCII case.
bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         });
}

}  // namespace

std::optional<std::string> resolve_gltf_uri(const std::string& gltf_path, const std::string& uri,
                                            std::string& why) {
  std::optional<std::string> decoded = percent_decoded(uri);
  if (!decoded) {
    why = quoted_uri(uri) + " has a bad percent-escape";
    return std::nullopt;
  }
  size_t colon = decoded->find(':');
  if (colon != std::string::npos && colon > 1 && decoded->find('/') > colon) {
    why = quoted_uri(uri) + " has a scheme; only relative file names are read";
    return std::nullopt;
  }
  std::optional<std::string> path = resolve_reference(parent_of(gltf_path), *decoded, &why);
  if (path && !is_utf8(*path)) {
    why = quoted_uri(uri) + " is not valid UTF-8";
    return std::nullopt;
  }
  return path;
}

// URI schemes are case-insensitive (RFC 3986), and so are media type parameters (RFC 2045).
bool is_data_uri(const std::string& uri) { return starts_with_nocase(uri, "data:"); }

std::string decode_data_uri(const std::string& uri, const std::string& path) {
  size_t comma = uri.find(',');
  std::string header = uri.substr(0, std::min(comma, uri.size()));
  std::transform(header.begin(), header.end(), header.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (comma == std::string::npos || header.find(";base64") == std::string::npos) {
    throw GltfError(path, "a data URI that is not base64");
  }
  static const std::array<int8_t, 256> table = [] {
    std::array<int8_t, 256> t{};
    t.fill(-1);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[uint8_t(alphabet[i])] = int8_t(i);
    return t;
  }();
  std::string out;
  out.reserve((uri.size() - comma) / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  size_t i = comma + 1;
  for (; i < uri.size() && uri[i] != '='; ++i) {
    int8_t v = table[uint8_t(uri[i])];
    if (v < 0) throw GltfError(path, "base64 data URI holds an invalid character");
    acc = (acc << 6) | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += char((acc >> bits) & 0xff);
    }
  }
  for (; i < uri.size(); ++i) {
    if (uri[i] != '=') throw GltfError(path, "base64 data URI holds data after its padding");
  }
  return out;
}

}  // namespace baker
