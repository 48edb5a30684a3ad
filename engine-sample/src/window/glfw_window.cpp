#include "window/glfw_window.h"

#include "error.h"
#include "vk/vk_check.h"

// GLFW_INCLUDE_VULKAN declares glfwCreateWindowSurface and friends with Vulkan's types.
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <string>

namespace sample {
namespace {

// GLFW reports failures through this callback as well as return values; the message says why
// (e.g. no DISPLAY), which the return value does not.
std::string g_last_glfw_error;

void on_glfw_error(int code, const char* description) {
  g_last_glfw_error = std::string(description ? description : "unknown error") + " (GLFW error " +
                      std::to_string(code) + ")";
}

[[noreturn]] void fail(const std::string& what) {
  std::string reason = g_last_glfw_error.empty() ? "" : ": " + g_last_glfw_error;
  throw SampleError("--window: " + what + reason);
}

}  // namespace

GlfwWindow::GlfwWindow(uint32_t width, uint32_t height, const char* title) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) fail("cannot initialise GLFW (is there a display?)");
  if (!glfwVulkanSupported()) {
    glfwTerminate();
    fail("GLFW finds no Vulkan loader");
  }
  // Vulkan draws into the window, so GLFW must not create an OpenGL context for it.
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  window_ =
      glfwCreateWindow(static_cast<int>(width), static_cast<int>(height), title, nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    fail("cannot create a " + std::to_string(width) + "x" + std::to_string(height) + " window");
  }
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, on_key);
  glfwSetMouseButtonCallback(window_, on_button);
  glfwSetCursorPosCallback(window_, on_cursor);
  glfwSetScrollCallback(window_, on_scroll);
  glfwSetFramebufferSizeCallback(window_, on_resize);
}

GlfwWindow::~GlfwWindow() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

PresentOptions GlfwWindow::present_options() {
  PresentOptions options;
  uint32_t count = 0;
  // Static strings owned by GLFW, valid until glfwTerminate(), which outlives the context.
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  if (!names) fail("GLFW knows no Vulkan surface extensions for this window system");
  options.instance_extensions.assign(names, names + count);
  options.create_surface = [this](VkInstance instance) {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    vk_check(glfwCreateWindowSurface(instance, window_, nullptr, &surface),
             "glfwCreateWindowSurface");
    return surface;
  };
  return options;
}

VkExtent2D GlfwWindow::framebuffer_extent() const {
  int width = 0;
  int height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  return {static_cast<uint32_t>(width), static_cast<uint32_t>(height)};
}

bool GlfwWindow::minimised() const {
  VkExtent2D size = framebuffer_extent();
  return glfwGetWindowAttrib(window_, GLFW_ICONIFIED) || size.width == 0 || size.height == 0;
}

bool GlfwWindow::should_close() const { return glfwWindowShouldClose(window_); }
void GlfwWindow::poll_events() const { glfwPollEvents(); }
void GlfwWindow::wait_events() const { glfwWaitEventsTimeout(0.1); }

WindowInput GlfwWindow::take_input() {
  WindowInput input = input_;
  input_ = {};
  return input;
}

GlfwWindow& GlfwWindow::from(GLFWwindow* window) {
  return *static_cast<GlfwWindow*>(glfwGetWindowUserPointer(window));
}

void GlfwWindow::on_key(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
  if (key == GLFW_KEY_ESCAPE && action == GLFW_PRESS) glfwSetWindowShouldClose(window, GLFW_TRUE);
}

void GlfwWindow::on_button(GLFWwindow* window, int button, int action, int /*mods*/) {
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  // The drag starts at the last position on_cursor saw, which is where the press happened;
  // asking for the cursor position here would give where it is now, after later motion.
  from(window).dragging_ = action == GLFW_PRESS;
}

void GlfwWindow::on_cursor(GLFWwindow* window, double x, double y) {
  GlfwWindow& self = from(window);
  if (self.dragging_) {
    self.input_.drag_x += static_cast<float>(x - self.last_x_);
    self.input_.drag_y += static_cast<float>(y - self.last_y_);
  }
  self.last_x_ = x;
  self.last_y_ = y;
}

void GlfwWindow::on_scroll(GLFWwindow* window, double /*dx*/, double dy) {
  from(window).input_.scroll += static_cast<float>(dy);
}

void GlfwWindow::on_resize(GLFWwindow* window, int /*width*/, int /*height*/) {
  from(window).input_.resized = true;
}

}  // namespace sample
