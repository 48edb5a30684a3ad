// The sample's one error convention.
//
// Every failure in the sample is fatal and ends in one message and exit status 1, so failures are
// exceptions: thrown where they are met, printed by main(). Each SampleError carries what failed
// as a code a caller can test (the VkResult of a Vulkan call, the assetlib::ErrorCode of a
// library call), the file it is about, and a message naming that file exactly once.
//
// Whether an assetlib message already names the file is known from the call, never read from the
// text: calls given the path or a source name (load_manifest, parse_binaryfile, save_binaryfile)
// start their message with it; calls on bytes in memory (read_*_info, unpack_*, pack_*) know no
// file. Each call site says which it made by the function it calls here.
#pragma once

#include <assetlib/status.h>
#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

namespace sample {

class SampleError : public std::runtime_error {
 public:
  // The sample's own check failed: "<reason>".
  explicit SampleError(const std::string& reason) : SampleError(reason, {}, VK_SUCCESS, {}) {}
  // The sample's own check on `file` failed: "<file>: <reason>".
  SampleError(std::string file, const std::string& reason);

  // A Vulkan call failed: "<call>: VK_ERROR_...". vk_check() throws these.
  static SampleError vulkan(VkResult result, const std::string& call);
  // An assetlib call on bytes in memory failed while handling `file`: "<file>: <message> [<code>]".
  static SampleError from_memory_call(std::string file, const assetlib::Status& status);
  // An assetlib call that was given `file` as its path or source name failed; its message starts
  // with the file already: "<message> [<code>]".
  static SampleError from_file_call(std::string file, const assetlib::Status& status);

  // VK_SUCCESS unless a Vulkan call failed.
  VkResult vk_result() const { return vk_result_; }
  // Ok unless an assetlib call failed.
  assetlib::ErrorCode asset_code() const { return asset_code_; }
  // The file the failure is about; empty when none.
  const std::string& file() const { return file_; }

 private:
  SampleError(const std::string& message, std::string file, VkResult vk_result,
              assetlib::ErrorCode asset_code);

  std::string file_;
  VkResult vk_result_ = VK_SUCCESS;
  assetlib::ErrorCode asset_code_ = assetlib::ErrorCode::Ok;
};

}  // namespace sample
