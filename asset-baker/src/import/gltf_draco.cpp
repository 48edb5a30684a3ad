#include "import/gltf_draco.h"

#include <draco/compression/decode.h>

#include <limits>

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

}  // namespace

DracoPrimitive decode_draco(GltfData& data, const Json& primitive, const Json& ext,
                            const std::string& path) {
  std::string where = json_path(path, "extensions.KHR_draco_mesh_compression");
  const Json& doc = data.document().json;
  uint32_t view_index =
      index_of(ext, where, "bufferView", array_size(doc, "bufferViews"), "buffer view");
  std::span<const uint8_t> bytes = data.view(view_index, where);
  draco::DecoderBuffer buffer;
  buffer.Init(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  draco::Decoder decoder;
  auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
  if (!decoded.ok())
    throw GltfError(where, "Draco data does not decode: " + decoded.status().error_msg_string());
  std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();

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
