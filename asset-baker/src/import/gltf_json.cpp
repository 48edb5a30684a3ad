#include "import/gltf_json.h"

#include <cmath>

namespace baker {

std::string json_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string json_path(const std::string& array, size_t index) {
  return array + "[" + std::to_string(index) + "]";
}

const Json* member(const Json& obj, const std::string& path, const char* key) {
  if (!obj.is_object()) throw GltfError(path, "must be an object");
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const Json& object_or_empty(const Json& obj, const std::string& path, const char* key) {
  static const Json empty = Json::object();
  const Json* v = member(obj, path, key);
  if (!v) return empty;
  if (!v->is_object()) throw GltfError(json_path(path, key), "must be an object");
  return *v;
}

const Json& array_or_empty(const Json& obj, const std::string& path, const char* key) {
  static const Json empty = Json::array();
  const Json* v = member(obj, path, key);
  if (!v) return empty;
  if (!v->is_array()) throw GltfError(json_path(path, key), "must be an array");
  return *v;
}

std::string string_or(const Json& obj, const std::string& path, const char* key,
                      const std::string& fallback) {
  const Json* v = member(obj, path, key);
  if (!v) return fallback;
  if (!v->is_string()) throw GltfError(json_path(path, key), "must be a string");
  return v->get<std::string>();
}

double number_or(const Json& obj, const std::string& path, const char* key, double fallback) {
  const Json* v = member(obj, path, key);
  if (!v) return fallback;
  if (!v->is_number() || !std::isfinite(v->get<double>()) || std::fabs(v->get<double>()) > 3e38)
    throw GltfError(json_path(path, key), "must be a finite number");
  return v->get<double>();
}

bool bool_or(const Json& obj, const std::string& path, const char* key, bool fallback) {
  const Json* v = member(obj, path, key);
  if (!v) return fallback;
  if (!v->is_boolean()) throw GltfError(json_path(path, key), "must be true or false");
  return v->get<bool>();
}

uint64_t uint_or(const Json& obj, const std::string& path, const char* key, uint64_t fallback) {
  const Json* v = member(obj, path, key);
  if (!v) return fallback;
  if (!v->is_number_unsigned())
    throw GltfError(json_path(path, key), "must be an unsigned integer");
  return v->get<uint64_t>();
}

void numbers(const Json& obj, const std::string& path, const char* key, float* out, size_t count) {
  const Json* v = member(obj, path, key);
  if (!v) return;
  std::string where = json_path(path, key);
  if (!v->is_array() || v->size() != count)
    throw GltfError(where, "must be an array of " + std::to_string(count) + " numbers");
  for (size_t i = 0; i < count; ++i) {
    const Json& n = (*v)[i];
    if (!n.is_number() || !std::isfinite(n.get<double>()) || std::fabs(n.get<double>()) > 3e38)
      throw GltfError(json_path(where, i), "must be a finite number");
    out[i] = n.get<float>();
  }
}

uint32_t index_value(const Json& value, const std::string& path, size_t count, const char* what) {
  if (!value.is_number_unsigned()) throw GltfError(path, "must be an index (an unsigned integer)");
  uint64_t index = value.get<uint64_t>();
  if (index >= count) {
    throw GltfError(path, std::string(what) + " " + std::to_string(index) + " does not exist (" +
                              std::to_string(count) + " in the file)");
  }
  return uint32_t(index);
}

std::optional<uint32_t> index_or_none(const Json& obj, const std::string& path, const char* key,
                                      size_t count, const char* what) {
  const Json* v = member(obj, path, key);
  if (!v) return std::nullopt;
  return index_value(*v, json_path(path, key), count, what);
}

uint32_t index_of(const Json& obj, const std::string& path, const char* key, size_t count,
                  const char* what) {
  std::optional<uint32_t> index = index_or_none(obj, path, key, count, what);
  if (!index) throw GltfError(json_path(path, key), "is required");
  return *index;
}

size_t array_size(const Json& root, const char* key) {
  auto it = root.find(key);
  return it != root.end() && it->is_array() ? it->size() : 0;
}

}  // namespace baker
