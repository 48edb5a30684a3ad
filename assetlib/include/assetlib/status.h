// assetlib: error reporting.
//
// No function of the public API throws. Each returns a Status: `ok()` or an error code plus a
// message that names what went wrong and where (the file, the JSON key, the byte offset).
#pragma once

#include <string>

namespace assetlib {

enum class ErrorCode {
  Ok = 0,
  FileNotFound,        // the path does not exist or cannot be opened
  IoError,             // read, write or rename failed
  TruncatedHeader,     // fewer than 16 bytes, or the JSON/blob lengths run past the end
  UnknownType,         // the 4-char type is not the one asked for (or not one we know)
  UnsupportedVersion,  // the version field is not one this build reads
  LengthMismatch,      // header lengths disagree with the file size
  InvalidJson,         // the metadata is not valid JSON (or not an object)
  MissingKey,          // a required JSON key is absent
  WrongKeyType,        // a JSON key has the wrong type
  InvalidValue,        // a JSON value is out of range or inconsistent with the others
  UnknownCompression,  // the "compression" codec is not one this build reads
  CorruptBlob,         // a chunk failed to decompress
  SizeMismatch,        // a chunk decompressed to a size other than the one promised
  DestinationTooSmall, // the caller's buffer cannot hold the unpacked data
  InvalidArgument,     // a pack/unpack argument is inconsistent (e.g. pixel count vs size)
};

// Returns a stable, human-readable name for a code, e.g. "TruncatedHeader".
const char* error_code_name(ErrorCode code);

struct Status {
  ErrorCode code = ErrorCode::Ok;
  std::string message;  // empty when ok

  bool ok() const { return code == ErrorCode::Ok; }
  explicit operator bool() const { return ok(); }

  static Status success() { return {}; }
  static Status error(ErrorCode code, std::string message) { return {code, std::move(message)}; }
};

}  // namespace assetlib
