// Compares a rendered screenshot (PNG) with the committed reference within a per-pixel tolerance,
// so a blank, shifted or wrongly textured render fails while tiny rasteriser differences pass.
// Usage: image_compare <actual.png> <reference.png> [--diff <out.png>] [--tolerance <n>]
//                      [--max-percent <p>]
// --tolerance and --max-percent change the per-channel difference that counts and the share of
// texels that may differ, e.g. to compare fine shading detail.
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

// A texel differs when any channel is off by more than this (8-bit values), unless --tolerance.
constexpr int kDefaultChannelTolerance = 24;
// At most this fraction of texels may differ (unless --max-percent): edges of triangles move by a
// pixel across drivers.
constexpr double kDefaultMaxDifferingFraction = 0.005;

using Image = std::unique_ptr<stbi_uc, void (*)(void*)>;

Image load(const char* path, int& w, int& h) {
  int comp = 0;
  return Image(stbi_load(path, &w, &h, &comp, 4), &stbi_image_free);
}

}  // namespace

int main(int argc, char** argv) {
  const char* diff_path = nullptr;
  int tolerance = kDefaultChannelTolerance;
  double max_fraction = kDefaultMaxDifferingFraction;
  bool usage_ok = argc >= 3 && argc % 2 == 1;
  for (int i = 3; usage_ok && i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--diff") == 0)
      diff_path = argv[i + 1];
    else if (std::strcmp(argv[i], "--tolerance") == 0)
      tolerance = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--max-percent") == 0)
      max_fraction = std::atof(argv[i + 1]) / 100;
    else
      usage_ok = false;
  }
  if (!usage_ok || tolerance < 0 || !(max_fraction >= 0)) {
    std::fprintf(stderr,
                 "usage: image_compare <actual.png> <reference.png> [--diff <out.png>] "
                 "[--tolerance <n>] [--max-percent <p>]\n");
    return 2;
  }
  int w = 0, h = 0, rw = 0, rh = 0;
  Image actual = load(argv[1], w, h), reference = load(argv[2], rw, rh);
  if (!actual || !reference) {
    std::fprintf(stderr, "error: cannot read %s\n", !actual ? argv[1] : argv[2]);
    return 1;
  }
  if (w != rw || h != rh) {
    std::fprintf(stderr, "FAIL: %s is %dx%d, reference %dx%d\n", argv[1], w, h, rw, rh);
    return 1;
  }
  size_t texels = size_t(w) * size_t(h), differing = 0;
  std::vector<unsigned char> diff(texels * 4, 0);
  for (size_t i = 0; i < texels; ++i) {
    int worst = 0;
    for (int c = 0; c < 3; ++c)
      worst =
          std::max(worst, std::abs(int(actual.get()[i * 4 + c]) - int(reference.get()[i * 4 + c])));
    if (worst > tolerance) ++differing;
    diff[i * 4] = diff[i * 4 + 1] = diff[i * 4 + 2] = (unsigned char)std::min(255, worst * 4);
    diff[i * 4 + 3] = 255;
  }
  if (diff_path) stbi_write_png(diff_path, w, h, 4, diff.data(), w * 4);
  double fraction = double(differing) / double(texels);
  std::printf("%s vs %s: %zu of %zu texels differ by more than %d (%.3f%%, limit %.3f%%)\n",
              argv[1], argv[2], differing, texels, tolerance, fraction * 100, max_fraction * 100);
  return fraction <= max_fraction ? 0 : 1;
}
