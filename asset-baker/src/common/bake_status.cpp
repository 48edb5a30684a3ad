#include "common/bake_status.h"

namespace baker {

const char* bake_error_name(BakeError code) {
  switch (code) {
    case BakeError::Ok: return "Ok";
    case BakeError::UnreadableSource: return "UnreadableSource";
    case BakeError::InvalidSource: return "InvalidSource";
    case BakeError::UnsupportedFeature: return "UnsupportedFeature";
    case BakeError::RefusedPath: return "RefusedPath";
    case BakeError::LimitExceeded: return "LimitExceeded";
    case BakeError::InvalidAsset: return "InvalidAsset";
    case BakeError::IoError: return "IoError";
    case BakeError::Config: return "Config";
    case BakeError::TimeLimit: return "TimeLimit";
    case BakeError::Internal: return "Internal";
  }
  return "Unknown";
}

bool BakeStatus::blames_source() const {
  return code == BakeError::UnreadableSource || code == BakeError::InvalidSource ||
         code == BakeError::UnsupportedFeature || code == BakeError::RefusedPath ||
         code == BakeError::LimitExceeded;
}

std::string BakeStatus::message() const { return file.empty() ? reason : file + ": " + reason; }

BakeStatus BakeStatus::from_memory_call(const assetlib::Status& status, BakeError code,
                                        std::string file) {
  if (status.ok()) return {};
  return failure(code, std::move(file), status.message);
}

BakeStatus BakeStatus::from_file_call(const assetlib::Status& status, BakeError code,
                                      const std::string& path) {
  if (status.ok()) return {};
  bool io = status.code == assetlib::ErrorCode::IoError ||
            status.code == assetlib::ErrorCode::FileNotFound;
  std::string prefix = path + ": ";
  std::string reason =
      status.message.rfind(prefix, 0) == 0 ? status.message.substr(prefix.size()) : status.message;
  return failure(io ? BakeError::IoError : code, path, std::move(reason));
}

}  // namespace baker
