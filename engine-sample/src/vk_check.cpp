#include "vk_check.h"

namespace sample {

std::string vk_result_name(VkResult result) {
  switch (result) {
#define SAMPLE_RESULT_CASE(r) \
  case r:                     \
    return #r;
    SAMPLE_RESULT_CASE(VK_SUCCESS)
    SAMPLE_RESULT_CASE(VK_NOT_READY)
    SAMPLE_RESULT_CASE(VK_TIMEOUT)
    SAMPLE_RESULT_CASE(VK_INCOMPLETE)
    SAMPLE_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    SAMPLE_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    SAMPLE_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    SAMPLE_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    SAMPLE_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    SAMPLE_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    SAMPLE_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    SAMPLE_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    SAMPLE_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    SAMPLE_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    SAMPLE_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    SAMPLE_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    SAMPLE_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    SAMPLE_RESULT_CASE(VK_ERROR_UNKNOWN)
#undef SAMPLE_RESULT_CASE
    default:
      return "VkResult " + std::to_string(static_cast<int>(result));
  }
}

void vk_check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) throw SampleError(std::string(what) + ": " + vk_result_name(result));
}

std::string file_error(std::string_view path, std::string_view code, std::string_view message) {
  std::string prefix = std::string(path) + ": ";
  if (message.starts_with(prefix)) message.remove_prefix(prefix.size());
  return prefix + std::string(code) + ": " + std::string(message);
}

}  // namespace sample
