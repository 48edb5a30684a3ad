#include "cli/commands.h"

#include "cli/texture_level.h"
#include "common/bake_status.h"
#include "common/terminal_text.h"

#include <assetlib/texture_asset.h>

#include <stb/stb_image_write.h>

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

int export_throwing(const std::filesystem::path& texture, const std::filesystem::path& png,
                    uint32_t mip) {
  const std::string path = texture.string();
  assetlib::AssetFile file;
  assetlib::TextureInfo info;
  if (auto s = assetlib::load_binaryfile(path, file); !s)
    return fail(BakeStatus::from_file_call(s, BakeError::InvalidAsset, path));
  if (auto s = assetlib::read_texture_info(file, info); !s)
    return fail(BakeStatus::from_memory_call(s, BakeError::InvalidAsset, path));
  if (mip >= info.mips.size()) {
    return fail(BakeStatus::failure(BakeError::Config, path,
                                    "has " + std::to_string(info.mips.size()) +
                                        " mip levels, --mip " + std::to_string(mip) + " asked"));
  }
  // Only the level asked for is unpacked, not the chain.
  std::vector<std::byte> unpacked;
  if (BakeStatus s = unpack_level(info, file.blob, mip, unpacked, path); !s) return fail(s);
  file = {};
  std::vector<uint8_t> rgba = level_alone_to_rgba8(info, mip, unpacked);
  unpacked = {};
  const assetlib::TextureMip& level = info.mips[mip];
  std::vector<std::byte> encoded;
  if (!stbi_write_png_to_func(append_bytes, &encoded, int(level.width), int(level.height), 4,
                              rgba.data(), int(level.width) * 4)) {
    return fail(BakeStatus::failure(BakeError::IoError, png.string(), "PNG encoding failed"));
  }
  const std::span<const std::byte> parts[] = {encoded};
  if (auto s = assetlib::write_file_atomically(png.string(), parts); !s)
    return fail(BakeStatus::from_file_call(s, BakeError::IoError, png.string()));
  std::printf("%s: level %u, %ux%u %s -> %s\n", path.c_str(), mip, level.width, level.height,
              assetlib::texture_format_name(info.format), png.string().c_str());
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
