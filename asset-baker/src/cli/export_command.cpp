#include "cli/commands.h"

#include "cli/pack_magic.h"
#include "cli/texture_level.h"
#include "common/bake_status.h"
#include "common/mapped_asset.h"
#include "common/regular_file.h"
#include "common/source_paths.h"
#include "common/terminal_text.h"
#include "pipeline/streamed_file.h"

#include <assetlib/texture_asset.h>

#include <stb/stb_image_write.h>

#include <climits>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <vector>

namespace baker {
namespace {

void append_bytes(void* context, void* data, int size) {
  auto out = static_cast<std::vector<std::byte>*>(context);
  auto bytes = static_cast<const std::byte*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

int fail(const BakeStatus& status) {
  print_message("error", status.message());
  return 1;
}

// What the command line got wrong: exit 2.
int usage(const BakeStatus& status) {
  print_message("error", status.message());
  return 2;
}

// stb_image_write sizes its buffers in int: the filtered rows (4 bytes per pixel and a filter
// byte), and the deflated stream in a buffer it grows by doubling, which overflows past 1 GiB.
bool fits_png_writer(const assetlib::TextureMip& level) {
  return (uint64_t(level.width) * 4 + 1) * level.height < uint64_t(INT_MAX) / 2;
}

// Whether `path` starts as a pack file does: what a file export cannot load may be.
bool is_pack(const std::filesystem::path& path) {
  std::vector<std::byte> head;
  return read_regular_prefix(path, 4, head) == ReadResult::Ok && has_pack_magic(head);
}

// export writes a PNG, so the destination must be named as one: a baked file or the manifest is
// never written over by mistake.
bool named_png(const std::filesystem::path& png) {
  return lower_extension(png.filename().string()) == ".png";
}

int export_throwing(const std::filesystem::path& texture, const std::filesystem::path& png,
                    uint32_t mip) {
  const std::string path = texture.string();
  if (!named_png(png)) {
    return usage(BakeStatus::failure(BakeError::Config, png.string(),
                                     "export writes PNG: -o must name a .png file"));
  }
  MappedAsset file;
  assetlib::TextureInfo info;
  if (BakeStatus s = map_asset(texture, file); !s) {
    if (is_pack(texture)) {
      return usage(BakeStatus::failure(BakeError::Config, path,
                                       "a pack file: export takes one baked .tx file"));
    }
    return fail(s);
  }
  if (auto s = assetlib::read_texture_info(file.view, info); !s)
    return fail(BakeStatus::from_memory_call(s, BakeError::InvalidAsset, path));
  if (mip >= info.mips.size()) {
    return fail(BakeStatus::failure(BakeError::Config, path,
                                    "has " + std::to_string(info.mips.size()) +
                                        " mip levels, --mip " + std::to_string(mip) + " asked"));
  }
  if (!fits_png_writer(info.mips[mip])) {
    return fail(BakeStatus::failure(BakeError::LimitExceeded, path,
                                    "level " + std::to_string(mip) + " is " +
                                        std::to_string(info.mips[mip].width) + "x" +
                                        std::to_string(info.mips[mip].height) +
                                        ", more than the PNG writer takes (under 1 GiB of "
                                        "RGBA8 rows); export a smaller level with --mip"));
  }
  // Only the level asked for is unpacked, not the chain.
  std::vector<std::byte> unpacked;
  if (BakeStatus s = unpack_level(info, file.view.blob, mip, unpacked, path); !s) return fail(s);
  std::vector<uint8_t> rgba = level_alone_to_rgba8(info, mip, unpacked);
  unpacked = {};
  const assetlib::TextureMip& level = info.mips[mip];
  std::vector<std::byte> encoded;
  if (!stbi_write_png_to_func(append_bytes, &encoded, int(level.width), int(level.height), 4,
                              rgba.data(), int(level.width) * 4)) {
    return fail(BakeStatus::failure(BakeError::IoError, png.string(), "PNG encoding failed"));
  }
  const std::span<const std::byte> parts[] = {encoded};
  if (BakeStatus s = write_named_file(png, parts); !s) return fail(s);
  std::printf("%s: level %u, %ux%u %s -> %s\n", terminal_text(path).c_str(), mip, level.width,
              level.height, assetlib::texture_format_name(info.format),
              terminal_text(png.string()).c_str());
  return 0;
}

}  // namespace

int run_export(const std::filesystem::path& texture, const std::filesystem::path& png,
               uint32_t mip) {
  try {
    return export_throwing(texture, png, mip);
  } catch (const std::bad_alloc&) {
    return fail(BakeStatus::failure(BakeError::Internal, texture.string(),
                                    "out of memory (std::bad_alloc)"));
  } catch (const std::length_error&) {
    return fail(BakeStatus::failure(BakeError::Internal, texture.string(),
                                    "out of memory (std::length_error)"));
  }
}

}  // namespace baker
