// The Vulkan boilerplate: instance, validation messenger, device choice, device, queue, command
// pool. Nothing here knows about assets; it is what every Vulkan program writes once.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sample {

// Counts what VK_EXT_debug_utils reports at warning or error severity. It lives outside the
// context because the validation layer reports leaked objects inside vkDestroyDevice and
// vkDestroyInstance, so the count is only final once the context is gone.
struct ValidationCounter {
  std::atomic<uint32_t> messages{0};
};

// What presenting to a window needs, from the windowing library (GLFW in --window mode). Only a
// window run passes it: a headless run asks for no surface extension, no VK_KHR_swapchain, no
// present support, and so works on a machine without any display.
struct PresentOptions {
  std::vector<const char*> instance_extensions;  // the surface extensions the window system needs
  std::function<VkSurfaceKHR(VkInstance)> create_surface;  // called once, right after the instance
};

struct ContextOptions {
  bool validate = false;                  // enable VK_LAYER_KHRONOS_validation + debug messenger
  std::string device_selector;            // index or case-insensitive name substring; empty: best
  ValidationCounter* counter = nullptr;   // required when validate is set
  std::optional<PresentOptions> present;  // window mode only
};

class VulkanContext {
 public:
  explicit VulkanContext(const ContextOptions& options);
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  // The one queue: graphics and transfer, and in window mode also present to surface().
  VkQueue queue() const { return queue_; }
  // The window's surface, owned by the context (it outlives the device); null when headless.
  VkSurfaceKHR surface() const { return surface_; }
  VkCommandPool command_pool() const { return command_pool_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  // The optional features the device was created with (textureCompressionBC where supported).
  const VkPhysicalDeviceFeatures& enabled_features() const { return enabled_features_; }
  // 0 when the queue cannot write timestamps; then GPU timings are reported as unavailable.
  uint32_t timestamp_valid_bits() const { return timestamp_valid_bits_; }

  // "llvmpipe (LLVM 15.0.6, 256 bits) [cpu, Vulkan 1.3.230, device 0 of 1]"
  const std::string& device_description() const { return device_description_; }

  // Labels `handle` in validation messages (e.g. with an asset's name). A no-op without
  // --validate, so callers name things unconditionally.
  void set_name(VkObjectType type, uint64_t handle, const std::string& name) const;
  template <typename Handle>
  void set_name(VkObjectType type, Handle handle, const std::string& name) const {
    set_name(type, reinterpret_cast<uint64_t>(handle), name);
  }

  VkCommandBuffer allocate_command_buffer() const;
  VkFence create_fence(bool signaled) const;
  VkSemaphore create_semaphore() const;
  void wait_for(VkFence fence) const;

 private:
  void create_instance(const ContextOptions& options);
  void create_messenger(const ContextOptions& options);
  void choose_physical_device(const std::string& selector);
  void create_device();
  void destroy() noexcept;

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  PFN_vkSetDebugUtilsObjectNameEXT set_object_name_ = nullptr;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VkPhysicalDeviceFeatures enabled_features_{};
  uint32_t queue_family_ = 0;
  uint32_t timestamp_valid_bits_ = 0;
  std::string device_description_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
};

// Begins recording `cmd` for a single submit; `what` names it in errors.
void begin_one_time_commands(VkCommandBuffer cmd, const char* what);

}  // namespace sample
