// Packs and unpacks a texture through the installed headers: proves they need only the standard
// library and that the static library links on its own.
#include <assetlib/assetlib.h>

#include <cstdio>
#include <vector>

int main() {
  assetlib::TextureInfo info =
      assetlib::make_texture_info(assetlib::TextureFormat::RGBA8_SRGB, 4, 4, 3);
  std::vector<unsigned char> pixels(info.total_size, 7);
  assetlib::AssetFile file;
  if (!assetlib::pack_texture(info, pixels.data(), pixels.size(), file)) return 1;
  assetlib::TextureInfo read;
  if (!assetlib::read_texture_info(file, read)) return 1;
  std::vector<unsigned char> out(read.total_size);
  if (!assetlib::unpack_texture(read, file.blob.data(), file.blob.size(), out.data(), out.size()))
    return 1;
  std::puts(out == pixels ? "consumer ok" : "consumer mismatch");
  return out == pixels ? 0 : 1;
}
