#include "cli/commands.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace baker {
namespace {

// Every setting at its built-in default, so that the file documents them and changes nothing
// until edited (tests/baker/test_bake_config.cpp checks both).
constexpr const char kStarterConfig[] =
    R"(// baker.json: settings for asset-baker (docs/baker.md, "baker.json").
// Comments are allowed. Every value below is the built-in default: edit what you need.
{
  // Applied to every file.
  "settings": {
    "compression": "LZ4",        // "LZ4" or "None"
    "lz4_hc_level": 0,           // 0: fast LZ4; 1..12: LZ4-HC, smaller files, slower bake
    "chunk_size": 1048576,       // largest unpacked bytes per chunk, 1024..1073741824
    "texture_role": "auto",      // auto, color, normal, data, ui (auto: from the file name)
    "mips": true,                // full mip chain
    "max_size": 0,               // scale textures down to at most this size (0: keep)
    "block_compression": true,   // BC1/3/4/5 by role; false keeps 8-bit RGBA
    "vertex_format": "PNCVT_OCT",  // PNCVT_F32, PNCVT_OCT, PNCV_F32 or P32N8C8V16
    "optimize": true,            // meshoptimizer vertex cache, overdraw and fetch order
    "meshlets": false,           // also store meshlets
    "lod_count": 0               // coarser LODs to add, 0..8
  },

  // Globs over paths relative to the input folder; matching rules apply in order, later ones win.
  // A pattern with a "/" is anchored at the input folder: "**/ui/**" is any folder named ui.
  "rules": [
    { "match": "**/ui/**", "settings": { "texture_role": "ui" } }
  ],

  // asset-baker <input> --preset release
  "presets": {
    "release": { "settings": { "lz4_hc_level": 9 } }
  }
}
)";

}  // namespace

std::string starter_config() { return kStarterConfig; }

int run_init(const std::filesystem::path& folder) {
  std::filesystem::path path = folder / "baker.json";
  // O_EXCL: never replace a config someone wrote, even one created a moment ago.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    std::fprintf(stderr, "error: %s: %s\n", path.c_str(),
                 errno == EEXIST ? "already exists; not replaced" : std::strerror(errno));
    return 1;
  }
  std::string text = starter_config();
  bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    std::fprintf(stderr, "error: %s: writing failed: %s\n", path.c_str(), std::strerror(errno));
    ::unlink(path.c_str());
    return 1;
  }
  std::printf("wrote %s (every setting at its default; edit and bake)\n", path.c_str());
  return 0;
}

}  // namespace baker
