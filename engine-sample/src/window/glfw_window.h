// The GLFW side of --window: the library, one resizable window with no GL context, its surface
// extensions and surface, and the input the orbit camera reads. Built only when CMake finds GLFW;
// this header does not include GLFW's, so callers need not either.
#pragma once

#include "vk/vulkan_context.h"

#include <vulkan/vulkan.h>

#include <cstdint>

struct GLFWwindow;

namespace sample {

// What the user did since the last take_input().
struct WindowInput {
  float drag_x = 0;  // pixels the pointer moved with the left button held
  float drag_y = 0;
  float scroll = 0;  // wheel steps, positive away from the user
  bool resized = false;
};

class GlfwWindow {
 public:
  // Initialises GLFW and opens the window; throws SampleError when there is no display or no
  // Vulkan support in GLFW. `width` x `height` is the requested client size.
  GlfwWindow(uint32_t width, uint32_t height, const char* title);
  ~GlfwWindow();
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  // For VulkanContext: the instance extensions this window system needs, and its surface.
  PresentOptions present_options();

  // Size of the drawable area in pixels; 0 x 0 while minimised on some window systems.
  VkExtent2D framebuffer_extent() const;
  // Iconified or without area: nothing drawn would be seen, so the caller stops drawing.
  bool minimised() const;
  bool should_close() const;
  void poll_events() const;
  // Sleeps until something happens, or a tenth of a second: a window system need not send an
  // event when a surface gets its area back.
  void wait_events() const;
  WindowInput take_input();

 private:
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void on_button(GLFWwindow* window, int button, int action, int mods);
  static void on_cursor(GLFWwindow* window, double x, double y);
  static void on_scroll(GLFWwindow* window, double dx, double dy);
  static void on_resize(GLFWwindow* window, int width, int height);
  static GlfwWindow& from(GLFWwindow* window);

  GLFWwindow* window_ = nullptr;
  WindowInput input_;
  bool dragging_ = false;
  double last_x_ = 0;
  double last_y_ = 0;
};

}  // namespace sample
