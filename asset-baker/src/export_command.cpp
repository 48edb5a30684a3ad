#include "export_command.h"

#include "texture_decode.h"

#include <assetlib/texture_asset.h>

#include <stb/stb_image_write.h>

#include <cstdio>
#include <vector>

namespace baker {
namespace {

void append_bytes(void* context, void* data, int size) {
  auto out = static_cast<std::vector<std::byte>*>(context);
  auto bytes = static_cast<const std::byte*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

int fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 1;
}

}  // namespace

int run_export(const std::filesystem::path& texture, const std::filesystem::path& png, uint32_t mip) {
  assetlib::AssetFile file;
  assetlib::TextureInfo info;
  if (auto s = assetlib::load_binaryfile(texture.string(), file); !s) return fail(s.message);
  if (auto s = assetlib::read_texture_info(file, info); !s) return fail(texture.string() + ": " + s.message);
  if (mip >= info.mips.size()) {
    return fail(texture.string() + ": has " + std::to_string(info.mips.size()) + " mip levels, --mip " +
                std::to_string(mip) + " asked");
  }
  std::vector<std::byte> unpacked(info.total_size);
  if (auto s = assetlib::unpack_texture(info, file.blob.data(), file.blob.size(), unpacked.data(), unpacked.size()); !s) {
    return fail(texture.string() + ": " + s.message);
  }
  std::vector<uint8_t> rgba = level_to_rgba8(info, mip, unpacked);
  const assetlib::TextureMip& level = info.mips[mip];
  std::vector<std::byte> encoded;
  if (!stbi_write_png_to_func(append_bytes, &encoded, int(level.width), int(level.height), 4, rgba.data(),
                              int(level.width) * 4)) {
    return fail(png.string() + ": PNG encoding failed");
  }
  const std::span<const std::byte> parts[] = {encoded};
  if (auto s = assetlib::write_file_atomically(png.string(), parts); !s) return fail(s.message);
  std::printf("%s: level %u, %ux%u %s -> %s\n", texture.string().c_str(), mip, level.width, level.height,
              assetlib::texture_format_name(info.format), png.string().c_str());
  return 0;
}

}  // namespace baker
