// A glTF 2.0 file in memory: its JSON and the bytes of its buffers (docs/baker.md, "glTF").
//
// Both containers are read: .gltf (JSON text, buffers in data URIs or files beside it) and .glb
// (a header, a JSON chunk and an optional BIN chunk holding buffer 0). Files a URI names are read
// through ImportInputs, so only paths inside the input root are read, and each is recorded.
#pragma once

#include "import/gltf_json.h"
#include "import/import_inputs.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace baker {

// The JSON of a glTF file (the text, or a .glb's JSON chunk). Larger JSON is refused before it is
// parsed: parsed, JSON takes up to some 40 times its text, and real scenes' JSON stays under a few
// MB (the buffers hold the bulk).
inline constexpr uint64_t kMaxGltfJsonBytes = uint64_t(32) << 20;

// The extensions the baker reads. A file that requires any other is refused; one that only uses
// another gets a warning (glTF promises a fallback for extensions that are not required).
bool supported_gltf_extension(const std::string& name);

struct GltfDocument {
  Json json;
  std::vector<std::string> buffers;  // bytes of buffers[i]; empty for a meshopt fallback buffer
  std::string source;                // root-relative path of the file
};

// Parses `bytes` (.gltf or .glb) into `json`; a .glb's BIN chunk, when there is one, into `bin`.
// Checks the container and the asset version. Throws GltfError.
void parse_gltf_container(std::span<const std::byte> bytes, Json& json,
                          std::optional<std::span<const std::byte>>& bin);

// The whole file: JSON, required extensions checked (unsupported ones listed in the error), and
// every buffer's bytes (the BIN chunk, a base64 data URI, or a file read through inputs.read_file),
// each of at least its byteLength. Warnings name the file. Throws GltfError.
void load_gltf_document(std::span<const std::byte> bytes, const std::string& source,
                        const ImportInputs& inputs, GltfDocument& out,
                        std::vector<std::string>& warnings);

// A URI of the file as a root-relative path: percent-decoded and resolved against the file's
// folder. nullopt, with `why`, for a URI that is absolute, leaves the root, or has a scheme.
std::optional<std::string> resolve_gltf_uri(const std::string& gltf_path, const std::string& uri,
                                            std::string& why);

// True for a "data:" URI; decode_data_uri gives its bytes (base64 only) or throws GltfError
// naming `path`.
bool is_data_uri(const std::string& uri);
std::string decode_data_uri(const std::string& uri, const std::string& path);

}  // namespace baker
