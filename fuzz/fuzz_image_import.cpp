// Fuzz target 3: the baker's image import (stb_image decode -> mip chain -> block compression ->
// pack), driven in memory exactly as the baker drives it for a file an artist committed.
// Whatever it accepts must come out as a texture the loader reads and unpacks completely; whatever
// it refuses must be refused with an error naming the file.
//
// Settings (role, mips, block compression, max_size, codec, chunk size) are picked from a hash of
// the input, so seeds are plain image files.
#include "fuzz_common.h"

#include "import/byte_view.h"
#include "import/image_import.h"
#include "import/png_chunks.h"
#include "texture/bake_texture.h"
#include "texture/texture_readback.h"

#include <assetlib/texture_asset.h>
#include <stb/stb_image.h>

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace assetlib;

// Images within the baker's limits but above this many texels are skipped: decoding and block
// compressing them is legitimate and only slow (libFuzzer would report it as a timeout). Images
// beyond the limits always go through: the baker must refuse them before decoding.
constexpr uint64_t kFuzzMaxTexels = 512 * 512;

const char* const kNames[] = {"fuzz/img.png",    "fuzz/img_n.png",  "fuzz/img_roughness.png",
                              "fuzz/ui/img.png", "fuzz/img_ao.jpg", "fuzz/img.hdr"};

// `png` with the CRC of every chunk that fits recomputed; false when it is not a PNG or no CRC
// changed. Almost every mutation inside a PNG breaks a CRC, which the preflight refuses: the
// repaired copy takes the mutation on to the decoder.
bool repair_png_crcs(std::vector<std::byte>& png) {
  if (png.size() < 8 || std::memcmp(png.data(), baker::kPngSignature.data(), 8) != 0) return false;
  bool changed = false;
  const baker::ByteView view(png);
  baker::PngChunks chunks(view);
  for (baker::PngChunk chunk; chunks.next(chunk) && chunk.crc_at() + 4 <= png.size();) {
    uint32_t crc = uint32_t(crc32(crc32(0L, Z_NULL, 0),
                                  reinterpret_cast<const Bytef*>(png.data() + chunk.at + 4),
                                  uInt(chunk.length) + 4));
    changed |= view.be32(chunk.crc_at()) != crc;
    for (uint64_t k = 0; k < 4; ++k) png[chunk.crc_at() + k] = std::byte(crc >> (24 - 8 * k));
  }
  return changed;
}

int bake_and_check(const std::vector<std::byte>& source, uint64_t hash);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Exact-size copy: the decoder reading past the file is a finding.
  std::vector<std::byte> source(reinterpret_cast<const std::byte*>(data),
                                reinterpret_cast<const std::byte*>(data) + size);
  const uint64_t hash = fuzz::input_hash(data, size);
  int result = bake_and_check(source, hash);
  if (repair_png_crcs(source)) bake_and_check(source, hash);
  return result;
}

namespace {

// One bake of `source` with settings picked from `hash`, and what it must satisfy. -1 (libFuzzer:
// keep it out of the corpus) for an image within the limits but too large to bake quickly.
int bake_and_check(const std::vector<std::byte>& source, uint64_t hash) {
  const size_t size = source.size();
  int w = 0, h = 0, comp = 0;
  bool known =
      size <= INT_MAX && stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(source.data()),
                                               int(size), &w, &h, &comp);
  // stb_image reports a top-down BMP's height as negative; the baker bakes such files.
  if (h < 0 && h != INT_MIN) h = -h;
  bool within_limits = known && w > 0 && h > 0 && uint32_t(w) <= baker::kMaxSourceDimension &&
                       uint32_t(h) <= baker::kMaxSourceDimension;
  if (within_limits && uint64_t(w) * uint64_t(h) > kFuzzMaxTexels) return -1;

  fuzz::Choices pick(hash);
  std::string name = kNames[pick.take(sizeof(kNames) / sizeof(kNames[0]))];
  baker::BakeSettings settings;
  const baker::TextureRole roles[] = {baker::TextureRole::Auto, baker::TextureRole::Color,
                                      baker::TextureRole::Normal, baker::TextureRole::Data,
                                      baker::TextureRole::Ui};
  settings.texture.role = roles[pick.take(5)];
  settings.texture.mips = pick.take(4) != 0;
  settings.texture.block_compression = pick.take(4) != 0;
  const uint32_t max_sizes[] = {0, 0, 1, 3, 16};
  settings.texture.max_size = max_sizes[pick.take(5)];
  settings.pack.compression = pick.flip() ? Compression::None : Compression::LZ4;
  settings.pack.chunk_size = pick.flip() ? 1024 : (1u << 20);
  settings.pack.lz4_hc_level = pick.take(4) == 0 ? 9 : 0;

  AssetFile out;
  std::vector<std::string> warnings;
  baker::BakeStatus s = baker::bake_texture(source, name, settings, out, warnings);
  if (!within_limits) FUZZ_CHECK(!s.ok(), "images outside 1..kMaxSourceDimension are refused");
  if (!s) {
    FUZZ_CHECK(s.blames_source(), "a broken image is the source's fault");
    // Errors carry the file apart from the reason (common/bake_status.h); warnings are printed as
    // they are, so those must name it themselves (checked below).
    FUZZ_CHECK(s.file == name && !s.reason.empty(), "errors name the file and say why");
    return 0;
  }
  for (const std::string& warning : warnings)
    FUZZ_CHECK(fuzz::starts_with(warning, name), "warnings name the file");

  // The output is a valid texture of the size stb_image announced (or max_size).
  TextureInfo info;
  Status r = read_texture_info(out, info);
  if (!r) std::fprintf(stderr, "%s\n", r.message.c_str());
  FUZZ_CHECK(r.ok(), "the baker writes textures the loader reads");
  FUZZ_CHECK(info.original_file == name, "original_file");
  if (settings.texture.max_size == 0) {
    FUZZ_CHECK(info.width == uint32_t(w) && info.height == uint32_t(h),
               "decoded size is the announced size");
  } else {
    FUZZ_CHECK(std::max(info.width, info.height) <= settings.texture.max_size, "max_size");
    FUZZ_CHECK(info.width <= uint32_t(w) && info.height <= uint32_t(h), "never upscaled");
  }
  std::vector<std::byte> unpacked(info.total_size);
  Status u =
      unpack_texture(info, out.blob.data(), out.blob.size(), unpacked.data(), unpacked.size());
  FUZZ_CHECK(u.ok(), "the baker writes textures that unpack");
  // Decoding the smallest and the largest level back to RGBA8 (what export and PSNR use).
  std::vector<uint8_t> rgba = baker::level_to_rgba8(info, uint32_t(info.mips.size() - 1), unpacked);
  FUZZ_CHECK(rgba.size() == size_t(info.mips.back().width) * info.mips.back().height * 4,
             "level_to_rgba8 size");
  rgba = baker::level_to_rgba8(info, 0, unpacked);
  FUZZ_CHECK(rgba.size() == size_t(info.width) * info.height * 4, "level_to_rgba8 size");
  return 0;
}

}  // namespace
