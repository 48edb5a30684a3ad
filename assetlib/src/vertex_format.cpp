// The table of vertex formats: names, strides and Vulkan attribute descriptions.
#include <assetlib/mesh_asset.h>

#include <cstddef>

namespace assetlib {
namespace {

// VkFormat enum values, so callers need no Vulkan headers to describe vertex input.
constexpr uint32_t kR32G32B32_SFLOAT = 106;
constexpr uint32_t kR32G32_SFLOAT = 103;
constexpr uint32_t kR8G8B8A8_SNORM = 38;
constexpr uint32_t kR8G8B8A8_UNORM = 37;
constexpr uint32_t kR16G16_SFLOAT = 83;
constexpr uint32_t kR16G16_SNORM = 78;
constexpr uint32_t kR32G32B32A32_SFLOAT = 109;
constexpr uint32_t kR8G8B8_UNORM = 23;

struct VertexFormatDesc {
  VertexFormat format;
  const char* name;
  uint32_t stride;
  uint32_t attribute_count;
  VertexAttribute attributes[6];  // position, normal, colour, uv, tangent, uv1
};

constexpr VertexFormatDesc kVertexFormats[] = {
    {VertexFormat::PNCV_F32,
     "PNCV_F32",
     sizeof(Vertex_PNCV_F32),
     4,
     {{0, kR32G32B32_SFLOAT, offsetof(Vertex_PNCV_F32, position)},
      {1, kR32G32B32_SFLOAT, offsetof(Vertex_PNCV_F32, normal)},
      {2, kR32G32B32_SFLOAT, offsetof(Vertex_PNCV_F32, color)},
      {3, kR32G32_SFLOAT, offsetof(Vertex_PNCV_F32, uv)}}},
    {VertexFormat::P32N8C8V16,
     "P32N8C8V16",
     sizeof(Vertex_P32N8C8V16),
     4,
     {{0, kR32G32B32_SFLOAT, offsetof(Vertex_P32N8C8V16, position)},
      {1, kR8G8B8A8_SNORM, offsetof(Vertex_P32N8C8V16, normal)},
      {2, kR8G8B8A8_UNORM, offsetof(Vertex_P32N8C8V16, color)},
      {3, kR16G16_SFLOAT, offsetof(Vertex_P32N8C8V16, uv)}}},
    {VertexFormat::PNCVT_F32,
     "PNCVT_F32",
     sizeof(Vertex_PNCVT_F32),
     5,
     {{0, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVT_F32, position)},
      {1, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVT_F32, normal)},
      {2, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVT_F32, color)},
      {3, kR32G32_SFLOAT, offsetof(Vertex_PNCVT_F32, uv)},
      {4, kR32G32B32A32_SFLOAT, offsetof(Vertex_PNCVT_F32, tangent)}}},
    {VertexFormat::PNCVT_OCT,
     "PNCVT_OCT",
     sizeof(Vertex_PNCVT_OCT),
     5,
     {{0, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVT_OCT, position)},
      {1, kR16G16_SNORM, offsetof(Vertex_PNCVT_OCT, normal)},
      {2, kR8G8B8A8_UNORM, offsetof(Vertex_PNCVT_OCT, color)},
      {3, kR16G16_SFLOAT, offsetof(Vertex_PNCVT_OCT, uv)},
      {4, kR8G8B8A8_SNORM, offsetof(Vertex_PNCVT_OCT, tangent)}}},
    {VertexFormat::PNCVVT_F32,
     "PNCVVT_F32",
     sizeof(Vertex_PNCVVT_F32),
     6,
     {{0, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVVT_F32, position)},
      {1, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVVT_F32, normal)},
      {2, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVVT_F32, color)},
      {3, kR32G32_SFLOAT, offsetof(Vertex_PNCVVT_F32, uv)},
      {4, kR32G32B32A32_SFLOAT, offsetof(Vertex_PNCVVT_F32, tangent)},
      {5, kR32G32_SFLOAT, offsetof(Vertex_PNCVVT_F32, uv1)}}},
    {VertexFormat::PNCVVT_OCT,
     "PNCVVT_OCT",
     sizeof(Vertex_PNCVVT_OCT),
     6,
     {{0, kR32G32B32_SFLOAT, offsetof(Vertex_PNCVVT_OCT, position)},
      {1, kR16G16_SNORM, offsetof(Vertex_PNCVVT_OCT, normal)},
      {2, kR8G8B8A8_UNORM, offsetof(Vertex_PNCVVT_OCT, color)},
      {3, kR16G16_SFLOAT, offsetof(Vertex_PNCVVT_OCT, uv)},
      {4, kR8G8B8A8_SNORM, offsetof(Vertex_PNCVVT_OCT, tangent)},
      {5, kR16G16_SFLOAT, offsetof(Vertex_PNCVVT_OCT, uv1)}}},
    // vkguide's 3-byte normal and colour: R8G8B8 (not every GPU reads it from a vertex buffer;
    // engines convert these vertices on load, as vkguide's own engine did).
    {VertexFormat::P32N8C8V16_VKGUIDE,
     "P32N8C8V16_VKGUIDE",
     sizeof(Vertex_P32N8C8V16_VKGUIDE),
     4,
     {{0, kR32G32B32_SFLOAT, offsetof(Vertex_P32N8C8V16_VKGUIDE, position)},
      {1, kR8G8B8_UNORM, offsetof(Vertex_P32N8C8V16_VKGUIDE, normal)},
      {2, kR8G8B8_UNORM, offsetof(Vertex_P32N8C8V16_VKGUIDE, color)},
      {3, kR32G32_SFLOAT, offsetof(Vertex_P32N8C8V16_VKGUIDE, uv)}}},
};

// Legacy layouts are read from legacy files only, never named in a file of ours.
bool read_only(VertexFormat format) { return format == VertexFormat::P32N8C8V16_VKGUIDE; }

const VertexFormatDesc* find(VertexFormat format) {
  for (const VertexFormatDesc& d : kVertexFormats) {
    if (d.format == format) return &d;
  }
  return nullptr;
}

}  // namespace

const char* vertex_format_name(VertexFormat format) {
  const VertexFormatDesc* d = find(format);
  return d ? d->name : "Unknown";
}

VertexFormat vertex_format_from_name(std::string_view name) {
  for (const VertexFormatDesc& d : kVertexFormats) {
    if (!read_only(d.format) && name == d.name) return d.format;
  }
  return VertexFormat::Unknown;
}

uint32_t vertex_format_stride(VertexFormat format) {
  const VertexFormatDesc* d = find(format);
  return d ? d->stride : 0;
}

uint32_t vertex_format_attributes(VertexFormat format, VertexAttribute out[8]) {
  const VertexFormatDesc* d = find(format);
  if (!d) return 0;
  for (uint32_t i = 0; i < d->attribute_count; ++i) out[i] = d->attributes[i];
  return d->attribute_count;
}

}  // namespace assetlib
