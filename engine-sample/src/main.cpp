// engine-sample: a baked folder (or one pack file) onto the GPU, rendered offscreen, with a table
// of what it cost.
//
// The interesting code is assets/asset_loader.cpp (manifest -> read -> unpack into staging ->
// copy) and the staging ring it fills, vk/upload_batch.cpp; vk/ holds the rest of the Vulkan
// boilerplate, render/ the offscreen scene, window/ the --window mode, assets/hot_reload.cpp the
// reload of what a bake changes. error.h is the one error convention: every failure is a
// SampleError, printed here.
#include "assets/asset_loader.h"
#include "assets/hot_reload.h"
#include "assets/load_report.h"
#include "error.h"
#include "render/offscreen_renderer.h"
#include "render/screenshot.h"
#include "vk/vulkan_context.h"

#include <assetlib/asset_file.h>

#if ENGINE_SAMPLE_HAS_WINDOW
#include "window/glfw_window.h"
#include "window/window_app.h"
#endif

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace {

#if ENGINE_SAMPLE_HAS_WINDOW
constexpr bool kHasWindow = true;
#else
constexpr bool kHasWindow = false;
#endif

constexpr const char* kUsage = R"(usage: engine-sample <baked-dir> [options]
       engine-sample --pack <file.pack> [options]

Loads every asset that <baked-dir>/manifest.json lists, or that one pack file holds (textures and
meshes onto the GPU: read, unpack straight into a mapped staging buffer, copy; materials, prefabs,
skeletons and clips into memory), renders the prefabs with their node transforms and PBR materials
(skinned meshes skinned on the GPU), and every mesh no prefab uses on its own, offscreen, and
prints per-asset sizes and timings. Headless unless --window: no window, no surface, no display
needed.

options:
  --pack <file.pack>      load from a pack file (asset-baker pack) instead of a baked folder:
                          mapped read-only, each asset found by its logical name and unpacked
                          from the mapping; same rendering. Not hot reloaded (--reload-wait and
                          the window's reload watch a baked folder's manifest.json)
  --device <n|name>       Vulkan device by index or name substring (default: the best GPU,
                          else a CPU device such as lavapipe); the choice is printed
  --validate              enable VK_LAYER_KHRONOS_validation and print every message and their
                          count; any message makes the exit status 3
  --screenshot <file.tx>  save the last frame as an RGBA8 .tx texture through assetlib
  --frames <n>            frames to render and time (default 1; with --window: until closed)
  --json <file>           write the load table, totals and frame timings as JSON
  --size <w>x<h>          render size (default 1280x720)
  --layout grid|authored  grid: each prefab (and each mesh no prefab uses) centred in a cell of
                          its own (default); authored: everything where it was authored
  --camera <node>         look through the prefab camera node of that name (default: a camera
                          that frames everything drawn); the choice is printed
  --animate <clip>        pose the prefabs with the clip of that name (its name in the source,
                          e.g. Walk, or its logical name, e.g. Fox.glb#clip/1): every prefab that
                          lists such a clip plays it, skinned meshes follow their joints; an
                          error lists the clips there are. Default: every prefab at rest (its
                          nodes' own transforms; skinned meshes posed by them too)
  --time <s>              seconds into the --animate clip (default 0); clips loop, so a time
                          past the end wraps around
  --lod auto|full         auto: each submesh at the coarsest baked LOD whose error projects to
                          at most --lod-pixels (default); full: always the full detail
  --lod-pixels <n>        the error, in pixels, that auto LODs may show (default 1)
  --meshlets cull|off     cull: full-detail meshes baked with meshlets are drawn meshlet by
                          meshlet, leaving out those outside the view or facing away (default);
                          off: drawn whole
  --staging-mb <n>        staging ring size in MiB (default 64; grows to fit the largest asset)
  --skip-mips <n>         low-memory setting: leave out each texture's n largest mip levels
                          (never its last); they are neither read nor decompressed
  --window                show the scene in a window instead: drag to orbit, wheel to zoom,
                          Esc to quit; needs a display and a build with GLFW. Hot reload (baked
                          folders only, not --pack): when a bake rewrites manifest.json
                          (asset-baker --watch), the assets whose entries changed are loaded
                          again and shown ("reloaded <name>")
  --reload-wait <s>       to test hot reload (baked folders only): wait up to <s> seconds for a
                          bake to change manifest.json and reload what changed. Headless: after the frames and
                          the screenshot; then render --frames again and save <shot>-reloaded.tx
                          beside the screenshot. --window: present frames meanwhile, then
                          --frames more. Exit status 1 if nothing was reloaded in time
  --help                  this text
  --version               the sample's version, the asset format it reads, the Vulkan headers, LZ4

exit status: 0 success, 1 error (the message names the file), 2 bad command line,
3 validation messages reported.
)";

struct UsageError {
  std::string message;
};

struct Options {
  std::string baked_dir;
  std::string pack;  // --pack: load from this pack file instead
  std::string device;
  bool validate = false;
  bool help = false;
  bool version = false;
  bool window = false;
  std::string screenshot;
  std::string json;
  std::optional<uint32_t> frames;     // headless default 1; a window without it runs until closed
  std::optional<double> reload_wait;  // seconds
  std::optional<float> time;          // --time; needs --animate
  sample::RenderOptions render;
  sample::LoaderOptions loader;
};

uint32_t parse_count(std::string_view option, std::string_view text) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0) {
    throw UsageError{std::string(option) + ": '" + std::string(text) +
                     "' is not a positive number"};
  }
  return value;
}

void parse_size(std::string_view text, sample::RenderOptions& render) {
  size_t x = text.find('x');
  if (x == std::string_view::npos)
    throw UsageError{"--size: expected <width>x<height>, e.g. 1280x720"};
  render.width = parse_count("--size", text.substr(0, x));
  render.height = parse_count("--size", text.substr(x + 1));
}

sample::SceneLayout parse_layout(std::string_view text) {
  if (text == "grid") return sample::SceneLayout::Grid;
  if (text == "authored") return sample::SceneLayout::AsAuthored;
  throw UsageError{"--layout: expected grid or authored, got '" + std::string(text) + "'"};
}

std::string parse_clip_name(std::string_view text) {
  if (text.empty()) throw UsageError{"--animate: the clip name is empty"};
  return std::string(text);
}

// --time: seconds, zero included.
float parse_seconds(std::string_view option, std::string_view text) {
  float value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !(value >= 0) ||
      !std::isfinite(value)) {
    throw UsageError{std::string(option) + ": '" + std::string(text) +
                     "' is not a number of seconds >= 0"};
  }
  return value;
}

template <typename Number>
Number parse_positive(std::string_view option, std::string_view text, const char* unit) {
  Number value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !(value > 0) ||
      !std::isfinite(value)) {
    throw UsageError{std::string(option) + ": '" + std::string(text) +
                     "' is not a positive number of " + unit};
  }
  return value;
}

float parse_pixels(std::string_view option, std::string_view text) {
  return parse_positive<float>(option, text, "pixels");
}

bool parse_lod(std::string_view text) {
  if (text == "auto") return true;
  if (text == "full") return false;
  throw UsageError{"--lod: expected auto or full, got '" + std::string(text) + "'"};
}

bool parse_meshlets(std::string_view text) {
  if (text == "cull") return true;
  if (text == "off") return false;
  throw UsageError{"--meshlets: expected cull or off, got '" + std::string(text) + "'"};
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) throw UsageError{std::string(arg) + " needs a value"};
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h")
      options.help = true;
    else if (arg == "--version")
      options.version = true;
    else if (arg == "--validate")
      options.validate = true;
    else if (arg == "--device")
      options.device = value();
    else if (arg == "--pack")
      options.pack = value();
    else if (arg == "--screenshot")
      options.screenshot = value();
    else if (arg == "--json")
      options.json = value();
    else if (arg == "--frames")
      options.frames = parse_count(arg, value());
    else if (arg == "--size")
      parse_size(value(), options.render);
    else if (arg == "--layout")
      options.render.layout = parse_layout(value());
    else if (arg == "--camera")
      options.render.camera = value();
    else if (arg == "--animate")
      options.render.animation.clip = parse_clip_name(value());
    else if (arg == "--time")
      options.time = parse_seconds(arg, value());
    else if (arg == "--lod")
      options.render.draw.lods = parse_lod(value());
    else if (arg == "--meshlets")
      options.render.draw.meshlets = parse_meshlets(value());
    else if (arg == "--lod-pixels")
      options.render.draw.lod_pixel_error = parse_pixels(arg, value());
    else if (arg == "--skip-mips")
      options.loader.skip_mips = parse_count(arg, value());
    else if (arg == "--staging-mb")
      options.loader.staging_bytes = VkDeviceSize{parse_count(arg, value())} << 20;
    else if (arg == "--window")
      options.window = true;
    else if (arg == "--reload-wait")
      options.reload_wait = parse_positive<double>(arg, value(), "seconds");
    else if (arg.starts_with("-"))
      throw UsageError{"unknown option " + std::string(arg)};
    else if (options.baked_dir.empty())
      options.baked_dir = arg;
    else
      throw UsageError{"more than one baked folder given: " + std::string(arg)};
  }
  if (!options.help && !options.version && options.baked_dir.empty() && options.pack.empty())
    throw UsageError{"no baked folder (or --pack file) given"};
  if (!options.baked_dir.empty() && !options.pack.empty()) {
    throw UsageError{"a baked folder and --pack given: load from one or the other"};
  }
  if (!options.pack.empty() && options.reload_wait) {
    throw UsageError{
        "--reload-wait: hot reload watches a baked folder's manifest.json; a --pack file is not "
        "reloaded"};
  }
  if (options.window && !kHasWindow) {
    throw UsageError{
        "--window: this engine-sample was built without GLFW (install libglfw3-dev "
        "and reconfigure); it can only render headless"};
  }
  if (options.time && options.render.animation.clip.empty()) {
    throw UsageError{"--time needs --animate <clip>: the time is into that clip"};
  }
  options.render.animation.time = options.time.value_or(0.0f);
  if (options.window && !options.render.camera.empty()) {
    throw UsageError{"--camera is for headless runs; --window starts from the framing camera"};
  }
  if (options.window && !options.screenshot.empty()) {
    throw UsageError{"--screenshot is for headless runs; it cannot be combined with --window"};
  }
  return options;
}

// The part both modes share: the device line, then every asset onto the GPU and the load table.
sample::RunSummary load_scene(const sample::VulkanContext& ctx, const Options& options,
                              sample::GpuScene& scene) {
  std::printf("device: %s\n", ctx.device_description().c_str());
  std::fflush(stdout);
  sample::RunSummary summary;
  summary.device = ctx.device_description();
  summary.load = options.pack.empty()
                     ? sample::load_baked_folder(ctx, options.baked_dir, options.loader, scene)
                     : sample::load_pack(ctx, options.pack, options.loader, scene);
  sample::print_load_table(summary.load, stdout);
  return summary;
}

// Hot reload watches a baked folder's manifest; a pack is loaded once.
std::optional<sample::HotReload> watch_for_reload(const sample::VulkanContext& ctx,
                                                  const Options& options) {
  if (!options.pack.empty()) return std::nullopt;
  return std::optional<sample::HotReload>(std::in_place, ctx, options.baked_dir, options.loader);
}

// The frames, their timings and, if a path is given, the last one saved.
sample::FrameTimings render_and_save(sample::OffscreenRenderer& renderer, const Options& options,
                                     const std::string& screenshot) {
  sample::FrameTimings frames = renderer.render_frames(options.frames.value_or(1));
  sample::print_frame_timings(frames, stdout);
  if (!screenshot.empty()) {
    sample::save_screenshot(screenshot, renderer.color_format(), renderer.extent(),
                            renderer.pixels());
    std::printf("screenshot: %s (%ux%u, %s)\n", screenshot.c_str(), renderer.extent().width,
                renderer.extent().height,
                renderer.color_format() == VK_FORMAT_R8G8B8A8_SRGB ? "RGBA8_SRGB" : "RGBA8_UNORM");
  }
  std::fflush(stdout);
  return frames;
}

// shot.tx -> shot-reloaded.tx, in the same folder.
std::string reloaded_path(const std::string& screenshot) {
  if (screenshot.empty()) return {};
  std::filesystem::path path(screenshot);
  path.replace_filename(path.stem().string() + "-reloaded" + path.extension().string());
  return path.string();
}

// Flushed, so a test knows when to start its bake: the scene is loaded (and, headless, the first
// screenshot written).
void print_reload_wait(const Options& options) {
  std::printf("hot reload: waiting up to %g s for %s/manifest.json to change\n",
              *options.reload_wait, options.baked_dir.c_str());
  std::fflush(stdout);
}

// --reload-wait headless: the window's hot reload, made testable without a display.
sample::FrameTimings reload_and_render(const Options& options, sample::HotReload& hot_reload,
                                       sample::GpuScene& scene,
                                       sample::OffscreenRenderer& renderer) {
  print_reload_wait(options);
  if (!hot_reload.wait_for_change(scene, std::chrono::duration<double>(*options.reload_wait)))
    throw sample::no_reload_within(*options.reload_wait);
  renderer.rebuild_scene();
  return render_and_save(renderer, options, reloaded_path(options.screenshot));
}

// Everything that touches the GPU lives in this scope, so the device and instance are destroyed
// (and the validation layer has reported any leak) before the caller reads the message count.
sample::RunSummary run_headless(const Options& options, sample::ValidationCounter& counter) {
  sample::VulkanContext ctx({options.validate, options.device, &counter, std::nullopt});
  sample::GpuScene scene;
  // Before the load: a bake that ends while the scene loads counts as a change.
  std::optional<sample::HotReload> hot_reload = watch_for_reload(ctx, options);
  sample::RunSummary summary = load_scene(ctx, options, scene);

  sample::OffscreenRenderer renderer(ctx, scene, options.render);
  std::printf("camera: %s\n", renderer.camera_description().c_str());
  if (!renderer.pose_description().empty())
    std::printf("animation: %s\n", renderer.pose_description().c_str());
  summary.frames = render_and_save(renderer, options, options.screenshot);
  summary.screenshot = options.screenshot;
  if (options.reload_wait)
    summary.frames = reload_and_render(options, *hot_reload, scene, renderer);
  return summary;
}

#if ENGINE_SAMPLE_HAS_WINDOW
sample::WindowOptions window_options(const Options& options, sample::HotReload* hot_reload) {
  sample::WindowOptions window{options.render.layout, options.render.draw, options.render.animation,
                               options.frames,        hot_reload,          std::nullopt};
  if (options.reload_wait) {
    window.reload_wait = std::chrono::duration<double>(*options.reload_wait);
    print_reload_wait(options);
  }
  return window;
}

// The same load, then frames in a window. The window comes first because the instance needs its
// surface extensions, and goes last, after the context has destroyed the surface on it.
sample::RunSummary run_in_window(const Options& options, sample::ValidationCounter& counter) {
  sample::GlfwWindow window(options.render.width, options.render.height, "engine-sample");
  sample::VulkanContext ctx({options.validate, options.device, &counter, window.present_options()});
  sample::GpuScene scene;
  std::optional<sample::HotReload> hot_reload = watch_for_reload(ctx, options);
  sample::RunSummary summary = load_scene(ctx, options, scene);
  summary.frames = sample::run_window(ctx, scene, window,
                                      window_options(options, hot_reload ? &*hot_reload : nullptr));
  sample::print_frame_timings(summary.frames, stdout);
  return summary;
}
#endif

sample::RunSummary run(const Options& options, sample::ValidationCounter& counter) {
#if ENGINE_SAMPLE_HAS_WINDOW
  if (options.window) return run_in_window(options, counter);
#endif
  return run_headless(options, counter);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "engine-sample: %s (see engine-sample --help)\n", e.message.c_str());
    return 2;
  }
  if (options.version) {
    std::printf(
        "engine-sample %s\nreads assetlib format version %u; Vulkan headers %u.%u.%u; LZ4 %s\n",
        ENGINE_SAMPLE_VERSION, assetlib::kFormatVersion,
        VK_API_VERSION_MAJOR(VK_HEADER_VERSION_COMPLETE),
        VK_API_VERSION_MINOR(VK_HEADER_VERSION_COMPLETE),
        VK_API_VERSION_PATCH(VK_HEADER_VERSION_COMPLETE), assetlib::lz4_version().c_str());
    return 0;
  }
  if (options.help) {
    std::fputs(kUsage, stdout);
    if (!kHasWindow) std::fputs("\nThis build has no GLFW, so --window is unavailable.\n", stdout);
    return 0;
  }

  sample::ValidationCounter counter;
  sample::RunSummary summary;
  int status = 0;
  try {
    summary = run(options, counter);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "engine-sample: error: %s\n", e.what());
    status = 1;
  }

  if (options.validate) {
    uint32_t messages = counter.messages.load();
    summary.validation_messages = messages;
    std::printf("validation messages: %u\n", messages);
    if (messages != 0 && status == 0) status = 3;
  }
  if (status != 1 && !options.json.empty()) {
    try {
      sample::write_json_report(options.json, summary);
      std::printf("json: %s\n", options.json.c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "engine-sample: error: %s\n", e.what());
      status = 1;
    }
  }
  return status;
}
