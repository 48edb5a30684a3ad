// Turning Vulkan failures into errors main() can report.
#pragma once

#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace sample {

// Every failure in the sample is fatal and ends in one message and a non-zero exit, so errors are
// exceptions: the code that meets one says what it was doing, main() prints it.
class SampleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and friends, or the number for codes not listed.
std::string vk_result_name(VkResult result);

// Throws SampleError("<what>: <result>") unless `result` is VK_SUCCESS.
void vk_check(VkResult result, const char* what);

// "<path>: <code>: <message>" for an assetlib error about `path`. assetlib's messages often start
// with the path already; it is said once.
std::string file_error(std::string_view path, std::string_view code, std::string_view message);

}  // namespace sample
