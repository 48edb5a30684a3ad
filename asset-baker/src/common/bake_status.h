// The baker's one error convention. Every stage returns a BakeStatus: a code saying what kind of
// failure it is, the file it is about, and the reason without the file. The file is named exactly
// once, by message(); no caller inspects or prefixes the text.
#pragma once

#include <assetlib/status.h>

#include <string>

namespace baker {

enum class BakeError {
  Ok = 0,
  UnreadableSource,    // a source cannot be opened, read or decoded at all
  InvalidSource,       // a source is readable but malformed (truncated, out-of-range indices)
  UnsupportedFeature,  // a valid source uses something the baker does not bake
  RefusedPath,         // a path leads outside its root, or is not UTF-8
  LimitExceeded,       // a size, count or ratio over a documented cap
  TimeLimit,           // still baking at the per-file time limit (the machine may just be slow)
  InvalidAsset,        // a baked file fails to load or unpack (check, info, --verify)
  IoError,             // writing the output, or reading a file that is there, failed (disk full,
                       // permissions, a device error): not the source's fault
  Config,              // baker.json or the command line is wrong
  Internal,            // an exception escaped a third-party library
};

// A stable name for a code, e.g. "InvalidSource" (for JSON reports).
const char* bake_error_name(BakeError code);

struct BakeStatus {
  BakeError code = BakeError::Ok;
  std::string
      file;  // the file the problem is about (root-relative or as the user gave it); may be empty
  std::string reason;  // what is wrong, without the file

  bool ok() const { return code == BakeError::Ok; }
  explicit operator bool() const { return ok(); }
  // True when the source file itself is at fault (unreadable, malformed, unsupported, refused,
  // over a limit), as opposed to the output, the configuration or the baker.
  bool blames_source() const;

  // "<file>: <reason>", or the reason alone when no file is known.
  std::string message() const;

  static BakeStatus failure(BakeError code, std::string file, std::string reason) {
    return {code, std::move(file), std::move(reason)};
  }
  // An assetlib call on bytes in memory (pack_*, read_*_info, unpack_*): its message names no file.
  static BakeStatus from_memory_call(const assetlib::Status& status, BakeError code,
                                     std::string file);
  // An assetlib call given a path (load_binaryfile, save_binaryfile, write_file_atomically,
  // load_manifest): its message starts with "<path>: ", which becomes `file`. The code follows the
  // library's: I/O failures are IoError, anything else `code`.
  static BakeStatus from_file_call(const assetlib::Status& status, BakeError code,
                                   const std::string& path);
};

}  // namespace baker
