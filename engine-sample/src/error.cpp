#include "error.h"

#include "vk/vk_check.h"

#include <utility>

namespace sample {
namespace {

// " [MissingKey]": the library's code, after the message.
std::string code_tag(assetlib::ErrorCode code) {
  return std::string(" [") + assetlib::error_code_name(code) + "]";
}

}  // namespace

SampleError::SampleError(const std::string& message, std::string file, VkResult vk_result,
                         assetlib::ErrorCode asset_code)
    : std::runtime_error(message),
      file_(std::move(file)),
      vk_result_(vk_result),
      asset_code_(asset_code) {}

SampleError::SampleError(std::string file, const std::string& reason)
    : SampleError(file + ": " + reason, file, VK_SUCCESS, {}) {}

SampleError SampleError::vulkan(VkResult result, const std::string& call) {
  return {call + ": " + vk_result_name(result), {}, result, {}};
}

SampleError SampleError::from_memory_call(std::string file, const assetlib::Status& status) {
  std::string message = file + ": " + status.message + code_tag(status.code);
  return {message, std::move(file), VK_SUCCESS, status.code};
}

SampleError SampleError::from_file_call(std::string file, const assetlib::Status& status) {
  return {status.message + code_tag(status.code), std::move(file), VK_SUCCESS, status.code};
}

}  // namespace sample
