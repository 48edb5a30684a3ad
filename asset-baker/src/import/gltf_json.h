// Reading the glTF JSON strictly, naming the JSON path of every problem
// ("meshes[2].primitives[0].indices: ..."), for the glTF importer's files (gltf_*.h).
//
// glTF is read with nlohmann_json and these checks rather than tinygltf: tinygltf 2.7 narrows
// integers with a cast (an index of 4294967296 becomes 0), skips optional indices of the wrong type
// without a word (a "material": "x" primitive bakes untextured), and reads every external image
// eagerly. Each of those would be a wrong asset with exit 0; here each is an error naming the path.
#pragma once

#include "common/bake_status.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace baker {

using Json = nlohmann::json;

// A problem in the file: what is wrong, at which JSON path. Thrown by the readers below and
// caught once, at the importer's entry, where it becomes the source's BakeStatus.
struct GltfError : std::runtime_error {
  GltfError(const std::string& path, const std::string& what, BakeError error)
      : std::runtime_error(path.empty() ? what : path + ": " + what), code(error) {}
  // `not_supported`: a valid file using something the baker does not bake.
  GltfError(const std::string& path, const std::string& what, bool not_supported = false)
      : GltfError(path, what,
                  not_supported ? BakeError::UnsupportedFeature : BakeError::InvalidSource) {}
  BakeError code;  // InvalidSource, UnsupportedFeature or LimitExceeded
};

// "meshes[2]" from ("meshes", 2); "meshes[2].primitives" from ("meshes[2]", "primitives").
std::string json_path(const std::string& parent, const std::string& key);
std::string json_path(const std::string& array, size_t index);

// The member `key` of the object `obj` (at `path`), or nullptr when absent. Throws when `obj`
// is not an object.
const Json* member(const Json& obj, const std::string& path, const char* key);

// Typed reads of optional members: the fallback when absent, a GltfError when of the wrong type.
const Json& object_or_empty(const Json& obj, const std::string& path, const char* key);
const Json& array_or_empty(const Json& obj, const std::string& path, const char* key);
std::string string_or(const Json& obj, const std::string& path, const char* key,
                      const std::string& fallback);
double number_or(const Json& obj, const std::string& path, const char* key, double fallback);
bool bool_or(const Json& obj, const std::string& path, const char* key, bool fallback);
uint64_t uint_or(const Json& obj, const std::string& path, const char* key, uint64_t fallback);
// `count` numbers into `out` (unchanged when absent).
void numbers(const Json& obj, const std::string& path, const char* key, float* out, size_t count);

// An index into an array of `count` entries (named `what` in messages): nullopt when absent,
// a GltfError when not an unsigned integer or out of range.
std::optional<uint32_t> index_or_none(const Json& obj, const std::string& path, const char* key,
                                      size_t count, const char* what);
// The same, for a required index.
uint32_t index_of(const Json& obj, const std::string& path, const char* key, size_t count,
                  const char* what);
// An array element used as an index (children, scene nodes).
uint32_t index_value(const Json& value, const std::string& path, size_t count, const char* what);

// The number of entries of the top-level array `key` (0 when absent).
size_t array_size(const Json& root, const char* key);

}  // namespace baker
