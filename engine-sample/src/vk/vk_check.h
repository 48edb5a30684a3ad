// Checking Vulkan results: a failed call becomes a SampleError carrying its VkResult.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace sample {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and friends, or the number for codes not listed.
std::string vk_result_name(VkResult result);

// Throws SampleError::vulkan(result, call), "<call>: <result>", unless `result` is VK_SUCCESS.
void vk_check(VkResult result, const char* call);

}  // namespace sample
