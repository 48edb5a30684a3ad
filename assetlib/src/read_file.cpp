#include "read_file.h"

#include <cstdio>
#include <memory>

namespace assetlib::detail {

Status read_file(const std::string& path, uint64_t max_size, std::string& out) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Status::error(ErrorCode::FileNotFound, path + ": cannot open file");
  long size = -1;
  if (std::fseek(f.get(), 0, SEEK_END) == 0) size = std::ftell(f.get());
  if (size < 0 || std::fseek(f.get(), 0, SEEK_SET) != 0) {
    return Status::error(ErrorCode::IoError, path + ": cannot determine the file size");
  }
  if (uint64_t(size) > max_size) {
    return Status::error(ErrorCode::InvalidValue, path + ": " + std::to_string(size) +
                                                      " bytes exceeds the limit of " +
                                                      std::to_string(max_size));
  }
  std::string text(size_t(size), '\0');
  if (std::fread(text.data(), 1, text.size(), f.get()) != text.size()) {
    return Status::error(ErrorCode::IoError, path + ": read failed");
  }
  out = std::move(text);
  return {};
}

}  // namespace assetlib::detail
