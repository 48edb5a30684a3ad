// Internal: reading and writing the JSON metadata shared by every asset type. Only .cpp files
// include this (public headers never see nlohmann/json).
#pragma once

#include <assetlib/asset_file.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace assetlib::detail {

using json = nlohmann::json;

// Reads typed values out of JSON objects. The first problem is kept in `status` (naming the key)
// and every later read returns a default, so callers read all fields and check once.
class JsonReader {
 public:
  explicit JsonReader(std::string context) : context_(std::move(context)) {}

  uint64_t u64(const json& obj, const char* key, uint64_t max = UINT64_MAX);
  uint32_t u32(const json& obj, const char* key) { return uint32_t(u64(obj, key, UINT32_MAX)); }
  float f32(const json& obj, const char* key);
  std::string string(const json& obj, const char* key);
  const json& array(const json& obj, const char* key);
  const json& object(const json& obj, const char* key);
  // A string key naming an enum value through `from_name`; Unknown (0) is an InvalidValue error.
  template <typename Enum>
  Enum named(const json& obj, const char* key, Enum (*from_name)(std::string_view)) {
    std::string name = string(obj, key);
    Enum value = ok() ? from_name(name) : Enum{};
    if (ok() && value == Enum{}) fail(ErrorCode::InvalidValue, std::string("unknown ") + key + " '" + name + "'");
    return value;
  }
  void f32_array(const json& obj, const char* key, float* out, size_t count);

  void fail(ErrorCode code, const std::string& what);
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  const std::string& context() const { return context_; }

 private:
  const json* find(const json& obj, const char* key, bool (json::*is_type)() const noexcept,
                   const char* type_name);
  std::string context_;
  Status status_;
};

// Parses the metadata of `file`, which must be of `type` ("TEXI"), into a JSON object.
Status parse_metadata(const AssetView& file, const char (&type)[5], json& out);

// Reads "compression" and "chunks" and checks the chunk table against the blob and the unpacked
// size: contiguous, in order, inside the blob, and no chunk promising more than LZ4 can expand.
void read_chunk_table(JsonReader& reader, const json& meta, uint64_t raw_total,
                      uint64_t blob_size, Compression& compression, std::vector<Chunk>& chunks);

// Writes "compression" and "chunks" into `meta`.
void write_chunk_table(json& meta, Compression compression, const std::vector<Chunk>& chunks);

// Fills `out` with `type`, the current version, `meta` dumped to text, and `blob`.
void finish_asset(AssetFile& out, const char (&type)[5], const json& meta,
                  std::vector<std::byte>&& blob);

}  // namespace assetlib::detail
