// The binary data of a glTF file: buffer views (EXT_meshopt_compression decoded with
// meshoptimizer's decoders) and accessors read as numbers, every range checked against its buffer.
#pragma once

#include "import/gltf_document.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace baker {

// The componentType of floats (GL_FLOAT), the one glTF requires of most non-vertex data.
inline constexpr uint32_t kFloatComponent = 5126;

// An accessor read as floats: `count` elements of `components` values each. Normalized integers
// are mapped to 0..1 (unsigned) or -1..1 (signed); other integers keep their value.
struct AccessorValues {
  uint32_t count = 0;
  uint32_t components = 0;
  std::vector<float> values;    // count * components
  uint32_t component_type = 0;  // GL enum: 5120 byte ... 5126 float
  bool normalized = false;
  const float* element(uint32_t i) const { return values.data() + size_t(i) * components; }
};

// A primitive's vertex attributes by glTF name ("POSITION"), each decoded once per file and shared
// by the primitives that use it (GltfData::shared_floats); changed only through a copy.
using VertexAttributes = std::map<std::string, std::shared_ptr<const AccessorValues>>;

class GltfData;

// A copy of `*values` for the caller to change, put in `values`' place and counted against `data`'s
// budget at `path`: a shared accessor is never changed in place.
AccessorValues& copy_to_change(GltfData& data, std::shared_ptr<const AccessorValues>& values,
                               const std::string& path);

// Floats, or normalized unsigned bytes or shorts: what glTF allows for weights and colours.
inline bool float_or_normalized_unsigned(const AccessorValues& values) {
  const uint32_t type = values.component_type;
  return type == kFloatComponent || ((type == 5121 || type == 5123) && values.normalized);
}

// The values per element of an accessor "type": 1 to 4 for SCALAR to VEC4, 0 for a matrix or
// anything else (never vertex data the baker reads).
uint32_t type_components(const std::string& type);

class GltfData {
 public:
  // Everything read is bounded by what the file justifies: decoded views and accessors together
  // at most kMaxExpansion times the bytes of the file and its buffers (plus 64 MiB), so a small
  // file cannot make the baker allocate gigabytes. A view decoded as a Draco mesh counts
  // kDracoWeight times (credit_draco_view): Draco stores a mesh about 30 times smaller than
  // accessors do (the Stanford bunny at 11 bits: 43 KB for 1.25 MB of floats and indices).
  static constexpr uint64_t kMaxExpansion = 64;
  static constexpr uint64_t kDracoWeight = 32;
  static constexpr uint64_t kDracoCredit = (kDracoWeight - 1) * kMaxExpansion;  // per byte

  GltfData(const GltfDocument& doc, uint64_t file_bytes);

  // The bytes of bufferViews[index], `path` naming where it is used. Throws GltfError.
  std::span<const uint8_t> view(uint32_t index, const std::string& path);

  // accessors[index] as floats, at `path`; `allowed` lists the accepted "type" values ("VEC3";
  // of the matrices, only "MAT4": 16 components).
  AccessorValues floats(uint32_t index, const std::string& path,
                        std::initializer_list<const char*> allowed);
  // The same, decoded on the first call for `index` and shared after it: primitives often share
  // one vertex accessor (obj2gltf writes one per mesh for all its materials), and each decoding
  // counted against the budget would refuse a valid file of many primitives.
  std::shared_ptr<const AccessorValues> shared_floats(uint32_t index, const std::string& path,
                                                      std::initializer_list<const char*> allowed);
  // accessors[index] as vertex indices (SCALAR, unsigned byte, short or int, not normalized).
  std::vector<uint32_t> indices(uint32_t index, const std::string& path);
  // The element count of accessors[index] (checked: an unsigned integer >= 1).
  uint32_t count(uint32_t index, const std::string& path) const;

  const GltfDocument& document() const { return doc_; }

  // Counts `bytes` of memory derived from the file at `path` against the budget above (the
  // importer's own copies: triangle corners and their vertices). Throws GltfError past it.
  void spend(uint64_t bytes, const std::string& path);
  // Adds kDracoCredit per byte of bufferViews[index], `bytes` long, to the budget the first time
  // the view is decoded as Draco data (the decoder spends back what its stream leaves unread).
  void credit_draco_view(uint32_t index, uint64_t bytes);

 private:
  // The accessor's elements packed one after another, sparse values applied; the returned layout
  // has no values yet.
  AccessorValues raw(uint32_t index, const std::string& path,
                     std::initializer_list<const char*> allowed, std::vector<uint8_t>& packed);
  // The accessor's "type", checked against `allowed` (GltfError naming `path` otherwise).
  std::string checked_type(uint32_t index, const std::string& path,
                           std::initializer_list<const char*> allowed) const;
  std::span<const uint8_t> decode_meshopt(uint32_t index, const Json& ext, const std::string& path);

  const GltfDocument& doc_;
  std::map<uint32_t, std::vector<uint8_t>> decoded_;  // meshopt-decoded views by index
  std::map<uint32_t, std::shared_ptr<const AccessorValues>> shared_;  // by accessor index
  std::set<uint32_t> draco_views_;                                    // credited
  uint64_t budget_;
};

}  // namespace baker
