// Paths of the test data for the baker's unit tests: ../shared/corpus and assets/.
#pragma once

#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace test {

inline std::string corpus(const std::string& relative) {
  return std::string(ASSETLIB_CORPUS_DIR) + "/" + relative;
}
inline std::string asset(const std::string& relative) {
  return std::string(ASSETLIB_ASSETS_DIR) + "/" + relative;
}

inline std::vector<std::byte> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (size_t i = 0; i < chars.size(); ++i) bytes[i] = std::byte(chars[i]);
  return bytes;
}

}  // namespace test
