// Internal: reading and writing the JSON metadata shared by every asset type. Only .cpp files
// include this (public headers never see simdjson or nlohmann/json).
//
// Reading and writing use two libraries on purpose. A reader runs for every asset a game loads, so
// it parses with simdjson's DOM on a parser each thread keeps (ParsedJson) and fills a scratch
// info each thread keeps (read_reusing): a microsecond or two for a typical header of 1 KB (ten
// times less than nlohmann::json took), and no allocation once warm. Writers run in the baker,
// where nlohmann's mutable tree is convenient.
#pragma once

#include <assetlib/asset_file.h>

#include <simdjson.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assetlib::detail {

// ---- Reading -----------------------------------------------------------------------------------

// A value of parsed JSON, valid while the ParsedJson it comes from lives. A default (invalid) value
// is only ever returned by a JsonReader that has failed; every later read of that reader returns at
// once, so an invalid value is never looked into.
using JsonValue = simdjson::dom::element;

// The elements of a JSON array, or none (what a failed JsonReader returns).
class JsonArray {
 public:
  JsonArray() = default;
  explicit JsonArray(simdjson::dom::array array) : array_(array), valid_(true) {}
  // The elements of `value` when it is an array, else none.
  static JsonArray of(JsonValue value);
  // simdjson counts up to 2^24 - 1 and saturates there: exact below every limit we check.
  size_t size() const { return valid_ ? array_.size() : 0; }
  bool empty() const { return size() == 0; }
  simdjson::dom::array::iterator begin() const { return valid_ ? array_.begin() : iterator(); }
  simdjson::dom::array::iterator end() const { return valid_ ? array_.end() : iterator(); }

 private:
  using iterator = simdjson::dom::array::iterator;
  simdjson::dom::array array_;
  bool valid_ = false;
};

// A number, string, array or member out of a JsonValue; false when it holds none. simdjson's own
// accessors return a {value, error} pair, and GCC 12 calls some of them out of line and returns the
// pair through the stack: a store-forwarding stall per value read, a third of a metadata read.
// Flattened, these inline them. Valid values only (see JsonValue).
[[gnu::flatten]] inline bool get_u64(JsonValue v, uint64_t& out) {
  return v.get_uint64().get(out) == simdjson::SUCCESS;
}
[[gnu::flatten]] inline bool get_i64(JsonValue v, int64_t& out) {
  return v.get_int64().get(out) == simdjson::SUCCESS;
}
// The largest magnitude a metadata float may have: beyond it a double no longer converts to a
// finite float (and the conversion itself is undefined past FLT_MAX), and no writer produces one.
inline constexpr double kMaxMetadataFloat = 3.0e38;

// True when `value` is finite and converts to a finite float.
inline bool is_finite_float(double value) {
  return std::isfinite(value) && std::fabs(value) <= kMaxMetadataFloat;
}

[[gnu::flatten]] inline bool get_double(JsonValue v, double& out) {
  return v.get_double().get(out) == simdjson::SUCCESS;
}
[[gnu::flatten]] inline bool get_string(JsonValue v, std::string_view& out) {
  return v.get_string().get(out) == simdjson::SUCCESS;
}
[[gnu::flatten]] inline bool get_array(JsonValue v, simdjson::dom::array& out) {
  return v.get_array().get(out) == simdjson::SUCCESS;
}
// The first member of object `obj` named `key` (a key given twice: the first). Compares the
// length (stored before the characters) and the first byte before the whole key: most members are
// passed over without a memcmp.
[[gnu::flatten]] inline bool get_member(JsonValue obj, std::string_view key, JsonValue& out) {
  simdjson::dom::object members;
  if (obj.get_object().get(members) != simdjson::SUCCESS) return false;
  for (auto it = members.begin(), end = members.end(); it != end; ++it) {
    if (it.key_length() == key.size() && (key.empty() || it.key_c_str()[0] == key[0]) &&
        std::memcmp(it.key_c_str(), key.data(), key.size()) == 0) {
      out = it.value();
      return true;
    }
  }
  return false;
}

inline JsonArray JsonArray::of(JsonValue value) {
  simdjson::dom::array array;
  return get_array(value, array) ? JsonArray(array) : JsonArray();
}

// Why JSON text was refused.
enum class JsonError {
  None,
  TooDeep,      // nested deeper than kMaxJsonDepth (whether or not the text is valid JSON)
  Invalid,      // not JSON (RFC 8259, UTF-8) or trailing content
  NotObject,    // valid JSON, but not an object
  OutOfMemory,  // the parser's memory could not be allocated
};

// JSON text parsed into simdjson's DOM. Up to kReusedJsonSize bytes of text are parsed on a parser
// the thread keeps, so parsing allocates nothing once the thread has met its largest metadata
// (a few KB for baked assets); larger text, or a parse while the thread's parser is in use, gets a
// parser of its own, freed with this object. Accepts what nlohmann::json accepted (the text ends at
// its first NUL byte; a leading UTF-8 byte order mark is skipped), except integers beyond 64 bits,
// which simdjson refuses (InvalidJson), and -0 where an unsigned integer is read (read as 0).
class ParsedJson {
 public:
  ParsedJson();
  ~ParsedJson();
  ParsedJson(const ParsedJson&) = delete;
  ParsedJson& operator=(const ParsedJson&) = delete;

  // Parses `text` (any bytes); on success root() is its top-level object. The depth limit is
  // enforced by the parser, and for text that needs a parser of its own also by a scan before
  // anything is allocated, so crafted nesting costs no memory.
  JsonError parse(std::string_view text);
  JsonValue root() const { return root_; }

  struct Parser;  // metadata.cpp

 private:
  Parser* parser_ = nullptr;  // the thread's, or owned_
  std::unique_ptr<Parser> owned_;
  JsonValue root_;
};

// Text up to this size is parsed on the thread's parser, which then keeps about 14 bytes per byte
// of capacity (simdjson's tape, string buffer and structural index: at most ~1 MB per thread).
inline constexpr size_t kReusedJsonSize = size_t(64) << 10;

// Reads typed values out of JSON objects. The first problem is kept in `status` (naming the key)
// and every later read returns a default, so callers read all fields and check once. Strings are
// views into the parsed JSON (valid while its ParsedJson lives): assigning one to a std::string
// reuses that string's memory. A key given twice: the first is read (docs/format.md).
class JsonReader {
 public:
  explicit JsonReader(std::string context) : context_(std::move(context)) {}

  uint64_t u64(JsonValue obj, std::string_view key, uint64_t max = UINT64_MAX);
  uint32_t u32(JsonValue obj, std::string_view key) { return uint32_t(u64(obj, key, UINT32_MAX)); }
  // An integer in [min, max] (a signed index such as a prefab node's parent, -1 for none).
  int64_t i64(JsonValue obj, std::string_view key, int64_t min, int64_t max);
  int32_t i32(JsonValue obj, std::string_view key, int32_t min, int32_t max) {
    return int32_t(i64(obj, key, min, max));
  }
  float f32(JsonValue obj, std::string_view key);
  bool boolean(JsonValue obj, std::string_view key);
  std::string_view string(JsonValue obj, std::string_view key);
  // `key`'s string when present (a string, else WrongKeyType), else `fallback`: for keys added
  // after a format version shipped.
  std::string_view optional_string(JsonValue obj, std::string_view key, std::string_view fallback);
  JsonArray array(JsonValue obj, std::string_view key);
  JsonValue object(JsonValue obj, std::string_view key);
  // A string key naming an enum value through `from_name`; Unknown (0) is an InvalidValue error.
  template <typename Enum>
  Enum named(JsonValue obj, std::string_view key, Enum (*from_name)(std::string_view)) {
    std::string_view name = string(obj, key);
    Enum value = ok() ? from_name(name) : Enum{};
    if (ok() && value == Enum{}) {
      std::string what = "unknown ";
      what += key;
      what += " '";
      what += name;
      what += "'";
      fail(ErrorCode::InvalidValue, what);
    }
    return value;
  }
  void f32_array(JsonValue obj, std::string_view key, float* out, size_t count);
  // An array of at most kMaxArrayEntries entries (InvalidValue beyond: "too many '<key>'").
  JsonArray entries(JsonValue obj, std::string_view key);

  void fail(ErrorCode code, const std::string& what);
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  const std::string& context() const { return context_; }

 private:
  enum class Kind { Unsigned, Integer, Number, Bool, String, Array, Object };
  bool find(JsonValue obj, std::string_view key, Kind kind, JsonValue& value);
  std::string context_;
  Status status_;
};

// True when `obj` is an object holding `key` (of any type): tells legacy metadata by its keys.
bool has_key(JsonValue obj, std::string_view key);

// Bounds the entries of any one JSON array a reader walks (materials, submeshes, nodes...), so
// a hostile file cannot make it reserve more than the text itself could hold.
inline constexpr size_t kMaxArrayEntries = size_t(1) << 20;

// Checks that `meta` declares no chunks and that the file has no blob (InvalidValue otherwise).
void read_no_blob(JsonReader& reader, JsonValue meta, uint64_t blob_size);

// True when no array or object in `text` is nested deeper than `max_depth` (outside strings; the
// text need not be valid JSON).
bool json_depth_within(std::string_view text, uint32_t max_depth);

// Parses the metadata of `file`, which must be of `type` ("TEXI"), into `out`. Refuses metadata
// over kMaxJsonSize (a view built by hand) before parsing. Errors: UnknownType, InvalidValue,
// InvalidJson "<type> metadata is nested deeper than ... / is not valid JSON / is not a JSON
// object", OutOfMemory.
Status parse_metadata(const AssetView& file, const char (&type)[5], ParsedJson& out);

// InvalidValue "<context>: unpacked size N bytes is over the 4 GiB limit
// (assetlib::kMaxUnpackedSize)" when `unpacked` is over kMaxUnpackedSize.
Status check_unpacked_size(uint64_t unpacked, const char* context);

// Reads "compression" and "chunks" and checks the chunk table against the blob and the unpacked
// size: contiguous, in order, inside the blob, and no chunk promising more than LZ4 can expand.
// Refills `chunks` in place (no allocation when it has the capacity).
void read_chunk_table(JsonReader& reader, JsonValue meta, uint64_t raw_total, uint64_t blob_size,
                      Compression& compression, std::vector<Chunk>& chunks);

// An info (TextureInfo, MeshInfo...) of more than this many bytes is not kept by read_reusing.
inline constexpr size_t kReusedInfoBytes = size_t(64) << 10;

// Runs `read(info)` on a scratch Info this thread keeps and, on success, swaps it with `out`. So
// `out` is left unchanged on error, and the scratch then holds `out`'s previous contents: a caller
// that reads into the same `out` again and again allocates nothing once both have grown. `read`
// gets an Info holding some earlier result; it must reset it (keeping its memory) and set every
// field. After the swap, a scratch over kReusedInfoBytes (`bytes_held`) is freed, so a thread
// keeps little after a large asset. A read inside a read gets a fresh Info of its own.
template <typename Info, typename Read>
Status read_reusing(Info& out, size_t (*bytes_held)(const Info&), Read&& read) {
  thread_local Info scratch;
  thread_local bool busy = false;
  if (busy) {
    Info local;
    Status s = read(local);
    if (s) out = std::move(local);
    return s;
  }
  busy = true;
  struct Release {
    bool& flag;
    ~Release() { flag = false; }
  } release{busy};
  Status s = read(scratch);
  if (!s) return s;
  std::swap(out, scratch);
  if (bytes_held(scratch) > kReusedInfoBytes) scratch = Info{};
  return s;
}

// ---- Writing -----------------------------------------------------------------------------------

using json = nlohmann::json;

// Metadata-only assets (materials, prefabs): an empty chunk table ("None", no chunks) and no blob.
void write_no_blob(json& meta);

// Writes "compression" and "chunks" into `meta`.
void write_chunk_table(json& meta, Compression compression, const std::vector<Chunk>& chunks);

// Fills `out` with `type`, the current version, `meta` dumped to text, and `blob`; refuses
// (InvalidArgument, naming `context`, `out` untouched) metadata over kMaxJsonSize.
Status finish_asset(AssetFile& out, const char (&type)[5], const json& meta,
                    std::vector<std::byte>&& blob, const char* context);

}  // namespace assetlib::detail
