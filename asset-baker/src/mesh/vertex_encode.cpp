#include "mesh/vertex_encode.h"

#include "common/half_float.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace baker {
namespace {

int8_t snorm8(float v) { return int8_t(std::lround(std::clamp(v, -1.0f, 1.0f) * 127.0f)); }
int16_t snorm16(float v) { return int16_t(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f)); }
uint8_t unorm8(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

// Octahedral encoding of a unit vector into [-1, 1]^2 (docs/format.md has the decode).
void octahedral(const float n[3], float out[2]) {
  float l1 = std::fabs(n[0]) + std::fabs(n[1]) + std::fabs(n[2]);
  if (l1 == 0) {
    out[0] = out[1] = 0;
    return;
  }
  float x = n[0] / l1, y = n[1] / l1;
  if (n[2] < 0) {
    float ox = (1.0f - std::fabs(y)) * (x >= 0 ? 1.0f : -1.0f);
    float oy = (1.0f - std::fabs(x)) * (y >= 0 ? 1.0f : -1.0f);
    x = ox;
    y = oy;
  }
  out[0] = x;
  out[1] = y;
}

template <typename Out, typename Convert>
std::vector<std::byte> encode_as(const std::vector<MeshVertex>& in, Convert convert) {
  std::vector<std::byte> bytes(in.size() * sizeof(Out));
  for (size_t i = 0; i < in.size(); ++i) {
    Out v = convert(in[i]);
    std::memcpy(bytes.data() + i * sizeof(Out), &v, sizeof(Out));
  }
  return bytes;
}

assetlib::Vertex_PNCV_F32 to_pncv(const MeshVertex& v) {
  assetlib::Vertex_PNCV_F32 o;
  std::memcpy(&o, &v, sizeof o);  // MeshVertex starts with PNCV_F32's 44 bytes
  return o;
}

assetlib::Vertex_PNCVT_F32 to_pncvt(const MeshVertex& v) {
  assetlib::Vertex_PNCVT_F32 o;
  std::memcpy(&o, &v, sizeof(assetlib::Vertex_PNCV_F32));
  std::memcpy(o.tangent, v.tangent, sizeof o.tangent);
  return o;
}

assetlib::Vertex_PNCVVT_F32 to_pncvvt(const MeshVertex& v) {
  assetlib::Vertex_PNCVVT_F32 o;
  std::memcpy(&o, &v, sizeof o);  // MeshVertex starts with PNCVVT_F32's 68 bytes
  return o;
}

template <typename Record, typename Unit>
Record skin_record(const MeshVertex& v) {
  Record r;
  for (int k = 0; k < 4; ++k) {
    // Quantised for this format by the importer: joints below its joint count, weights <= one.
    r.joints[k] = Unit(v.joints[k]);
    r.weights[k] = Unit(v.weights[k]);
  }
  return r;
}

assetlib::Vertex_P32N8C8V16 to_p32n8(const MeshVertex& v) {
  assetlib::Vertex_P32N8C8V16 o{};
  std::memcpy(o.position, v.position, sizeof o.position);
  for (int k = 0; k < 3; ++k) o.normal[k] = snorm8(v.normal[k]), o.color[k] = unorm8(v.color[k]);
  o.color[3] = 255;
  for (int k = 0; k < 2; ++k) o.uv[k] = to_half(v.uv[k]);
  return o;
}

assetlib::Vertex_PNCVT_OCT to_oct(const MeshVertex& v) {
  assetlib::Vertex_PNCVT_OCT o{};
  std::memcpy(o.position, v.position, sizeof o.position);
  float n[2], t[2];
  octahedral(v.normal, n);
  octahedral(v.tangent, t);
  o.normal[0] = snorm16(n[0]);
  o.normal[1] = snorm16(n[1]);
  for (int k = 0; k < 3; ++k) o.color[k] = unorm8(v.color[k]);
  o.color[3] = 255;
  for (int k = 0; k < 2; ++k) o.uv[k] = to_half(v.uv[k]);
  o.tangent[0] = snorm8(t[0]);
  o.tangent[1] = snorm8(t[1]);
  o.tangent[2] = v.tangent[3] < 0 ? int8_t(-127) : int8_t(127);
  return o;
}

assetlib::Vertex_PNCVVT_OCT to_oct2(const MeshVertex& v) {
  assetlib::Vertex_PNCVVT_OCT o{};
  assetlib::Vertex_PNCVT_OCT first = to_oct(v);
  std::memcpy(&o, &first, sizeof first);  // the first 28 bytes are PNCVT_OCT's
  for (int k = 0; k < 2; ++k) o.uv1[k] = to_half(v.uv1[k]);
  return o;
}

}  // namespace

std::vector<std::byte> encode_vertices(const std::vector<MeshVertex>& vertices,
                                       assetlib::VertexFormat format) {
  switch (format) {
    case assetlib::VertexFormat::PNCV_F32:
      return encode_as<assetlib::Vertex_PNCV_F32>(vertices, to_pncv);
    case assetlib::VertexFormat::P32N8C8V16:
      return encode_as<assetlib::Vertex_P32N8C8V16>(vertices, to_p32n8);
    case assetlib::VertexFormat::PNCVT_OCT:
      return encode_as<assetlib::Vertex_PNCVT_OCT>(vertices, to_oct);
    case assetlib::VertexFormat::PNCVVT_OCT:
      return encode_as<assetlib::Vertex_PNCVVT_OCT>(vertices, to_oct2);
    case assetlib::VertexFormat::PNCVVT_F32:
      return encode_as<assetlib::Vertex_PNCVVT_F32>(vertices, to_pncvvt);
    default: return encode_as<assetlib::Vertex_PNCVT_F32>(vertices, to_pncvt);
  }
}

std::string half_uv_loss(const std::vector<MeshVertex>& vertices, assetlib::VertexFormat format) {
  using assetlib::VertexFormat;
  const bool half = format == VertexFormat::PNCVT_OCT || format == VertexFormat::PNCVVT_OCT ||
                    format == VertexFormat::P32N8C8V16;
  if (!half) return {};
  const bool second = format == VertexFormat::PNCVVT_OCT;
  float largest = 0;
  for (const MeshVertex& v : vertices) {
    for (int k = 0; k < 2; ++k) {
      largest = std::max(largest, std::fabs(v.uv[k]));
      if (second) largest = std::max(largest, std::fabs(v.uv1[k]));
    }
  }
  if (!(largest >= kHalfUvLimit)) return {};
  char text[128];
  if (largest > kMaxHalf) {
    std::snprintf(text, sizeof text, "UVs reach %g, beyond the largest half float: clamped to %g",
                  largest, kMaxHalf);
    return text;
  }
  // A half float has 10 fraction bits: between 2^e and 2^(e+1) it steps by 2^(e-10).
  const double step = std::ldexp(1.0, std::ilogb(largest) - 10);
  std::snprintf(text, sizeof text, "UVs reach %g, where a half float steps by %g", largest, step);
  return text;
}

std::vector<std::byte> encode_skin(const std::vector<MeshVertex>& vertices,
                                   assetlib::SkinFormat format) {
  switch (format) {
    case assetlib::SkinFormat::J8W8:
      return encode_as<assetlib::Skin_J8W8>(vertices, skin_record<assetlib::Skin_J8W8, uint8_t>);
    case assetlib::SkinFormat::J16W16:
      return encode_as<assetlib::Skin_J16W16>(vertices,
                                              skin_record<assetlib::Skin_J16W16, uint16_t>);
    default: return {};
  }
}

}  // namespace baker
