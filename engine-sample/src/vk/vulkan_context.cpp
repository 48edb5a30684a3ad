#include "vk/vulkan_context.h"

#include "error.h"
#include "vk/vk_check.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <optional>
#include <vector>

namespace sample {
namespace {

constexpr uint32_t kRequiredApiVersion = VK_API_VERSION_1_2;
constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::string version_string(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

const char* device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

// Without a selector a real GPU beats a software rasterizer; lavapipe is the last resort.
int device_type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

const char* severity_name(VkDebugUtilsMessageSeverityFlagBitsEXT severity) {
  return (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                void* user_data) {
  auto* counter = static_cast<ValidationCounter*>(user_data);
  counter->messages.fetch_add(1, std::memory_order_relaxed);
  std::fprintf(stderr, "[validation %s] %s\n", severity_name(severity),
               data && data->pMessage ? data->pMessage : "(no message)");
  // VK_FALSE: report, but let the call proceed as the application asked.
  return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(ValidationCounter* counter) {
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = on_debug_message;
  info.pUserData = counter;
  return info;
}

bool has_layer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) {
    return std::string_view(l.layerName) == name;
  });
}

void require_loader_version() {
  uint32_t version = VK_API_VERSION_1_0;
  // vkEnumerateInstanceVersion exists from loader 1.1 on; a 1.0 loader cannot give us 1.2.
  auto enumerate = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  if (enumerate) enumerate(&version);
  if (version < kRequiredApiVersion) {
    throw SampleError("the Vulkan loader supports " + version_string(version) + ", 1.2 is needed");
  }
}

struct Candidate {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  // First family with graphics (which implies transfer) and, with a surface, present support.
  std::optional<uint32_t> queue_family;
  uint32_t timestamp_valid_bits = 0;
  std::string unusable;  // why it cannot be used, empty if it can
};

bool has_device_extension(VkPhysicalDevice device, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
    return std::string_view(e.extensionName) == name;
  });
}

// Headless (no surface) every family can "present"; a failed query counts as no support.
bool can_present(VkPhysicalDevice device, uint32_t family, VkSurfaceKHR surface) {
  if (!surface) return true;
  VkBool32 supported = VK_FALSE;
  return vkGetPhysicalDeviceSurfaceSupportKHR(device, family, surface, &supported) == VK_SUCCESS &&
         supported == VK_TRUE;
}

// One queue does everything, so the family must do graphics and, in window mode, present too.
// (Devices that present only from a separate family are reported as unusable.)
void choose_queue_family(VkPhysicalDevice device, VkSurfaceKHR surface, Candidate& c) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && can_present(device, i, surface)) {
      c.queue_family = i;
      c.timestamp_valid_bits = families[i].timestampValidBits;
      return;
    }
  }
}

Candidate describe(VkPhysicalDevice device, VkSurfaceKHR surface) {
  Candidate c;
  c.handle = device;
  vkGetPhysicalDeviceProperties(device, &c.properties);
  choose_queue_family(device, surface, c);
  if (c.properties.apiVersion < kRequiredApiVersion) {
    c.unusable = "supports Vulkan " + version_string(c.properties.apiVersion) + ", 1.2 is needed";
  } else if (surface && !has_device_extension(device, VK_KHR_SWAPCHAIN_EXTENSION_NAME)) {
    c.unusable = "lacks VK_KHR_swapchain, which the window needs";
  } else if (!c.queue_family) {
    c.unusable =
        surface ? "has no graphics queue that can present to the window" : "has no graphics queue";
  }
  return c;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::string list_candidates(const std::vector<Candidate>& candidates) {
  std::string out;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    out += "\n  [" + std::to_string(i) + "] " + c.properties.deviceName + " (" +
           device_type_name(c.properties.deviceType) + ")";
    if (!c.unusable.empty()) out += ": " + c.unusable;
  }
  return out;
}

// Index of the device `selector` names (a number or part of the name), or of the best usable one.
size_t select_candidate(const std::vector<Candidate>& candidates, const std::string& selector) {
  if (selector.empty()) {
    std::optional<size_t> best;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (!candidates[i].unusable.empty()) continue;
      if (!best || device_type_rank(candidates[i].properties.deviceType) >
                       device_type_rank(candidates[*best].properties.deviceType)) {
        best = i;
      }
    }
    if (!best) throw SampleError("no usable Vulkan device:" + list_candidates(candidates));
    return *best;
  }
  size_t index = 0;
  const char* end = selector.data() + selector.size();
  auto [ptr, ec] = std::from_chars(selector.data(), end, index);
  bool numeric = ec == std::errc() && ptr == end;
  std::optional<size_t> found;
  for (size_t i = 0; i < candidates.size() && !found; ++i) {
    bool match = numeric
                     ? i == index
                     : lowercase(candidates[i].properties.deviceName).find(lowercase(selector)) !=
                           std::string::npos;
    if (match) found = i;
  }
  if (!found) {
    throw SampleError("--device " + selector + " matches no device:" + list_candidates(candidates));
  }
  if (!candidates[*found].unusable.empty()) {
    throw SampleError("--device " + selector + ": " + candidates[*found].properties.deviceName +
                      " " + candidates[*found].unusable);
  }
  return *found;
}

}  // namespace

VulkanContext::VulkanContext(const ContextOptions& options) {
  try {
    create_instance(options);
    create_messenger(options);
    // The surface exists before the device is chosen: only a device that can present to it will do.
    if (options.present) surface_ = options.present->create_surface(instance_);
    choose_physical_device(options.device_selector);
    create_device();
  } catch (...) {
    destroy();
    throw;
  }
}

VulkanContext::~VulkanContext() { destroy(); }

void VulkanContext::create_instance(const ContextOptions& options) {
  require_loader_version();
  std::vector<const char*> layers;
  // Surface extensions in window mode only: a headless instance must not depend on a display.
  std::vector<const char*> extensions;
  if (options.present) extensions = options.present->instance_extensions;
  VkDebugUtilsMessengerCreateInfoEXT debug_info{};
  if (options.validate) {
    if (!options.counter) throw SampleError("internal: --validate needs a message counter");
    if (!has_layer(kValidationLayer)) {
      throw SampleError(std::string("--validate: ") + kValidationLayer +
                        " is not installed (Debian: apt-get install vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    debug_info = messenger_info(options.counter);
  }

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "engine-sample";
  app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.pEngineName = "assetlib";
  app.apiVersion = kRequiredApiVersion;

  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  // Chaining the messenger here also catches what vkCreateInstance/vkDestroyInstance report.
  info.pNext = options.validate ? &debug_info : nullptr;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  vk_check(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
}

void VulkanContext::create_messenger(const ContextOptions& options) {
  if (!options.validate) return;
  VkDebugUtilsMessengerCreateInfoEXT debug_info = messenger_info(options.counter);
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
  if (!create) throw SampleError("--validate: vkCreateDebugUtilsMessengerEXT is missing");
  vk_check(create(instance_, &debug_info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
  set_object_name_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
      vkGetInstanceProcAddr(instance_, "vkSetDebugUtilsObjectNameEXT"));
}

void VulkanContext::choose_physical_device(const std::string& selector) {
  uint32_t count = 0;
  vk_check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  vk_check(vkEnumeratePhysicalDevices(instance_, &count, devices.data()),
           "vkEnumeratePhysicalDevices");
  if (devices.empty()) {
    throw SampleError(
        "no Vulkan device found (for a CPU device: apt-get install mesa-vulkan-drivers)");
  }
  std::vector<Candidate> candidates;
  for (VkPhysicalDevice d : devices) candidates.push_back(describe(d, surface_));
  size_t index = select_candidate(candidates, selector);

  const Candidate& chosen = candidates[index];
  physical_device_ = chosen.handle;
  properties_ = chosen.properties;
  queue_family_ = *chosen.queue_family;
  timestamp_valid_bits_ = chosen.timestamp_valid_bits;
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
  device_description_ = std::string(properties_.deviceName) + " [" +
                        device_type_name(properties_.deviceType) + ", Vulkan " +
                        version_string(properties_.apiVersion) + ", device " +
                        std::to_string(index) + " of " + std::to_string(candidates.size()) + "]";
}

void VulkanContext::create_device() {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  // Headless: no swapchain extension, and no feature is required, so any 1.2 device qualifies.
  // A window adds VK_KHR_swapchain (choose_physical_device made sure the device has it).
  // BC textures are enabled where the device has them; the loader reports baked BC textures
  // as unusable where it does not.
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(physical_device_, &supported);
  enabled_features_.textureCompressionBC = supported.textureCompressionBC;

  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.pEnabledFeatures = &enabled_features_;
  const char* swapchain_extension = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
  if (surface_) {
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &swapchain_extension;
  }
  vk_check(vkCreateDevice(physical_device_, &info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  // Command buffers are re-recorded (upload slots, frames), so each must be resettable.
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  vk_check(vkCreateCommandPool(device_, &pool_info, nullptr, &command_pool_),
           "vkCreateCommandPool");
}

void VulkanContext::destroy() noexcept {
  if (device_) {
    vkDeviceWaitIdle(device_);
    if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  // After the device (whose swapchains used it), before the instance that made it.
  if (surface_) {
    vkDestroySurfaceKHR(instance_, surface_, nullptr);
    surface_ = VK_NULL_HANDLE;
  }
  if (messenger_) {
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy_messenger) destroy_messenger(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_) {
    vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

void VulkanContext::set_name(VkObjectType type, uint64_t handle, const std::string& name) const {
  if (!set_object_name_) return;
  VkDebugUtilsObjectNameInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT;
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name.c_str();
  set_object_name_(device_, &info);
}

VkCommandBuffer VulkanContext::allocate_command_buffer() const {
  VkCommandBufferAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  info.commandPool = command_pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  vk_check(vkAllocateCommandBuffers(device_, &info, &cmd), "vkAllocateCommandBuffers");
  return cmd;
}

VkFence VulkanContext::create_fence(bool signaled) const {
  VkFenceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  if (signaled) info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
  VkFence fence = VK_NULL_HANDLE;
  vk_check(vkCreateFence(device_, &info, nullptr, &fence), "vkCreateFence");
  return fence;
}

VkSemaphore VulkanContext::create_semaphore() const {
  VkSemaphoreCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  vk_check(vkCreateSemaphore(device_, &info, nullptr, &semaphore), "vkCreateSemaphore");
  return semaphore;
}

void VulkanContext::wait_for(VkFence fence) const {
  vk_check(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
}

void begin_one_time_commands(VkCommandBuffer cmd, const char* what) {
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk_check(vkBeginCommandBuffer(cmd, &begin), what);
}

}  // namespace sample
