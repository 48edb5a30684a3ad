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
  // An integer in [min, max] (a signed index such as a prefab node's parent, -1 for none).
  int64_t i64(const json& obj, const char* key, int64_t min, int64_t max);
  int32_t i32(const json& obj, const char* key, int32_t min, int32_t max) {
    return int32_t(i64(obj, key, min, max));
  }
  float f32(const json& obj, const char* key);
  bool boolean(const json& obj, const char* key);
  std::string string(const json& obj, const char* key);
  // `key`'s string when present (a string, else WrongKeyType), else `fallback`: for keys added
  // after a format version shipped.
  std::string optional_string(const json& obj, const char* key, const std::string& fallback);
  const json& array(const json& obj, const char* key);
  const json& object(const json& obj, const char* key);
  // A string key naming an enum value through `from_name`; Unknown (0) is an InvalidValue error.
  template <typename Enum>
  Enum named(const json& obj, const char* key, Enum (*from_name)(std::string_view)) {
    std::string name = string(obj, key);
    Enum value = ok() ? from_name(name) : Enum{};
    if (ok() && value == Enum{})
      fail(ErrorCode::InvalidValue, std::string("unknown ") + key + " '" + name + "'");
    return value;
  }
  void f32_array(const json& obj, const char* key, float* out, size_t count);
  // An array of at most kMaxArrayEntries entries (InvalidValue beyond: "too many '<key>'").
  const json& entries(const json& obj, const char* key);

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

// Bounds the entries of any one JSON array a reader walks (materials, submeshes, nodes...), so
// a hostile file cannot make it reserve more than the text itself could hold.
inline constexpr size_t kMaxArrayEntries = size_t(1) << 20;

// Metadata-only assets (materials, prefabs): an empty chunk table ("None", no chunks) and no blob.
void write_no_blob(json& meta);
// Checks that `meta` declares no chunks and that the file has no blob (InvalidValue otherwise).
void read_no_blob(JsonReader& reader, const json& meta, uint64_t blob_size);

// True when no array or object in `text` is nested deeper than `max_depth` (outside strings; the
// text need not be valid JSON).
bool json_depth_within(std::string_view text, uint32_t max_depth);

// Parses `text` into a JSON object without exceptions: InvalidJson, naming `what`, when it is
// nested deeper than kMaxJsonDepth (checked before parsing), not JSON, or not an object.
Status parse_json(std::string_view text, std::string_view what, json& out);

// Parses the metadata of `file`, which must be of `type` ("TEXI"), into a JSON object. Refuses
// metadata over kMaxJsonSize (a view built by hand) before parsing.
Status parse_metadata(const AssetView& file, const char (&type)[5], json& out);

// InvalidValue "<context>: unpacked size N bytes is over the 4 GiB limit
// (assetlib::kMaxUnpackedSize)" when `unpacked` is over kMaxUnpackedSize.
Status check_unpacked_size(uint64_t unpacked, const char* context);

// Reads "compression" and "chunks" and checks the chunk table against the blob and the unpacked
// size: contiguous, in order, inside the blob, and no chunk promising more than LZ4 can expand.
void read_chunk_table(JsonReader& reader, const json& meta, uint64_t raw_total, uint64_t blob_size,
                      Compression& compression, std::vector<Chunk>& chunks);

// Writes "compression" and "chunks" into `meta`.
void write_chunk_table(json& meta, Compression compression, const std::vector<Chunk>& chunks);

// Fills `out` with `type`, the current version, `meta` dumped to text, and `blob`; refuses
// (InvalidArgument, naming `context`, `out` untouched) metadata over kMaxJsonSize.
Status finish_asset(AssetFile& out, const char (&type)[5], const json& meta,
                    std::vector<std::byte>&& blob, const char* context);

}  // namespace assetlib::detail
