// --window: the loaded scene in a GLFW window with an orbit camera (drag to orbit, wheel to zoom,
// Esc or the close button to quit). It draws with the same pipelines, materials and draws as the
// offscreen renderer (render/scene_draws.h); only the render target, a swapchain, is its own.
#pragma once

#include "assets/gpu_scene.h"
#include "assets/load_report.h"
#include "render/scene_draws.h"

#include <cstdint>
#include <optional>

namespace sample {

class GlfwWindow;
class VulkanContext;

struct WindowOptions {
  SceneLayout layout = SceneLayout::Grid;
  DrawOptions draw;
  // Present this many frames, then return (so a test can run it); without, run until closed.
  std::optional<uint32_t> frames;
};

// Renders `scene` into `window` until it is closed or `options.frames` frames were presented.
// `ctx` must have been created with the window's PresentOptions. The timings are per presented
// frame: record, submit and present, including any wait for a free frame slot.
FrameTimings run_window(const VulkanContext& ctx, const GpuScene& scene, GlfwWindow& window,
                        const WindowOptions& options);

}  // namespace sample
