// Decides whether a screenshot written by `engine-sample --screenshot` shows a rendered scene:
// a valid RGBA8 .tx texture that is neither blank (one colour) nor flat (a few colours), so a
// render that lost its geometry, textures or lighting fails the sample test.
//
//   sample_screenshot_check <shot.tx> [--min-coverage PERCENT] [--min-colors N] [--ppm out.ppm]
//                           [--mean-rgb]
//   sample_screenshot_check --self-test
//
// --mean-rgb also prints "scene mean rgb: R G B", the average of the pixels that are not the
// background, so a test can tell which colour the scene was drawn in (hot reload).
#include <assetlib/asset_file.h>
#include <assetlib/texture_asset.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

struct Image {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;  // tightly packed rows
};

struct Thresholds {
  double min_coverage_percent = 1.0;  // pixels that are not the background
  size_t min_colors = 32;             // distinct RGB values among those pixels
};

struct Verdict {
  bool ok = false;
  double coverage_percent = 0;
  size_t colors = 0;
  std::string reason;
};

uint32_t rgb_key(const uint8_t* pixel) {
  return uint32_t{pixel[0]} << 16 | uint32_t{pixel[1]} << 8 | pixel[2];
}

// The background is the most common colour, not a corner: geometry may well cover a corner.
Verdict judge(const Image& image, const Thresholds& limits) {
  Verdict v;
  size_t pixels = size_t{image.width} * image.height;
  if (pixels == 0) {
    v.reason = "the image is empty";
    return v;
  }
  std::unordered_map<uint32_t, size_t> histogram;
  for (size_t i = 0; i < pixels; ++i) ++histogram[rgb_key(&image.rgba[i * 4])];
  size_t background = 0;
  for (const auto& [color, count] : histogram) background = std::max(background, count);
  v.coverage_percent =
      100.0 * static_cast<double>(pixels - background) / static_cast<double>(pixels);
  v.colors = histogram.size() - 1;
  if (v.coverage_percent < limits.min_coverage_percent) {
    v.reason =
        "only " + std::to_string(v.coverage_percent) + "% of pixels differ from the background";
  } else if (v.colors < limits.min_colors) {
    v.reason = "only " + std::to_string(v.colors) + " colours besides the background";
  } else {
    v.ok = true;
  }
  return v;
}

bool load(const std::string& path, Image& image, std::string& error) {
  assetlib::AssetFile file;
  assetlib::TextureInfo info;
  assetlib::Status s = assetlib::load_binaryfile(path, file);
  if (s) s = assetlib::read_texture_info(file, info);
  if (!s) {
    error = std::string(assetlib::error_code_name(s.code)) + ": " + s.message;
    return false;
  }
  if (info.format != assetlib::TextureFormat::RGBA8_SRGB &&
      info.format != assetlib::TextureFormat::RGBA8_UNORM) {
    error = std::string("format ") + assetlib::texture_format_name(info.format) + ", not RGBA8";
    return false;
  }
  image.width = info.width;
  image.height = info.height;
  image.rgba.resize(info.mips[0].size);
  // Level 0 only: a screenshot has one level, and anything else would not be looked at.
  std::vector<uint8_t> all(info.total_size);
  s = assetlib::unpack_texture(info, file.blob.data(), file.blob.size(), all.data(), all.size());
  if (!s) {
    error = std::string(assetlib::error_code_name(s.code)) + ": " + s.message;
    return false;
  }
  std::memcpy(image.rgba.data(), all.data(), image.rgba.size());
  return true;
}

// The average colour of every pixel but the background (the most common colour), 0..255.
void print_scene_mean(const Image& image) {
  std::unordered_map<uint32_t, size_t> histogram;
  size_t pixels = size_t{image.width} * image.height;
  for (size_t i = 0; i < pixels; ++i) ++histogram[rgb_key(&image.rgba[i * 4])];
  uint32_t background = 0;
  size_t most = 0;
  for (const auto& [color, count] : histogram) {
    if (count <= most) continue;
    most = count;
    background = color;
  }
  double sum[3] = {0, 0, 0};
  size_t counted = 0;
  for (size_t i = 0; i < pixels; ++i) {
    const uint8_t* p = &image.rgba[i * 4];
    if (rgb_key(p) == background) continue;
    for (int c = 0; c < 3; ++c) sum[c] += p[c];
    ++counted;
  }
  double n = counted ? static_cast<double>(counted) : 1.0;
  std::printf("scene mean rgb: %.0f %.0f %.0f\n", sum[0] / n, sum[1] / n, sum[2] / n);
}

// For a person looking into a failure: any image viewer reads PPM.
bool write_ppm(const std::string& path, const Image& image) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) return false;
  std::fprintf(out, "P6\n%u %u\n255\n", image.width, image.height);
  for (size_t i = 0; i < size_t{image.width} * image.height; ++i)
    std::fwrite(&image.rgba[i * 4], 1, 3, out);
  return std::fclose(out) == 0;
}

Image solid(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b) {
  Image image{w, h, std::vector<uint8_t>(size_t{w} * h * 4)};
  for (size_t i = 0; i < size_t{w} * h; ++i) {
    uint8_t* p = &image.rgba[i * 4];
    p[0] = r, p[1] = g, p[2] = b, p[3] = 255;
  }
  return image;
}

// The checker must reject what a broken render looks like and accept a shaded object.
int self_test() {
  Thresholds limits;
  Image blank = solid(64, 64, 10, 12, 20);
  Image flat = solid(64, 64, 10, 12, 20);
  for (uint32_t y = 16; y < 48; ++y)
    for (uint32_t x = 16; x < 48; ++x) std::memset(&flat.rgba[(y * 64 + x) * 4], 200, 3);
  Image shaded = solid(64, 64, 10, 12, 20);
  for (uint32_t y = 8; y < 56; ++y) {
    for (uint32_t x = 8; x < 56; ++x) {
      uint8_t* p = &shaded.rgba[(y * 64 + x) * 4];
      p[0] = static_cast<uint8_t>(x * 4), p[1] = static_cast<uint8_t>(y * 4), p[2] = 90;
    }
  }
  int failures = 0;
  auto expect = [&](const char* name, const Image& image, bool want) {
    Verdict v = judge(image, limits);
    bool pass = v.ok == want;
    std::printf("%s: %s is %s (%s)\n", pass ? "ok" : "FAIL", name, v.ok ? "accepted" : "rejected",
                v.ok ? "as expected" : v.reason.c_str());
    failures += pass ? 0 : 1;
  };
  expect("blank image", blank, false);
  expect("flat-coloured square", flat, false);
  expect("shaded square", shaded, true);
  std::printf("%d passed, %d failed\n", 3 - failures, failures);
  return failures == 0 ? 0 : 1;
}

bool parse_number(std::string_view text, double& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--self-test") return self_test();
  std::string path;
  std::string ppm;
  bool mean_rgb = false;
  Thresholds limits;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    double number = 0;
    if (arg == "--min-coverage" && i + 1 < argc && parse_number(argv[i + 1], number)) {
      limits.min_coverage_percent = number;
      ++i;
    } else if (arg == "--min-colors" && i + 1 < argc && parse_number(argv[i + 1], number)) {
      limits.min_colors = static_cast<size_t>(number);
      ++i;
    } else if (arg == "--ppm" && i + 1 < argc) {
      ppm = argv[++i];
    } else if (arg == "--mean-rgb") {
      mean_rgb = true;
    } else if (!arg.starts_with("-") && path.empty()) {
      path = arg;
    } else {
      std::fprintf(stderr,
                   "usage: sample_screenshot_check <shot.tx> [--min-coverage PERCENT] "
                   "[--min-colors N] [--ppm out.ppm] [--mean-rgb] | --self-test\n");
      return 2;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "sample_screenshot_check: no screenshot given\n");
    return 2;
  }

  Image image;
  std::string error;
  if (!load(path, image, error)) {
    std::fprintf(stderr, "FAIL: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  if (!ppm.empty() && !write_ppm(ppm, image))
    std::fprintf(stderr, "warning: cannot write %s\n", ppm.c_str());
  if (mean_rgb) print_scene_mean(image);
  Verdict v = judge(image, limits);
  std::printf("%s: %s: %ux%u, %.2f%% covered, %zu colours besides the background%s%s\n",
              v.ok ? "ok" : "FAIL", path.c_str(), image.width, image.height, v.coverage_percent,
              v.colors, v.ok ? "" : ": ", v.reason.c_str());
  return v.ok ? 0 : 1;
}
