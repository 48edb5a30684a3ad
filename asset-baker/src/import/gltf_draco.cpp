#include "import/gltf_draco.h"

#include <draco/compression/decode.h>

#include <cstring>
#include <limits>
#include <optional>

namespace baker {
namespace {

// Draco decodes normalized integers as integers; glTF asks for 0..1 / -1..1 floats.
float normalized(float value, draco::DataType type) {
  switch (type) {
    case draco::DT_UINT8: return value / 255.0f;
    case draco::DT_INT8: return std::max(value / 127.0f, -1.0f);
    case draco::DT_UINT16: return value / 65535.0f;
    case draco::DT_INT16: return std::max(value / 32767.0f, -1.0f);
    default: return value;
  }
}

// The sizes a Draco mesh announces before its data (the Draco bitstream specification, 2.2, and
// Draco's decoder for 2.0 and 2.1, whose metadata it also follows): read so that the decode, which
// allocates for them before looking further, is charged against the budget first. A stream it
// cannot follow gives no sizes and says why: damaged, or another kind (1.x, a point cloud).
struct DracoSizes {
  uint64_t faces = 0, points = 0;
};

struct DracoRefusal {
  std::string why;
  bool unsupported = false;  // a sound stream of another kind, not damage
};

class DracoHeader {
 public:
  explicit DracoHeader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  std::optional<DracoSizes> sizes(DracoRefusal& refusal) {
    constexpr uint16_t kMetadata = 0x8000;
    constexpr uint8_t kMesh = 1, kSequential = 0, kEdgebreaker = 1;
    auto refuse = [&](const char* why, bool unsupported) {
      refusal = {why, unsupported};
      return std::nullopt;
    };
    if (bytes_.size() < 11 || std::memcmp(bytes_.data(), "DRACO", 5) != 0)
      return refuse("is not Draco data (no DRACO header)", false);
    const uint32_t version = uint32_t(bytes_[5]) << 8 | bytes_[6];
    if (version < 0x200 || version > 0x202 || bytes_[7] != kMesh ||
        (bytes_[8] != kSequential && bytes_[8] != kEdgebreaker)) {
      return refuse(
          "is Draco data other than a triangle mesh of bitstream 2.0 to 2.2 (what glTF "
          "encoders write)",
          true);
    }
    const uint8_t method = bytes_[8];
    const uint16_t flags = uint16_t(bytes_[9] | bytes_[10] << 8);
    at_ = 11;
    constexpr const char* kDamaged = "is damaged Draco data (its header ends early)";
    if ((flags & kMetadata) && !skip_metadata()) return refuse(kDamaged, false);
    if (method == kSequential) {
      // Fixed 32-bit counts before bitstream 2.2, varints since.
      const std::optional<uint32_t> faces = version < 0x202 ? fixed32() : varint();
      const std::optional<uint32_t> points = version < 0x202 ? fixed32() : varint();
      if (!faces || !points) return refuse(kDamaged, false);
      return DracoSizes{*faces, *points};
    }
    ++at_;  // the traversal decoder's type
    if (version < 0x202 && !varint()) return refuse(kDamaged, false);  // new vertices, before 2.2
    const std::optional<uint32_t> vertices = varint();  // attribute seams add a few points
    const std::optional<uint32_t> faces = varint();
    if (!vertices || !faces) return refuse(kDamaged, false);
    return DracoSizes{*faces, *vertices};
  }

 private:
  std::optional<uint32_t> fixed32() {
    if (!skip(4)) return std::nullopt;
    const uint8_t* b = bytes_.data() + at_ - 4;
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  }
  std::optional<uint32_t> varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 35 && at_ < bytes_.size(); shift += 7) {
      const uint8_t byte = bytes_[at_++];
      value |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) {
        if (value > UINT32_MAX) return std::nullopt;
        return uint32_t(value);
      }
    }
    return std::nullopt;
  }
  bool skip(uint64_t n) {
    if (n > bytes_.size() - std::min<uint64_t>(at_, bytes_.size())) return false;
    at_ += n;
    return true;
  }
  // A name: a byte of length, then its bytes.
  bool skip_name() { return at_ < bytes_.size() && skip(1 + uint64_t(bytes_[at_])); }
  // A metadata element as Draco's MetadataDecoder reads it: entries of a name and a value (a
  // varint of length, not 0, then its bytes), then named sub-elements (bounded in depth: a
  // hostile chain would recurse without end).
  bool skip_element(int depth) {
    std::optional<uint32_t> entries = varint();
    if (!entries || depth > 32) return false;
    for (uint32_t i = 0; i < *entries; ++i) {
      if (!skip_name()) return false;
      const std::optional<uint32_t> value = varint();
      if (!value || *value == 0 || !skip(*value)) return false;
    }
    std::optional<uint32_t> children = varint();
    if (!children) return false;
    for (uint32_t i = 0; i < *children; ++i) {
      if (!skip_name() || !skip_element(depth + 1)) return false;
    }
    return true;
  }
  bool skip_metadata() {
    std::optional<uint32_t> attributes = varint();
    if (!attributes) return false;
    for (uint32_t i = 0; i < *attributes; ++i) {
      if (!varint() || !skip_element(0)) return false;
    }
    return skip_element(0);  // the file's
  }

  std::span<const uint8_t> bytes_;
  uint64_t at_ = 0;
};

// What decoding a Draco mesh of `sizes` allocates, Draco's structures and the copies made here:
// about 70 bytes a face and 30 a point measured (2.3 GB peak for 33.5 million faces and 16.7
// million points); rounded up.
constexpr uint64_t kDracoBytesPerFace = 80, kDracoBytesPerPoint = 40;

}  // namespace

DracoPrimitive decode_draco(GltfData& data, const Json& primitive, const Json& ext,
                            const std::string& path) {
  std::string where = json_path(path, "extensions.KHR_draco_mesh_compression");
  const Json& doc = data.document().json;
  uint32_t view_index =
      index_of(ext, where, "bufferView", array_size(doc, "bufferViews"), "buffer view");
  std::span<const uint8_t> bytes = data.view(view_index, where);
  DracoRefusal refusal;
  const std::optional<DracoSizes> sizes = DracoHeader(bytes).sizes(refusal);
  if (!sizes)
    throw GltfError(where, "buffer view " + std::to_string(view_index) + " " + refusal.why,
                    refusal.unsupported);
  data.credit_draco_view(view_index, bytes.size());
  data.spend(sizes->faces * kDracoBytesPerFace + sizes->points * kDracoBytesPerPoint, where);
  draco::DecoderBuffer buffer;
  buffer.Init(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  draco::Decoder decoder;
  auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
  if (!decoded.ok())
    throw GltfError(where, "Draco data does not decode: " + decoded.status().error_msg_string());
  std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
  // Bytes after the stream were credited as Draco data: they are not.
  data.spend(GltfData::kDracoCredit * uint64_t(std::max<int64_t>(buffer.remaining_size(), 0)),
             where);

  DracoPrimitive out;
  out.indices.reserve(size_t(mesh->num_faces()) * 3);
  for (draco::FaceIndex f(0); f < mesh->num_faces(); ++f) {
    for (int k = 0; k < 3; ++k) out.indices.push_back(mesh->face(f)[k].value());
  }
  const Json& attributes = object_or_empty(primitive, path, "attributes");
  const Json& compressed = object_or_empty(ext, where, "attributes");
  for (auto it = compressed.begin(); it != compressed.end(); ++it) {
    std::string attribute_path = json_path(json_path(where, "attributes"), it.key());
    uint32_t id = index_value(it.value(), attribute_path, std::numeric_limits<uint32_t>::max(),
                              "Draco attribute");
    const draco::PointAttribute* att = mesh->GetAttributeByUniqueId(id);
    if (!att) throw GltfError(attribute_path, "names no attribute of the Draco data");
    const Json* accessor = member(attributes, json_path(path, "attributes"), it.key().c_str());
    if (!accessor) continue;  // compressed but not used by the primitive
    uint32_t accessor_index =
        index_value(*accessor, json_path(json_path(path, "attributes"), it.key()),
                    array_size(doc, "accessors"), "accessor");
    AccessorValues values;
    values.count = data.count(accessor_index, attribute_path);
    std::string type = string_or(doc["accessors"][accessor_index],
                                 json_path("accessors", accessor_index), "type", "");
    values.components = type_components(type);
    if (values.components == 0) continue;  // a matrix or no type: the caller refuses it
    if (uint32_t(att->num_components()) != values.components) {
      throw GltfError(attribute_path, "the Draco attribute has " +
                                          std::to_string(int(att->num_components())) +
                                          " components, its accessor's type " + type);
    }
    const Json& declared = doc["accessors"][accessor_index];
    const std::string accessor_path = json_path("accessors", accessor_index);
    values.normalized = bool_or(declared, accessor_path, "normalized", false);
    // What the accessor declares the values to be (checked by the caller as for stored ones).
    values.component_type = uint32_t(uint_or(declared, accessor_path, "componentType", 0));
    if (values.count != mesh->num_points()) {
      throw GltfError(attribute_path, "Draco data holds " + std::to_string(mesh->num_points()) +
                                          " points, the accessor " + std::to_string(values.count));
    }
    values.values.resize(size_t(values.count) * values.components);
    for (draco::PointIndex p(0); p < mesh->num_points(); ++p) {
      float* element = values.values.data() + size_t(p.value()) * values.components;
      if (!att->ConvertValue<float>(att->mapped_index(p), int8_t(values.components), element))
        throw GltfError(attribute_path, "a Draco value does not convert to a number");
      if (values.normalized && !att->normalized()) {
        for (uint32_t c = 0; c < values.components; ++c)
          element[c] = normalized(element[c], att->data_type());
      }
    }
    out.attributes[it.key()] = std::move(values);
  }
  for (uint32_t i : out.indices) {
    if (i >= mesh->num_points()) throw GltfError(where, "Draco faces index past the points");
  }
  return out;
}

}  // namespace baker
