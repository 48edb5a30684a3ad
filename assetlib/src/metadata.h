// Internal: reading and writing the JSON metadata shared by every asset type. Only .cpp files
// include this (public headers never see simdjson or nlohmann/json).
//
// Reading and writing use two libraries on purpose. A reader runs for every asset a game loads, so
// it parses with simdjson's DOM on a parser each thread keeps (ParsedJson), finds the keys of each
// object in one pass over its members (Members) and fills a scratch info each thread keeps
// (read_reusing): about a microsecond for a typical header of 1 KB, half of it simdjson's parse
// (nlohmann::json took ten times as long or more), and no allocation once warm. Writers run in the
// baker, where nlohmann's mutable tree is convenient.
#pragma once

#include <assetlib/asset_file.h>

#include <simdjson.h>
#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
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
[[gnu::flatten]] inline bool get_bool(JsonValue v, bool& out) {
  return v.get_bool().get(out) == simdjson::SUCCESS;
}
[[gnu::flatten]] inline bool get_array(JsonValue v, simdjson::dom::array& out) {
  return v.get_array().get(out) == simdjson::SUCCESS;
}
// True when the `n` bytes at `a` and `b` are the same. Inline, in words (overlapping at the end),
// reading only those bytes: keys are short, and a call to the C library's memcmp took 40% of the
// time matching a member's key.
inline bool same_bytes(const char* a, const char* b, size_t n) {
  auto load8 = [](const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  auto load4 = [](const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (load8(a + i) != load8(b + i)) return false;
    }
    return load8(a + n - 8) == load8(b + n - 8);
  }
  if (n >= 4) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// True when `key` of `length` bytes (a member's key in the parsed JSON) is `name`.
inline bool is_key(const char* key, size_t length, std::string_view name) {
  return length == name.size() && same_bytes(key, name.data(), length);
}

// The first member of object `obj` named `key` (a key given twice: the first). Compares the
// length (stored before the characters) before the characters.
[[gnu::flatten]] inline bool get_member(JsonValue obj, std::string_view key, JsonValue& out) {
  simdjson::dom::object members;
  if (obj.get_object().get(members) != simdjson::SUCCESS) return false;
  for (auto it = members.begin(), end = members.end(); it != end; ++it) {
    if (is_key(it.key_c_str(), it.key_length(), key)) {
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

// Bounds the entries of any one JSON array a reader walks (materials, submeshes, nodes...), so
// a hostile file cannot make it reserve more than the text itself could hold.
inline constexpr size_t kMaxArrayEntries = size_t(1) << 20;

// A member a reader looks for in an object: its key and, when the object holds it, its value.
// JsonReader::member looks up one; Members looks up every key a reader wants in one pass.
struct Member {
  enum class Where : uint8_t {
    Found,
    Missing,    // the object does not hold the key (or the reader had failed: not looked for)
    NotObject,  // what was looked into is not an object
  };
  std::string_view key;
  JsonValue value;  // valid when found
  Where where = Where::Missing;
  bool found() const { return where == Where::Found; }
};

// Reads typed values out of JSON objects. The first problem is kept in `status` (naming the key)
// and every later read returns a default, so callers read all fields and check once. Strings are
// views into the parsed JSON (valid while its ParsedJson lives): assigning one to a std::string
// reuses that string's memory. A key given twice: the first is read (docs/format.md).
//
// Each read takes a Member (from Members: the readers of every asset) or an object and a key,
// looked up there and then (one pass over the object's members per read: fine for the keys read
// once per file).
class JsonReader {
 public:
  explicit JsonReader(std::string context) : context_(std::move(context)) {}

  // `key` in `obj`; not looked for (Missing) once the reader has failed, so an invalid value from
  // a failed read is never looked into.
  Member member(JsonValue obj, std::string_view key) const;

  // Each read is inline for a value it takes (no call, nothing through memory: a few nanoseconds
  // a value) and calls its out-of-line *_refused twin otherwise, which does the same checks again
  // and reports the first problem (or returns the default once the reader has failed).
  uint64_t u64(const Member& m, uint64_t max = UINT64_MAX) {
    uint64_t value = 0;
    if (ok() && m.found() && get_u64(m.value, value) && value <= max) return value;
    return u64_refused(m, max);
  }
  uint32_t u32(const Member& m) { return uint32_t(u64(m, UINT32_MAX)); }
  // An integer in [min, max] (a signed index such as a prefab node's parent, -1 for none).
  int64_t i64(const Member& m, int64_t min, int64_t max) {
    int64_t value = 0;
    if (ok() && m.found() && get_i64(m.value, value) && value >= min && value <= max) return value;
    return i64_refused(m, min, max);
  }
  int32_t i32(const Member& m, int32_t min, int32_t max) { return int32_t(i64(m, min, max)); }
  float f32(const Member& m) {
    double value = 0;
    if (ok() && m.found() && get_double(m.value, value) && is_finite_float(value))
      return float(value);
    return f32_refused(m);
  }
  bool boolean(const Member& m) {
    bool value = false;
    if (ok() && m.found() && get_bool(m.value, value)) return value;
    return boolean_refused(m);
  }
  std::string_view string(const Member& m) {
    std::string_view value;
    if (ok() && m.found() && get_string(m.value, value)) return value;
    return string_refused(m);
  }
  // The member's string when present (a string, else WrongKeyType), else `fallback`: for keys
  // added after a format version shipped.
  std::string_view optional_string(const Member& m, std::string_view fallback) {
    if (!ok() || !m.found()) return fallback;
    return string(m);
  }
  JsonArray array(const Member& m) {
    simdjson::dom::array values;
    if (ok() && m.found() && get_array(m.value, values)) return JsonArray(values);
    return array_refused(m);
  }
  JsonValue object(const Member& m) {
    if (ok() && m.found() && m.value.is_object()) return m.value;
    return object_refused(m);
  }
  // A string naming an enum value through `from_name`; Unknown (0) is an InvalidValue error.
  template <typename Enum>
  Enum named(const Member& m, Enum (*from_name)(std::string_view)) {
    std::string_view name = string(m);
    Enum value = ok() ? from_name(name) : Enum{};
    if (ok() && value == Enum{}) {
      std::string what = "unknown ";
      what += m.key;
      what += " '";
      what += name;
      what += "'";
      fail(ErrorCode::InvalidValue, what);
    }
    return value;
  }
  // An array of exactly `count` numbers, each a finite float, into `out`.
  void f32_array(const Member& m, float* out, size_t count) {
    simdjson::dom::array values;
    if (ok() && m.found() && get_array(m.value, values) && values.size() == count) {
      size_t i = 0;
      for (JsonValue v : values) {
        double value = 0;
        if (!get_double(v, value) || !is_finite_float(value)) break;
        out[i++] = float(value);
      }
      if (i == count) return;
    }
    f32_array_refused(m, out, count);
  }
  // An array of at most kMaxArrayEntries entries (InvalidValue beyond: "too many '<key>'").
  JsonArray entries(const Member& m) {
    JsonArray values = array(m);
    if (values.size() <= kMaxArrayEntries) return values;
    return entries_refused(m);
  }

  // The same, looking `key` up in `obj`.
  uint64_t u64(JsonValue obj, std::string_view key, uint64_t max = UINT64_MAX) {
    return u64(member(obj, key), max);
  }
  uint32_t u32(JsonValue obj, std::string_view key) { return u32(member(obj, key)); }
  int64_t i64(JsonValue obj, std::string_view key, int64_t min, int64_t max) {
    return i64(member(obj, key), min, max);
  }
  int32_t i32(JsonValue obj, std::string_view key, int32_t min, int32_t max) {
    return i32(member(obj, key), min, max);
  }
  float f32(JsonValue obj, std::string_view key) { return f32(member(obj, key)); }
  bool boolean(JsonValue obj, std::string_view key) { return boolean(member(obj, key)); }
  std::string_view string(JsonValue obj, std::string_view key) { return string(member(obj, key)); }
  std::string_view optional_string(JsonValue obj, std::string_view key, std::string_view fallback) {
    return optional_string(member(obj, key), fallback);
  }
  JsonArray array(JsonValue obj, std::string_view key) { return array(member(obj, key)); }
  JsonValue object(JsonValue obj, std::string_view key) { return object(member(obj, key)); }
  template <typename Enum>
  Enum named(JsonValue obj, std::string_view key, Enum (*from_name)(std::string_view)) {
    return named(member(obj, key), from_name);
  }
  void f32_array(JsonValue obj, std::string_view key, float* out, size_t count) {
    f32_array(member(obj, key), out, count);
  }
  JsonArray entries(JsonValue obj, std::string_view key) { return entries(member(obj, key)); }

  void fail(ErrorCode code, const std::string& what);
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  const std::string& context() const { return context_; }

 private:
  enum class Kind { Unsigned, Integer, Number, Bool, String, Array, Object };
  bool find(const Member& m, Kind kind, JsonValue& value);
  uint64_t u64_refused(const Member& m, uint64_t max);
  int64_t i64_refused(const Member& m, int64_t min, int64_t max);
  float f32_refused(const Member& m);
  bool boolean_refused(const Member& m);
  std::string_view string_refused(const Member& m);
  JsonArray array_refused(const Member& m);
  JsonValue object_refused(const Member& m);
  void f32_array_refused(const Member& m, float* out, size_t count);
  JsonArray entries_refused(const Member& m);
  std::string context_;
  Status status_;
};

// The keys a reader wants from one kind of object, best in the order writers write them
// (nlohmann::json sorts keys): Members then matches each member of a baked object at the first
// try. At most 32 keys.
template <size_t N>
class KeySet {
 public:
  static_assert(N > 0 && N <= 32);
  template <typename... Names>
  consteval KeySet(const Names&... names) : names_{std::string_view(names)...} {
    static_assert(sizeof...(Names) == N);
  }
  static constexpr size_t size() { return N; }
  std::string_view name(size_t i) const { return names_[i]; }
  // Where `key` is in the set; a key not in it does not compile (consteval).
  consteval size_t index(std::string_view key) const {
    for (size_t i = 0; i < N; ++i) {
      if (names_[i] == key) return i;
    }
    throw "not a key of this KeySet";
  }
  // Where the key of `length` bytes at `key` is in the set, trying `hint` first; N when it is not
  // in the set.
  size_t find(const char* key, size_t length, size_t hint) const {
    if (hint < N && is_key(key, length, names_[hint])) return hint;
    for (size_t i = 0; i < N; ++i) {
      if (is_key(key, length, names_[i])) return i;
    }
    return N;
  }

 private:
  std::array<std::string_view, N> names_;
};
template <typename... Names>
KeySet(const Names&...) -> KeySet<sizeof...(Names)>;

// A key of `Keys`, checked and turned into its index at compile time: `members["width"]`.
template <const auto& Keys>
struct KeyOf {
  template <size_t L>
  consteval KeyOf(const char (&key)[L]) : index(Keys.index(std::string_view(key, L - 1))) {}
  size_t index;
};

// The members named by `Keys` of one object, found in one pass over its members (a key given
// twice: the first; members of other names are passed over), where looking each key up alone
// would pass over the members once per key. Reads through it give what JsonReader's reads by key
// give, messages included. Looks at nothing once `reader` has failed (every read of it returns at
// once then), so `obj` may be the invalid value of a failed read.
template <const auto& Keys>
class Members {
 public:
  static constexpr size_t N = Keys.size();

  // Flattened: simdjson's iterator steps are otherwise calls (see get_u64).
  [[gnu::flatten]] Members(const JsonReader& reader, JsonValue obj) {
    if (!reader.ok()) return;
    simdjson::dom::object members;
    if (obj.get_object().get(members) != simdjson::SUCCESS) {
      not_object_ = true;
      return;
    }
    constexpr uint32_t kAll = N == 32 ? ~0u : (1u << N) - 1;
    size_t next = 0;
    for (auto it = members.begin(), end = members.end(); it != end && found_ != kAll; ++it) {
      size_t i = Keys.find(it.key_c_str(), it.key_length(), next);
      if (i == N) continue;
      next = i + 1;
      if (found_ & (1u << i)) continue;  // given twice: the first counts
      found_ |= 1u << i;
      values_[i] = std::bit_cast<Words>(it.value());
    }
  }

  Member operator[](KeyOf<Keys> key) const {
    Member m{Keys.name(key.index), {}, Member::Where::Missing};
    if (not_object_) {
      m.where = Member::Where::NotObject;
    } else if (found_ & (1u << key.index)) {
      m.where = Member::Where::Found;
      m.value = std::bit_cast<JsonValue>(values_[key.index]);
    }
    return m;
  }

 private:
  // A value kept as its two words: copied in as two 8-byte stores and out as one 16-byte load,
  // a JsonValue stalled each read (the store could not be forwarded to the load).
  struct Words {
    uint64_t first, second;
  };
  static_assert(sizeof(Words) == sizeof(JsonValue) && std::is_trivially_copyable_v<JsonValue>);
  std::array<Words, N> values_;
  uint32_t found_ = 0;
  bool not_object_ = false;
};

// True when `obj` is an object holding `key` (of any type): tells legacy metadata by its keys.
bool has_key(JsonValue obj, std::string_view key);

// Checks that `meta` declares no chunks and that the file has no blob (InvalidValue otherwise).
void read_no_blob(JsonReader& reader, JsonValue meta, uint64_t blob_size);
// The same from the members "compression" and "chunks" of the metadata.
void read_no_blob(JsonReader& reader, const Member& compression, const Member& chunks,
                  uint64_t blob_size);

// True when no array or object in `text` is nested deeper than `max_depth` (outside strings; the
// text need not be valid JSON).
bool json_depth_within(std::string_view text, uint32_t max_depth);

// The status of a parse that gave `error`, naming `what` ("TEXI metadata", a manifest's path):
// InvalidJson "<what> is nested deeper than ... / is not valid JSON / is not a JSON object", or
// OutOfMemory "<what>: out of memory (parsing the JSON)"; ok for JsonError::None.
Status json_status(JsonError error, const std::string& what);

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
// The same from the members "compression" and "chunks" of the metadata.
void read_chunk_table(JsonReader& reader, const Member& compression_member,
                      const Member& chunks_member, uint64_t raw_total, uint64_t blob_size,
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
