// assetlib: error reporting.
//
// No function of the public API throws, except std::bad_alloc when memory runs out (what the
// readers allocate is bounded by their input: docs/robustness.md). Each fallible function returns a
// Status: `ok()` or an error code plus a message that names what went wrong and where. Functions
// given a path or a `source_name` (load_*, parse_binaryfile, read_manifest, save_binaryfile,
// write_file_atomically) start the message with it; those working on bytes in memory
// (read_*_info, pack_*, unpack_*) name the JSON key or the chunk but not the file, which they never
// see: prefix it yourself.
//
// Show messages to people; branch on `code`: message wording may change.
#pragma once

#include <string>

namespace assetlib {

enum class ErrorCode {
  Ok = 0,
  FileNotFound,         // the path does not exist or cannot be opened
  IoError,              // read, write or rename failed
  TruncatedHeader,      // fewer than 16 bytes, or the JSON/blob lengths run past the end; also a
                        // chunk outside the blob given to unpack_*
  UnknownType,          // the 4-char type is not the one asked for (or not one we know)
  UnsupportedVersion,   // the version field (of an asset or a manifest) is not one this build reads
  LengthMismatch,       // header lengths disagree with the file size
  InvalidJson,          // the metadata is not valid JSON (or not an object)
  MissingKey,           // a required JSON key is absent
  WrongKeyType,         // a JSON key has the wrong type
  InvalidValue,         // a JSON value is out of range or inconsistent with the others; also a
                        // manifest file over its size limit, an unpack range not on chunk
                        // boundaries, a meshlet failing unpack_meshlets' checks
  UnknownCompression,   // the "compression" codec is not one this build reads (or packs)
  CorruptBlob,          // a chunk failed to decompress
  SizeMismatch,         // a chunk decompressed to a size other than the one promised
  DestinationTooSmall,  // the caller's buffer cannot hold the unpacked data
  InvalidArgument,      // a pack/unpack argument is inconsistent (e.g. pixel count vs size, a mip
                        // level out of range, a misaligned meshlet destination)
  OutOfMemory,          // an allocation failed (std::bad_alloc or std::length_error, caught)
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
