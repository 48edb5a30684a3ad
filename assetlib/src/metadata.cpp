#include "metadata.h"

#include <assetlib/limits.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <new>

namespace assetlib::detail {

// ---- Parsing ------------------------------------------------------------------------------------

// A simdjson parser with its document and a padded copy of the text (simdjson reads up to
// SIMDJSON_PADDING bytes past the end, and AssetView::json may end anywhere: a mapped file, a
// pack).
struct ParsedJson::Parser {
  simdjson::dom::parser parser;
  simdjson::dom::document document;
  std::unique_ptr<char[]> text;
  size_t capacity = 0;  // bytes of text that all three can take
  bool busy = false;    // a ParsedJson is using it (the thread's parser)

  // Room for `wanted` bytes of text; false when memory ran out (capacity 0 until a retry).
  bool reserve(size_t wanted) {
    if (wanted <= capacity) return true;
    capacity = 0;
    text.reset(new (std::nothrow) char[wanted + simdjson::SIMDJSON_PADDING]());
    if (!text || parser.allocate(wanted, kMaxJsonDepth) != simdjson::SUCCESS ||
        document.allocate(wanted) != simdjson::SUCCESS) {
      return false;
    }
    capacity = wanted;
    return true;
  }
};

namespace {

thread_local ParsedJson::Parser t_parser;

// The thread's parser starts this large and doubles up to kReusedJsonSize: a few reallocations at
// most, in the first reads of a thread.
constexpr size_t kFirstReusedCapacity = size_t(4) << 10;

const char* compression_name(Compression c) { return c == Compression::LZ4 ? "LZ4" : "None"; }

}  // namespace

ParsedJson::ParsedJson() = default;

ParsedJson::~ParsedJson() {
  if (parser_ == &t_parser) t_parser.busy = false;
}

JsonError ParsedJson::parse(std::string_view text) {
  // As nlohmann::json, which read metadata before simdjson: the text ends at its first NUL byte
  // (a file padded with zeros parses), and a leading UTF-8 byte order mark is skipped.
  text = text.substr(0, text.find('\0'));
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  size_t wanted = std::max<size_t>(text.size(), 64);
  if (text.size() <= kReusedJsonSize && !t_parser.busy) {
    parser_ = &t_parser;
    t_parser.busy = true;
    wanted = std::clamp(std::bit_ceil(text.size()), kFirstReusedCapacity, kReusedJsonSize);
  } else {
    // Nothing is allocated for text the depth limit refuses anyway.
    if (!json_depth_within(text, kMaxJsonDepth)) return JsonError::TooDeep;
    owned_ = std::make_unique<Parser>();
    parser_ = owned_.get();
  }
  if (!parser_->reserve(wanted)) return JsonError::OutOfMemory;
  if (!text.empty()) std::memcpy(parser_->text.get(), text.data(), text.size());
  simdjson::error_code error =
      parser_->parser
          .parse_into_document(parser_->document, parser_->text.get(), text.size(), false)
          .get(root_);
  if (error == simdjson::MEMALLOC) return JsonError::OutOfMemory;
  if (error != simdjson::SUCCESS) {
    // Text both too deep and invalid is "too deep", as the scan alone said before simdjson.
    bool deep = error == simdjson::DEPTH_ERROR || !json_depth_within(text, kMaxJsonDepth);
    return deep ? JsonError::TooDeep : JsonError::Invalid;
  }
  return root_.is_object() ? JsonError::None : JsonError::NotObject;
}

bool json_depth_within(std::string_view text, uint32_t max_depth) {
  uint32_t depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

Status json_status(JsonError error, const std::string& what) {
  switch (error) {
    case JsonError::None: return {};
    case JsonError::TooDeep:
      return Status::error(ErrorCode::InvalidJson, what + " is nested deeper than " +
                                                       std::to_string(kMaxJsonDepth) +
                                                       " levels (assetlib::kMaxJsonDepth)");
    case JsonError::NotObject:
      return Status::error(ErrorCode::InvalidJson, what + " is not a JSON object");
    case JsonError::OutOfMemory:
      return Status::error(ErrorCode::OutOfMemory, what + ": out of memory (parsing the JSON)");
    default: return Status::error(ErrorCode::InvalidJson, what + " is not valid JSON");
  }
}

Status parse_metadata(const AssetView& file, const char (&type)[5], ParsedJson& out) {
  if (!has_type(file, type)) {
    std::string found(file.type, 4);
    for (char& c : found) c = (c >= 32 && c < 127) ? c : '?';
    return Status::error(ErrorCode::UnknownType, std::string("expected a '") + type +
                                                     "' asset, found type '" + found + "'");
  }
  // parse_binaryfile and load_binaryfile have checked this already; a view built by hand has not.
  if (file.json.size() > kMaxJsonSize) {
    return Status::error(ErrorCode::InvalidValue,
                         std::string(type) + " metadata of " + std::to_string(file.json.size()) +
                             " bytes is over the 4 MiB limit (assetlib::kMaxJsonSize)");
  }
  return json_status(out.parse(file.json), std::string(type) + " metadata");
}

// ---- Typed reads --------------------------------------------------------------------------------

namespace {

using Type = simdjson::dom::element_type;

// nlohmann::json's names for the types, which the messages have always used.
const char* type_name(JsonValue v) {
  switch (v.type()) {
    case Type::ARRAY: return "array";
    case Type::OBJECT: return "object";
    case Type::STRING: return "string";
    case Type::BOOL: return "boolean";
    case Type::NULL_VALUE: return "null";
    default: return "number";
  }
}

// A JSON integer as written.
std::string integer_text(JsonValue v) {
  uint64_t u = 0;
  if (v.type() == Type::UINT64 && get_u64(v, u)) return std::to_string(u);
  int64_t i = 0;
  return get_i64(v, i) ? std::to_string(i) : std::string("?");
}

// "key '<key>'<rest>".
std::string key_message(std::string_view key, std::string_view rest) {
  std::string message = "key '";
  message += key;
  message += "'";
  message += rest;
  return message;
}

}  // namespace

void JsonReader::fail(ErrorCode code, const std::string& what) {
  if (status_.ok()) status_ = Status::error(code, context_ + ": " + what);
}

Member JsonReader::member(JsonValue obj, std::string_view key) const {
  Member m{key, {}, Member::Where::Missing};
  if (!ok()) return m;
  if (get_member(obj, key, m.value)) {
    m.where = Member::Where::Found;
  } else if (!obj.is_object()) {
    m.where = Member::Where::NotObject;
  }
  return m;
}

bool JsonReader::find(const Member& m, Kind kind, JsonValue& value) {
  if (!ok()) return false;
  if (!m.found()) {
    if (m.where == Member::Where::NotObject) {
      fail(ErrorCode::WrongKeyType, "expected an object holding '" + std::string(m.key) + "'");
    } else {
      fail(ErrorCode::MissingKey, "missing key '" + std::string(m.key) + "'");
    }
    return false;
  }
  value = m.value;
  Type type = value.type();
  bool number = type == Type::INT64 || type == Type::UINT64 || type == Type::DOUBLE;
  static constexpr const char* kWanted[] = {"an unsigned integer",
                                            "an integer",
                                            "a number",
                                            "true or false",
                                            "a string",
                                            "an array",
                                            "an object"};
  bool matches = false;
  switch (kind) {
    case Kind::Unsigned: {
      int64_t i = 0;
      matches = type == Type::UINT64 || (type == Type::INT64 && get_i64(value, i) && i >= 0);
      break;
    }
    case Kind::Integer: matches = type == Type::INT64 || type == Type::UINT64; break;
    case Kind::Number: matches = number; break;
    case Kind::Bool: matches = type == Type::BOOL; break;
    case Kind::String: matches = type == Type::STRING; break;
    case Kind::Array: matches = type == Type::ARRAY; break;
    case Kind::Object: matches = type == Type::OBJECT; break;
  }
  if (!matches) {
    std::string rest = " must be ";
    rest += kWanted[int(kind)];
    rest += ", not ";
    rest += type_name(value);
    fail(ErrorCode::WrongKeyType, key_message(m.key, rest));
  }
  return matches;
}

uint64_t JsonReader::u64_refused(const Member& m, uint64_t max) {
  JsonValue v;
  uint64_t value = 0;
  if (!find(m, Kind::Unsigned, v) || !get_u64(v, value)) return 0;
  if (value > max) {
    fail(ErrorCode::InvalidValue,
         key_message(m.key, " = " + std::to_string(value) + " exceeds " + std::to_string(max)));
    return 0;
  }
  return value;
}

int64_t JsonReader::i64_refused(const Member& m, int64_t min, int64_t max) {
  JsonValue v;
  if (!find(m, Kind::Integer, v)) return 0;
  int64_t value = 0;
  if (!get_i64(v, value) || value < min || value > max) {
    fail(ErrorCode::InvalidValue,
         key_message(m.key, " = " + integer_text(v) + " is outside " + std::to_string(min) + ".." +
                                std::to_string(max)));
    return 0;
  }
  return value;
}

bool JsonReader::boolean_refused(const Member& m) {
  JsonValue v;
  bool value = false;
  return find(m, Kind::Bool, v) && v.get_bool().get(value) == simdjson::SUCCESS && value;
}

JsonArray JsonReader::entries_refused(const Member& m) {
  fail(ErrorCode::InvalidValue, "too many '" + std::string(m.key) + "'");
  return {};
}

float JsonReader::f32_refused(const Member& m) {
  JsonValue v;
  double value = 0;
  if (!find(m, Kind::Number, v) || !get_double(v, value)) return 0;
  // simdjson refuses numbers beyond the double range, so only the float range can be exceeded.
  if (!is_finite_float(value)) {
    fail(ErrorCode::InvalidValue, key_message(m.key, " is not a finite float"));
    return 0;
  }
  return float(value);
}

std::string_view JsonReader::string_refused(const Member& m) {
  JsonValue v;
  std::string_view value;
  if (!find(m, Kind::String, v) || !get_string(v, value)) return {};
  return value;
}

JsonArray JsonReader::array_refused(const Member& m) {
  JsonValue v;
  simdjson::dom::array values;
  if (!find(m, Kind::Array, v) || !get_array(v, values)) return {};
  return JsonArray(values);
}

JsonValue JsonReader::object_refused(const Member& m) {
  JsonValue v;
  return find(m, Kind::Object, v) ? v : JsonValue();
}

void JsonReader::f32_array_refused(const Member& m, float* out, size_t count) {
  JsonArray values = array(m);
  if (!ok()) return;
  if (values.size() != count) {
    fail(ErrorCode::InvalidValue,
         key_message(m.key, " must hold " + std::to_string(count) + " numbers"));
    return;
  }
  size_t i = 0;
  for (JsonValue v : values) {
    double value = 0;
    if (!get_double(v, value)) {
      fail(ErrorCode::WrongKeyType, key_message(m.key, " must hold numbers"));
      return;
    }
    if (!is_finite_float(value)) {
      fail(ErrorCode::InvalidValue, key_message(m.key, " holds a non-finite number"));
      return;
    }
    out[i++] = float(value);
  }
}

bool has_key(JsonValue obj, std::string_view key) {
  JsonValue value;
  return get_member(obj, key, value);
}

Status check_unpacked_size(uint64_t unpacked, const char* context) {
  if (unpacked > kMaxUnpackedSize) {
    return Status::error(ErrorCode::InvalidValue,
                         std::string(context) + ": unpacked size " + std::to_string(unpacked) +
                             " bytes is over the 4 GiB limit (assetlib::kMaxUnpackedSize)");
  }
  return {};
}

// ---- Chunk table --------------------------------------------------------------------------------

namespace {

enum class EntryError { None, NotFour, NotUnsigned };

// One "chunks" entry: [raw_offset, raw_size, offset, size], read straight into `chunk`'s fields
// (flattened, as get_u64). Through a local array copied out afterwards, the copy's wide loads of
// values just stored one by one stalled (a store is not forwarded to a wider load): 2% of a
// texture's read.
[[gnu::flatten]] EntryError read_chunk_entry(JsonValue entry, Chunk& chunk) {
  simdjson::dom::array values;
  if (!get_array(entry, values) || values.size() != 4) return EntryError::NotFour;
  uint64_t* fields[] = {&chunk.raw_offset, &chunk.raw_size, &chunk.packed_offset,
                        &chunk.packed_size};
  size_t k = 0;
  for (JsonValue value : values) {
    if (!get_u64(value, *fields[k++])) return EntryError::NotUnsigned;
  }
  return EntryError::None;
}

enum class ChunkFault { None, NotFollowing, OverLimit, Inconsistent, Bomb, PastEnd };

// What is wrong with chunk `c`, which follows chunks ending at raw_end / packed_end. Builds no
// message: the path every accepted chunk takes.
ChunkFault chunk_fault(const Chunk& c, Compression compression, uint64_t raw_end,
                       uint64_t packed_end, uint64_t raw_total, uint64_t blob_size) {
  if (c.raw_offset != raw_end || c.packed_offset != packed_end) return ChunkFault::NotFollowing;
  if (c.raw_size > kMaxChunkSize) return ChunkFault::OverLimit;
  if (c.raw_size == 0 || c.packed_size > c.raw_size ||
      (compression == Compression::None && c.packed_size != c.raw_size)) {
    return ChunkFault::Inconsistent;
  }
  // packed_size <= raw_size <= kMaxChunkSize (checked above): the product cannot overflow.
  if (c.raw_size > kMaxChunkExpansion * c.packed_size) return ChunkFault::Bomb;
  if (c.packed_size > blob_size - packed_end || c.raw_size > raw_total - raw_end)
    return ChunkFault::PastEnd;
  return ChunkFault::None;
}

std::string chunk_fault_message(ChunkFault fault, const Chunk& c, size_t index) {
  std::string where = "chunk " + std::to_string(index);
  switch (fault) {
    case ChunkFault::NotFollowing: return where + " does not follow the previous chunk";
    case ChunkFault::OverLimit:
      return where + " claims " + std::to_string(c.raw_size) +
             " unpacked bytes, over the 1 GiB limit (assetlib::kMaxChunkSize)";
    case ChunkFault::Inconsistent: return where + " has inconsistent sizes";
    case ChunkFault::Bomb:
      return where + " claims " + std::to_string(c.raw_size) + " bytes from " +
             std::to_string(c.packed_size) +
             ": more than LZ4 can expand (256x, assetlib::kMaxChunkExpansion)";
    default: return where + " runs past the end of the blob or data";
  }
}

}  // namespace

void read_chunk_table(JsonReader& reader, JsonValue meta, uint64_t raw_total, uint64_t blob_size,
                      Compression& compression, std::vector<Chunk>& chunks) {
  read_chunk_table(reader, reader.member(meta, "compression"), reader.member(meta, "chunks"),
                   raw_total, blob_size, compression, chunks);
}

void read_chunk_table(JsonReader& reader, const Member& compression_member,
                      const Member& chunks_member, uint64_t raw_total, uint64_t blob_size,
                      Compression& compression, std::vector<Chunk>& chunks) {
  std::string_view codec = reader.string(compression_member);
  if (!reader.ok()) return;
  if (codec == "LZ4") {
    compression = Compression::LZ4;
  } else if (codec == "None") {
    compression = Compression::None;
  } else {
    reader.fail(ErrorCode::UnknownCompression, "unknown compression '" + std::string(codec) + "'");
    return;
  }
  JsonArray table = reader.array(chunks_member);
  if (!reader.ok()) return;
  // Each entry takes at least 9 bytes of JSON, so this reserve is bounded by kMaxJsonSize.
  chunks.clear();
  chunks.reserve(table.size());
  uint64_t raw_end = 0, packed_end = 0;
  size_t i = 0;
  for (JsonValue entry : table) {
    // Read in place for the same reason (a pushed copy would stall); taken back if refused.
    Chunk& c = chunks.emplace_back();
    EntryError shape = read_chunk_entry(entry, c);
    if (shape != EntryError::None) {
      chunks.pop_back();
      std::string where = "chunk " + std::to_string(i);
      reader.fail(ErrorCode::WrongKeyType,
                  where + (shape == EntryError::NotFour
                               ? " must be [raw_offset, raw_size, offset, size]"
                               : " holds a value that is not an unsigned integer"));
      return;
    }
    if (ChunkFault fault = chunk_fault(c, compression, raw_end, packed_end, raw_total, blob_size);
        fault != ChunkFault::None) {
      reader.fail(ErrorCode::InvalidValue, chunk_fault_message(fault, c, i));
      chunks.pop_back();
      return;
    }
    raw_end += c.raw_size;
    packed_end += c.packed_size;
    ++i;
  }
  if (raw_end != raw_total) {
    reader.fail(ErrorCode::InvalidValue, "chunks cover " + std::to_string(raw_end) + " of " +
                                             std::to_string(raw_total) + " unpacked bytes");
  } else if (packed_end != blob_size) {
    reader.fail(ErrorCode::InvalidValue, "chunks cover " + std::to_string(packed_end) + " of " +
                                             std::to_string(blob_size) + " blob bytes");
  }
}

void read_no_blob(JsonReader& reader, JsonValue meta, uint64_t blob_size) {
  read_no_blob(reader, reader.member(meta, "compression"), reader.member(meta, "chunks"),
               blob_size);
}

void read_no_blob(JsonReader& reader, const Member& compression, const Member& chunks,
                  uint64_t blob_size) {
  Compression codec = Compression::None;
  std::vector<Chunk> table;
  read_chunk_table(reader, compression, chunks, 0, blob_size, codec, table);
}

// ---- Writing ------------------------------------------------------------------------------------

void write_no_blob(json& meta) { write_chunk_table(meta, Compression::None, {}); }

void write_chunk_table(json& meta, Compression compression, const std::vector<Chunk>& chunks) {
  meta["compression"] = compression_name(compression);
  json table = json::array();
  for (const Chunk& c : chunks) {
    table.push_back({c.raw_offset, c.raw_size, c.packed_offset, c.packed_size});
  }
  meta["chunks"] = std::move(table);
}

Status finish_asset(AssetFile& out, const char (&type)[5], const json& meta,
                    std::vector<std::byte>&& blob, const char* context) {
  // Replace invalid UTF-8 (a source path in a legacy encoding) rather than throw.
  std::string text = meta.dump(-1, ' ', false, json::error_handler_t::replace);
  // The header pads the JSON to a multiple of 16, which keeps it within the (aligned) limit.
  static_assert(kMaxJsonSize % kBlobAlignment == 0);
  if (text.size() > kMaxJsonSize) {
    return Status::error(
        ErrorCode::InvalidArgument,
        std::string(context) + ": the metadata takes " + std::to_string(text.size()) +
            " bytes of JSON, over the 4 MiB limit (assetlib::kMaxJsonSize) readers accept"
            " (fewer materials or submeshes, or a larger chunk_size)");
  }
  std::memcpy(out.type, type, 4);
  out.version = kFormatVersion;
  out.json = std::move(text);
  out.blob = std::move(blob);
  return {};
}

}  // namespace assetlib::detail
