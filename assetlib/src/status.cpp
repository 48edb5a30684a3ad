#include <assetlib/status.h>

namespace assetlib {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::Ok: return "Ok";
    case ErrorCode::FileNotFound: return "FileNotFound";
    case ErrorCode::IoError: return "IoError";
    case ErrorCode::TruncatedHeader: return "TruncatedHeader";
    case ErrorCode::UnknownType: return "UnknownType";
    case ErrorCode::UnsupportedVersion: return "UnsupportedVersion";
    case ErrorCode::LengthMismatch: return "LengthMismatch";
    case ErrorCode::InvalidJson: return "InvalidJson";
    case ErrorCode::MissingKey: return "MissingKey";
    case ErrorCode::WrongKeyType: return "WrongKeyType";
    case ErrorCode::InvalidValue: return "InvalidValue";
    case ErrorCode::UnknownCompression: return "UnknownCompression";
    case ErrorCode::CorruptBlob: return "CorruptBlob";
    case ErrorCode::SizeMismatch: return "SizeMismatch";
    case ErrorCode::DestinationTooSmall: return "DestinationTooSmall";
    case ErrorCode::InvalidArgument: return "InvalidArgument";
    case ErrorCode::OutOfMemory: return "OutOfMemory";
  }
  return "Unknown";
}

}  // namespace assetlib
