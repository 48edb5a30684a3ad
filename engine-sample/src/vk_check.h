// Turning Vulkan failures into errors main() can report.
#pragma once

#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

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

}  // namespace sample
