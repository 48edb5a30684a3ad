#include "metadata.h"

#include <assetlib/limits.h>

#include <cmath>
#include <cstring>

namespace assetlib::detail {
namespace {

const char* compression_name(Compression c) { return c == Compression::LZ4 ? "LZ4" : "None"; }

}  // namespace

void JsonReader::fail(ErrorCode code, const std::string& what) {
  if (status_.ok()) status_ = Status::error(code, context_ + ": " + what);
}

const json* JsonReader::find(const json& obj, const char* key,
                             bool (json::*is_type)() const noexcept, const char* type_name) {
  if (!ok()) return nullptr;
  if (!obj.is_object()) {
    fail(ErrorCode::WrongKeyType, std::string("expected an object holding '") + key + "'");
    return nullptr;
  }
  auto it = obj.find(key);
  if (it == obj.end()) {
    fail(ErrorCode::MissingKey, std::string("missing key '") + key + "'");
    return nullptr;
  }
  if (!((*it).*is_type)()) {
    fail(ErrorCode::WrongKeyType,
         std::string("key '") + key + "' must be " + type_name + ", not " + it->type_name());
    return nullptr;
  }
  return &*it;
}

uint64_t JsonReader::u64(const json& obj, const char* key, uint64_t max) {
  const json* v = find(obj, key, &json::is_number_unsigned, "an unsigned integer");
  if (!v) return 0;
  uint64_t value = v->get<uint64_t>();
  if (value > max) {
    fail(ErrorCode::InvalidValue, std::string("key '") + key + "' = " + std::to_string(value) +
                                      " exceeds " + std::to_string(max));
    return 0;
  }
  return value;
}

int64_t JsonReader::i64(const json& obj, const char* key, int64_t min, int64_t max) {
  const json* v = find(obj, key, &json::is_number_integer, "an integer");
  if (!v) return 0;
  bool in_range = v->is_number_unsigned() ? max >= 0 && v->get<uint64_t>() <= uint64_t(max) &&
                                                (min <= 0 || v->get<uint64_t>() >= uint64_t(min))
                                          : v->get<int64_t>() >= min && v->get<int64_t>() <= max;
  if (!in_range) {
    fail(ErrorCode::InvalidValue, std::string("key '") + key + "' = " + v->dump() + " is outside " +
                                      std::to_string(min) + ".." + std::to_string(max));
    return 0;
  }
  return v->get<int64_t>();
}

bool JsonReader::boolean(const json& obj, const char* key) {
  const json* v = find(obj, key, &json::is_boolean, "true or false");
  return v ? v->get<bool>() : false;
}

std::string JsonReader::optional_string(const json& obj, const char* key,
                                        const std::string& fallback) {
  if (!ok() || !obj.is_object() || !obj.contains(key)) return fallback;
  return string(obj, key);
}

const json& JsonReader::entries(const json& obj, const char* key) {
  const json& values = array(obj, key);
  if (values.size() > kMaxArrayEntries)
    fail(ErrorCode::InvalidValue, std::string("too many '") + key + "'");
  return values;
}

float JsonReader::f32(const json& obj, const char* key) {
  const json* v = find(obj, key, &json::is_number, "a number");
  if (!v) return 0;
  double value = v->get<double>();
  if (!std::isfinite(value) || std::fabs(value) > 3.0e38) {
    fail(ErrorCode::InvalidValue, std::string("key '") + key + "' is not a finite float");
    return 0;
  }
  return float(value);
}

std::string JsonReader::string(const json& obj, const char* key) {
  const json* v = find(obj, key, &json::is_string, "a string");
  return v ? v->get<std::string>() : std::string();
}

const json& JsonReader::array(const json& obj, const char* key) {
  static const json empty = json::array();
  const json* v = find(obj, key, &json::is_array, "an array");
  return v ? *v : empty;
}

const json& JsonReader::object(const json& obj, const char* key) {
  static const json empty = json::object();
  const json* v = find(obj, key, &json::is_object, "an object");
  return v ? *v : empty;
}

void JsonReader::f32_array(const json& obj, const char* key, float* out, size_t count) {
  const json& values = array(obj, key);
  if (!ok()) return;
  if (values.size() != count) {
    fail(ErrorCode::InvalidValue,
         std::string("key '") + key + "' must hold " + std::to_string(count) + " numbers");
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    if (!values[i].is_number()) {
      fail(ErrorCode::WrongKeyType, std::string("key '") + key + "' must hold numbers");
      return;
    }
    double value = values[i].get<double>();
    if (!std::isfinite(value)) {
      fail(ErrorCode::InvalidValue, std::string("key '") + key + "' holds a non-finite number");
      return;
    }
    out[i] = float(value);
  }
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

Status parse_json(std::string_view text, std::string_view what, json& out) {
  // Refused by a scan before the parser builds anything (kMaxJsonDepth).
  if (!json_depth_within(text, kMaxJsonDepth)) {
    return Status::error(ErrorCode::InvalidJson, std::string(what) + " is nested deeper than " +
                                                     std::to_string(kMaxJsonDepth) +
                                                     " levels (assetlib::kMaxJsonDepth)");
  }
  out = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded())
    return Status::error(ErrorCode::InvalidJson, std::string(what) + " is not valid JSON");
  if (!out.is_object())
    return Status::error(ErrorCode::InvalidJson, std::string(what) + " is not a JSON object");
  return {};
}

Status parse_metadata(const AssetView& file, const char (&type)[5], json& out) {
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
  return parse_json(file.json, std::string(type) + " metadata", out);
}

Status check_unpacked_size(uint64_t unpacked, const char* context) {
  if (unpacked > kMaxUnpackedSize) {
    return Status::error(ErrorCode::InvalidValue,
                         std::string(context) + ": unpacked size " + std::to_string(unpacked) +
                             " bytes is over the 4 GiB limit (assetlib::kMaxUnpackedSize)");
  }
  return {};
}

void read_chunk_table(JsonReader& reader, const json& meta, uint64_t raw_total, uint64_t blob_size,
                      Compression& compression, std::vector<Chunk>& chunks) {
  std::string codec = reader.string(meta, "compression");
  if (!reader.ok()) return;
  if (codec == "LZ4") {
    compression = Compression::LZ4;
  } else if (codec == "None") {
    compression = Compression::None;
  } else {
    reader.fail(ErrorCode::UnknownCompression, "unknown compression '" + codec + "'");
    return;
  }
  const json& table = reader.array(meta, "chunks");
  if (!reader.ok()) return;
  // Each entry takes at least 10 bytes of JSON, so this reserve is bounded by kMaxJsonSize.
  chunks.clear();
  chunks.reserve(table.size());
  uint64_t raw_end = 0, packed_end = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const json& entry = table[i];
    std::string where = "chunk " + std::to_string(i);
    if (!entry.is_array() || entry.size() != 4) {
      reader.fail(ErrorCode::WrongKeyType, where + " must be [raw_offset, raw_size, offset, size]");
      return;
    }
    uint64_t v[4];
    for (size_t k = 0; k < 4; ++k) {
      if (!entry[k].is_number_unsigned()) {
        reader.fail(ErrorCode::WrongKeyType,
                    where + " holds a value that is not an unsigned integer");
        return;
      }
      v[k] = entry[k].get<uint64_t>();
    }
    Chunk c{v[0], v[1], v[2], v[3]};
    if (c.raw_offset != raw_end || c.packed_offset != packed_end) {
      reader.fail(ErrorCode::InvalidValue, where + " does not follow the previous chunk");
      return;
    }
    if (c.raw_size > kMaxChunkSize) {
      reader.fail(ErrorCode::InvalidValue,
                  where + " claims " + std::to_string(c.raw_size) +
                      " unpacked bytes, over the 1 GiB limit (assetlib::kMaxChunkSize)");
      return;
    }
    if (c.raw_size == 0 || c.packed_size > c.raw_size ||
        (compression == Compression::None && c.packed_size != c.raw_size)) {
      reader.fail(ErrorCode::InvalidValue, where + " has inconsistent sizes");
      return;
    }
    // packed_size <= raw_size <= kMaxChunkSize (checked above): the product cannot overflow.
    if (c.raw_size > kMaxChunkExpansion * c.packed_size) {
      reader.fail(ErrorCode::InvalidValue,
                  where + " claims " + std::to_string(c.raw_size) + " bytes from " +
                      std::to_string(c.packed_size) +
                      ": more than LZ4 can expand (256x, assetlib::kMaxChunkExpansion)");
      return;
    }
    if (c.packed_size > blob_size - packed_end || c.raw_size > raw_total - raw_end) {
      reader.fail(ErrorCode::InvalidValue, where + " runs past the end of the blob or data");
      return;
    }
    raw_end += c.raw_size;
    packed_end += c.packed_size;
    chunks.push_back(c);
  }
  if (raw_end != raw_total) {
    reader.fail(ErrorCode::InvalidValue, "chunks cover " + std::to_string(raw_end) + " of " +
                                             std::to_string(raw_total) + " unpacked bytes");
  } else if (packed_end != blob_size) {
    reader.fail(ErrorCode::InvalidValue, "chunks cover " + std::to_string(packed_end) + " of " +
                                             std::to_string(blob_size) + " blob bytes");
  }
}

void write_no_blob(json& meta) { write_chunk_table(meta, Compression::None, {}); }

void read_no_blob(JsonReader& reader, const json& meta, uint64_t blob_size) {
  Compression compression = Compression::None;
  std::vector<Chunk> chunks;
  read_chunk_table(reader, meta, 0, blob_size, compression, chunks);
}

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
