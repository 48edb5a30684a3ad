// --window: the loaded scene in a GLFW window with an orbit camera (drag to orbit, wheel to zoom,
// Esc or the close button to quit). It draws with the same pipelines, materials and draws as the
// offscreen renderer (render/scene_draws.h); only the render target, a swapchain, is its own.
// With a HotReload, assets a bake changes are reloaded while the window is open.
#pragma once

#include "assets/gpu_scene.h"
#include "assets/load_report.h"
#include "render/scene_draws.h"

#include <chrono>
#include <cstdint>
#include <optional>

namespace sample {

class GlfwWindow;
class HotReload;
class VulkanContext;

struct WindowOptions {
  SceneLayout layout = SceneLayout::Grid;
  DrawOptions draw;
  AnimationOptions animation;  // the clip and time that pose the prefabs (a still pose)
  // Present this many frames, then return (so a test can run it); without, run until closed.
  std::optional<uint32_t> frames;
  // Polled every frame; when the manifest changes, the changed assets are reloaded into the
  // scene and the draws rebuilt, the camera left where the user put it. Null: no hot reload.
  HotReload* hot_reload = nullptr;
  // --reload-wait: keep the window open until the first hot reload, which must come within this
  // time, and count `frames` from then. Needs `hot_reload`.
  std::optional<std::chrono::duration<double>> reload_wait;
};

// Renders `scene` into `window` until it is closed or `options.frames` frames were presented.
// Throws SampleError when `options.reload_wait` passes without a reload.
// `ctx` must have been created with the window's PresentOptions. The timings are per presented
// frame: record, submit and present, including any wait for a free frame slot (not reloads).
FrameTimings run_window(const VulkanContext& ctx, GpuScene& scene, GlfwWindow& window,
                        const WindowOptions& options);

}  // namespace sample
