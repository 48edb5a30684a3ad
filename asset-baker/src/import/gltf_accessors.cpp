#include "import/gltf_accessors.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace baker {
namespace {

uint32_t component_size(uint32_t type) {
  switch (type) {
    case 5120:
    case 5121: return 1;
    case 5122:
    case 5123: return 2;
    case 5125:
    case 5126: return 4;
  }
  return 0;
}

float component(const uint8_t* p, uint32_t type, bool normalized) {
  switch (type) {
    case 5120: {
      int8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? std::max(float(v) / 127.0f, -1.0f) : float(v);
    }
    case 5121: return normalized ? float(*p) / 255.0f : float(*p);
    case 5122: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(float(v) / 32767.0f, -1.0f) : float(v);
    }
    case 5123: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? float(v) / 65535.0f : float(v);
    }
    case 5125: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return float(v);
    }
    default: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

uint32_t unsigned_index(const uint8_t* p, uint32_t type) {
  if (type == 5121) return *p;
  if (type == 5123) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// The elements of `count` values of `element` bytes, `stride` apart from `offset` in `view`, must
// lie inside it. Every number comes from the file, so nothing is added or multiplied before it is
// known not to wrap (offset + stride * (count - 1) + element could, to pass a bounds check).
void check_range(std::span<const uint8_t> view, uint64_t offset, uint64_t stride, uint64_t count,
                 uint64_t element, const std::string& path) {
  if (count == 0) return;
  const uint64_t size = view.size();
  const bool inside =
      offset <= size && element <= size - offset &&
      (count == 1 || (stride > 0 && (count - 1) <= (size - offset - element) / stride));
  if (!inside) {
    throw GltfError(path, "reads " + std::to_string(count) + " elements of " +
                              std::to_string(element) + " bytes, " + std::to_string(stride) +
                              " apart, from byte " + std::to_string(offset) +
                              " of a buffer view of " + std::to_string(size) + " bytes");
  }
}

}  // namespace

uint32_t type_components(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  return 0;  // matrices are never vertex data the baker reads
}

GltfData::GltfData(const GltfDocument& doc, uint64_t file_bytes) : doc_(doc) {
  uint64_t input = file_bytes;
  for (const std::string& b : doc.buffers) input += b.size();
  budget_ = kMaxExpansion * input + (uint64_t(64) << 20);
}

void GltfData::credit_draco_view(uint32_t index, uint64_t bytes) {
  if (draco_views_.insert(index).second) budget_ += kDracoCredit * bytes;
}

void GltfData::spend(uint64_t bytes, const std::string& path) {
  if (bytes > budget_) {
    throw GltfError(path,
                    "decodes to more data than a file of this size can hold (" +
                        std::to_string(kMaxExpansion) + "x its bytes, plus 64 MiB)",
                    BakeError::LimitExceeded);
  }
  budget_ -= bytes;
}

std::span<const uint8_t> GltfData::view(uint32_t index, const std::string& path) {
  const Json& views = array_or_empty(doc_.json, "", "bufferViews");
  if (index >= views.size())
    throw GltfError(path, "buffer view " + std::to_string(index) + " does not exist");
  std::string where = json_path("bufferViews", index);
  const Json& v = views[index];
  const Json& ext = object_or_empty(object_or_empty(v, where, "extensions"),
                                    json_path(where, "extensions"), "EXT_meshopt_compression");
  if (!ext.empty())
    return decode_meshopt(index, ext, json_path(where, "extensions.EXT_meshopt_compression"));
  uint32_t buffer = index_of(v, where, "buffer", doc_.buffers.size(), "buffer");
  uint64_t offset = uint_or(v, where, "byteOffset", 0);
  uint64_t length = uint_or(v, where, "byteLength", UINT64_MAX);
  if (length == UINT64_MAX) throw GltfError(json_path(where, "byteLength"), "is required");
  const std::string& data = doc_.buffers[buffer];
  if (offset > data.size() || length > data.size() - offset) {
    throw GltfError(where, "bytes " + std::to_string(offset) + ".." +
                               std::to_string(offset + length) + " lie outside buffer " +
                               std::to_string(buffer) + " (" + std::to_string(data.size()) +
                               " bytes)");
  }
  return {reinterpret_cast<const uint8_t*>(data.data()) + offset, size_t(length)};
}

std::span<const uint8_t> GltfData::decode_meshopt(uint32_t index, const Json& ext,
                                                  const std::string& path) {
  auto known = decoded_.find(index);
  if (known != decoded_.end()) return known->second;
  uint32_t buffer = index_of(ext, path, "buffer", doc_.buffers.size(), "buffer");
  uint64_t offset = uint_or(ext, path, "byteOffset", 0);
  uint64_t length = uint_or(ext, path, "byteLength", 0);
  uint64_t stride = uint_or(ext, path, "byteStride", 0);
  uint64_t count = uint_or(ext, path, "count", 0);
  std::string mode = string_or(ext, path, "mode", "");
  std::string filter = string_or(ext, path, "filter", "NONE");
  const std::string& data = doc_.buffers[buffer];
  if (offset > data.size() || length > data.size() - offset)
    throw GltfError(path, "compressed bytes lie outside buffer " + std::to_string(buffer));
  if (stride == 0 || stride > 256 || count == 0 || count > (uint64_t(1) << 28))
    throw GltfError(path, "byteStride or count out of range");
  spend(count * stride, path);
  std::vector<uint8_t>& out = decoded_[index];
  out.resize(size_t(count * stride));
  auto src = reinterpret_cast<const unsigned char*>(data.data()) + offset;
  int result = -1;
  if (mode == "ATTRIBUTES" && stride % 4 == 0) {
    result = meshopt_decodeVertexBuffer(out.data(), count, stride, src, length);
  } else if (mode == "TRIANGLES" && (stride == 2 || stride == 4) && count % 3 == 0) {
    result = meshopt_decodeIndexBuffer(out.data(), count, stride, src, length);
  } else if (mode == "INDICES" && (stride == 2 || stride == 4)) {
    result = meshopt_decodeIndexSequence(out.data(), count, stride, src, length);
  } else {
    decoded_.erase(index);
    throw GltfError(path, "mode '" + mode + "' with byteStride " + std::to_string(stride) +
                              " is not a valid combination");
  }
  if (result != 0) {
    decoded_.erase(index);
    throw GltfError(path, "compressed data is malformed (meshoptimizer decoder: " +
                              std::to_string(result) + ")");
  }
  if (filter == "OCTAHEDRAL" && (stride == 4 || stride == 8)) {
    meshopt_decodeFilterOct(out.data(), count, stride);
  } else if (filter == "QUATERNION" && stride == 8) {
    meshopt_decodeFilterQuat(out.data(), count, stride);
  } else if (filter == "EXPONENTIAL" && stride % 4 == 0) {
    meshopt_decodeFilterExp(out.data(), count, stride);
  } else if (filter != "NONE") {
    decoded_.erase(index);
    throw GltfError(path, "filter '" + filter + "' with byteStride " + std::to_string(stride) +
                              " is not a valid combination");
  }
  return out;
}

uint32_t GltfData::count(uint32_t index, const std::string& path) const {
  const Json& accessors = array_or_empty(doc_.json, "", "accessors");
  if (index >= accessors.size())
    throw GltfError(path, "accessor " + std::to_string(index) + " does not exist");
  std::string where = json_path("accessors", index);
  uint64_t n = uint_or(accessors[index], where, "count", 0);
  if (n == 0) throw GltfError(json_path(where, "count"), "must be within 1..2^28");
  if (n > (uint64_t(1) << 28))
    throw GltfError(json_path(where, "count"), "must be within 1..2^28", BakeError::LimitExceeded);
  return uint32_t(n);
}

std::string GltfData::checked_type(uint32_t index, const std::string& path,
                                   std::initializer_list<const char*> allowed) const {
  const std::string where = json_path("accessors", index);
  std::string type = string_or(doc_.json["accessors"][index], where, "type", "");
  if (std::none_of(allowed.begin(), allowed.end(), [&](const char* t) { return type == t; })) {
    throw GltfError(path,
                    "accessor " + std::to_string(index) + " of type '" + type + "' cannot hold it");
  }
  return type;
}

AccessorValues GltfData::raw(uint32_t index, const std::string& path,
                             std::initializer_list<const char*> allowed,
                             std::vector<uint8_t>& packed) {
  AccessorValues out;
  out.count = count(index, path);
  std::string where = json_path("accessors", index);
  const Json& a = doc_.json["accessors"][index];
  const std::string type = checked_type(index, path, allowed);
  // A 4x4 matrix needs no column padding whatever its component size (glTF 2.0, 3.6.2.4).
  out.components = type == "MAT4" ? 16 : type_components(type);
  out.component_type = uint32_t(uint_or(a, where, "componentType", 0));
  out.normalized = bool_or(a, where, "normalized", false);
  uint32_t size = component_size(out.component_type);
  if (size == 0)
    throw GltfError(json_path(where, "componentType"), "is not a valid component type here");
  if (out.normalized && (out.component_type == 5125 || out.component_type == 5126)) {
    throw GltfError(json_path(where, "normalized"),
                    "is true on a component type glTF never normalizes (float or unsigned int)");
  }
  const uint64_t element = uint64_t(size) * out.components;
  spend(uint64_t(out.count) * element, where);
  packed.assign(size_t(out.count * element), 0);  // an accessor without a buffer view is zeros
  size_t views = array_size(doc_.json, "bufferViews");
  if (std::optional<uint32_t> v = index_or_none(a, where, "bufferView", views, "buffer view")) {
    std::span<const uint8_t> bytes = view(*v, where);
    uint64_t stride =
        uint_or(doc_.json["bufferViews"][*v], json_path("bufferViews", *v), "byteStride", 0);
    if (stride == 0) stride = element;
    if (stride < element)
      throw GltfError(where, "elements overlap: the buffer view's byteStride is under an element");
    uint64_t offset = uint_or(a, where, "byteOffset", 0);
    check_range(bytes, offset, stride, out.count, element, where);
    for (uint32_t i = 0; i < out.count; ++i)
      std::memcpy(&packed[i * element], bytes.data() + offset + stride * i, size_t(element));
  }
  const Json& sparse = object_or_empty(a, where, "sparse");
  if (sparse.empty()) return out;
  std::string sp = json_path(where, "sparse");
  uint64_t n = uint_or(sparse, sp, "count", 0);
  if (n == 0 || n > out.count) throw GltfError(json_path(sp, "count"), "must be within 1..count");
  std::string ip = json_path(sp, "indices"), vp = json_path(sp, "values");
  const Json& ind = object_or_empty(sparse, sp, "indices");
  const Json& val = object_or_empty(sparse, sp, "values");
  uint32_t index_type = uint32_t(uint_or(ind, ip, "componentType", 0));
  if (index_type != 5121 && index_type != 5123 && index_type != 5125)
    throw GltfError(json_path(ip, "componentType"), "must be an unsigned integer type");
  uint32_t index_size = component_size(index_type);
  std::span<const uint8_t> index_bytes =
      view(index_of(ind, ip, "bufferView", views, "buffer view"), ip);
  std::span<const uint8_t> value_bytes =
      view(index_of(val, vp, "bufferView", views, "buffer view"), vp);
  uint64_t index_offset = uint_or(ind, ip, "byteOffset", 0);
  uint64_t value_offset = uint_or(val, vp, "byteOffset", 0);
  check_range(index_bytes, index_offset, index_size, n, index_size, ip);
  check_range(value_bytes, value_offset, element, n, element, vp);
  int64_t previous = -1;
  for (uint64_t k = 0; k < n; ++k) {
    uint32_t target =
        unsigned_index(index_bytes.data() + index_offset + k * index_size, index_type);
    if (int64_t(target) <= previous || target >= out.count)
      throw GltfError(ip, "indices must increase and stay below the accessor's count");
    previous = target;
    std::memcpy(&packed[target * element], value_bytes.data() + value_offset + k * element,
                size_t(element));
  }
  return out;
}

AccessorValues GltfData::floats(uint32_t index, const std::string& path,
                                std::initializer_list<const char*> allowed) {
  std::vector<uint8_t> packed;
  AccessorValues out = raw(index, path, allowed, packed);
  uint32_t size = component_size(out.component_type);
  spend(uint64_t(out.count) * out.components * sizeof(float), path);
  out.values.resize(size_t(out.count) * out.components);
  for (size_t i = 0; i < out.values.size(); ++i)
    out.values[i] = component(&packed[i * size], out.component_type, out.normalized);
  return out;
}

AccessorValues& copy_to_change(GltfData& data, std::shared_ptr<const AccessorValues>& values,
                               const std::string& path) {
  data.spend(uint64_t(values->values.size()) * sizeof(float), path);
  auto copy = std::make_shared<AccessorValues>(*values);
  AccessorValues& changed = *copy;
  values = std::move(copy);
  return changed;
}

std::shared_ptr<const AccessorValues> GltfData::shared_floats(
    uint32_t index, const std::string& path, std::initializer_list<const char*> allowed) {
  auto it = shared_.find(index);
  if (it == shared_.end()) {
    it =
        shared_.emplace(index, std::make_shared<const AccessorValues>(floats(index, path, allowed)))
            .first;
  } else {
    checked_type(index, path, allowed);  // this use may allow other types than the first
  }
  return it->second;
}

std::vector<uint32_t> GltfData::indices(uint32_t index, const std::string& path) {
  std::vector<uint8_t> packed;
  AccessorValues layout = raw(index, path, {"SCALAR"}, packed);
  uint32_t type = layout.component_type;
  if (layout.normalized || (type != 5121 && type != 5123 && type != 5125)) {
    throw GltfError(path, "accessor " + std::to_string(index) +
                              " must hold unsigned bytes, shorts or ints to be indices");
  }
  uint32_t size = component_size(type);
  std::vector<uint32_t> out(layout.count);
  for (size_t i = 0; i < out.size(); ++i) out[i] = unsigned_index(&packed[i * size], type);
  return out;
}

}  // namespace baker
