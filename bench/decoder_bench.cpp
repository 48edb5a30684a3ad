// assetlib-bench, measurement 9: faster source decoders for the texture bake. The baker decodes
// every image with stb_image. libspng (PNG) and libjpeg-turbo's TurboJPEG API (JPEG), both Debian
// packages, decode the same files to 8-bit RGBA, side by side with stb_image; what they would save
// is set against the -j1 bake time of the same files. The bake decodes an image once per role it
// bakes in; three corpus images have two roles, counted here as one decode (the cut is a little
// low for them). The report's verdict says whether the cut is worth a second decoder per format
// (targets.h).
#include "bench.h"
#include "report.h"
#include "targets.h"

#include <spng.h>
#include <stb/stb_image.h>
#include <turbojpeg.h>

#include <cstring>
#include <map>
#include <memory>

namespace bench {
namespace fs = std::filesystem;

namespace {

// Decoded RGBA8, allocated per decode and not zeroed, as stb_image's malloc is: a decoder that
// had to clear its buffer first would pay for it in a real switch too.
struct Pixels {
  std::unique_ptr<uint8_t[]> bytes;
  size_t size = 0;
  uint8_t* allocate(size_t n) {
    bytes = std::make_unique_for_overwrite<uint8_t[]>(n);
    size = n;
    return bytes.get();
  }
};

using StbPixels = std::unique_ptr<stbi_uc, void (*)(void*)>;

// stb_image's decode to RGBA8 into its own buffer, which the baker keeps (no copy); null when it
// cannot decode `bytes`.
StbPixels stb_decode(const std::string& bytes, uint64_t& pixels) {
  int w = 0, h = 0, c = 0;
  StbPixels decoded(stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                          int(bytes.size()), &w, &h, &c, 4),
                    stbi_image_free);
  pixels = uint64_t(w) * uint64_t(h);
  return decoded;
}

bool spng_rgba8(const std::string& bytes, Pixels& out) {
  std::unique_ptr<spng_ctx, void (*)(spng_ctx*)> ctx(spng_ctx_new(0), spng_ctx_free);
  if (!ctx) return false;
  // stb_image does not check CRCs either: both sides decode the same files.
  spng_set_crc_action(ctx.get(), SPNG_CRC_USE, SPNG_CRC_USE);
  size_t size = 0;
  if (spng_set_png_buffer(ctx.get(), bytes.data(), bytes.size()) != 0 ||
      spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size) != 0) {
    return false;
  }
  return spng_decode_image(ctx.get(), out.allocate(size), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS) ==
         0;
}

bool turbojpeg_rgba8(const std::string& bytes, Pixels& out) {
  std::unique_ptr<void, int (*)(tjhandle)> tj(tjInitDecompress(), tjDestroy);
  if (!tj) return false;
  auto data = reinterpret_cast<const unsigned char*>(bytes.data());
  int w = 0, h = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(tj.get(), data, bytes.size(), &w, &h, &subsampling, &colorspace) != 0)
    return false;
  return tjDecompress2(tj.get(), data, bytes.size(), out.allocate(size_t(w) * size_t(h) * 4), w, 0,
                       h, TJPF_RGBA, 0) == 0;
}

using Decoder = bool (*)(const std::string&, Pixels&);

// The other decoder for an 8-bit PNG or a JPEG, by its signature; null for anything else.
Decoder other_decoder(const std::string& bytes, const char*& name) {
  auto data = reinterpret_cast<const stbi_uc*>(bytes.data());
  if (bytes.size() > 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0 &&
      !stbi_is_16_bit_from_memory(data, int(bytes.size()))) {
    name = "libspng";
    return spng_rgba8;
  }
  if (bytes.size() > 3 && bytes.compare(0, 3, "\xFF\xD8\xFF") == 0) {
    name = "TurboJPEG";
    return turbojpeg_rgba8;
  }
  return nullptr;
}

// Per tree and decoder: the files both sides decoded and their sums.
struct DecoderSummary {
  size_t files = 0, identical = 0;
  uint64_t pixels = 0;
  double stb = 0, other = 0, bake = 0;
  double cut() const { return bake > 0 ? (stb - other) / bake : 0; }
};

std::map<std::pair<std::string, std::string>, DecoderSummary> summarize_decoders(const Results& r) {
  std::map<std::pair<std::string, std::string>, DecoderSummary> out;
  for (const DecoderComparison& c : r.decoders) {
    DecoderSummary& s = out[{c.tree, c.decoder}];
    ++s.files;
    s.identical += c.same_pixels;
    s.pixels += c.pixels;
    s.stb += c.stb_seconds;
    s.other += c.other_seconds;
    s.bake += c.bake_seconds;
  }
  return out;
}

std::string decoder_verdict(const Results& r) {
  std::string out;
  for (const auto& [key, s] : summarize_decoders(r)) {
    const auto& [tree, decoder] = key;
    bool pays = s.cut() >= kDecoderMinCut;
    out += "\nVerdict (" + tree + "): " + decoder + " would cut the bake of its " +
           std::to_string(s.files) + " files by " + percent(s.cut()) + ": " +
           (pays ? "worth a second decoder" : "stb_image stays the one decoder") +
           " (rule: worth it when it cuts the bake of its files by >= " +
           fixed(kDecoderMinCut * 100, 0) + "%).\n";
  }
  return out;
}

}  // namespace

void bench_decoders(const BakedTree& tree, const TreeBake& bake, const TimingPolicy& policy,
                    std::vector<DecoderComparison>& out, std::vector<std::string>& notes) {
  const BakeRun* j1 = bake.find("default", 1, true);
  if (!j1) return;
  // The baker's report names sources as its walk found them, as the manifest names assets.
  std::map<std::string, double> bake_seconds(j1->file_seconds.begin(), j1->file_seconds.end());
  for (const BakedAsset& a : tree.assets) {
    if (a.type != "TEXI") continue;
    std::string bytes = read_file_bytes(a.source);
    const char* name = nullptr;
    Decoder other = other_decoder(bytes, name);
    if (!other) continue;
    auto baked = bake_seconds.find(a.name);
    if (baked == bake_seconds.end()) {
      notes.push_back("no -j1 bake time for " + a.name + "; decoders not compared");
      continue;
    }
    DecoderComparison c{tree.label, a.name, name};
    StbPixels reference = stb_decode(bytes, c.pixels);
    if (!reference) {
      notes.push_back("stb_image cannot decode " + a.source.string() + "; decoders not compared");
      continue;
    }
    Pixels decoded;
    if (!other(bytes, decoded)) {
      notes.push_back(std::string(name) + " cannot decode " + a.source.string() + "; not compared");
      continue;
    }
    c.same_pixels = decoded.size == c.pixels * 4 &&
                    std::memcmp(decoded.bytes.get(), reference.get(), decoded.size) == 0;
    reference.reset();
    c.bake_seconds = baked->second;
    // Each side allocates its output per decode, as a bake would.
    const std::function<bool()> sides[] = {
        [&] {
          uint64_t pixels = 0;
          return stb_decode(bytes, pixels) != nullptr;
        },
        [&] {
          Pixels fresh;
          return other(bytes, fresh);
        },
    };
    std::vector<Timing> t = measure_side_by_side(sides, policy);
    if (!t[0].ok) continue;
    c.stb_seconds = t[0].median;
    c.other_seconds = t[1].median;
    out.push_back(std::move(c));
  }
}

std::string decoder_section(const Results& r) {
  if (r.decoders.empty()) return "";
  std::string out =
      "\n## 9. Source decoders for the texture bake\n\n"
      "Each 8-bit PNG and JPEG source of the default bake decoded to RGBA8 by stb_image (the "
      "baker's decoder) and by the other library, side by side from memory, medians summed. "
      "*bake -j1*: the same files' bake times in the -j1 run (decode, mips, block compression "
      "on every core, LZ4, writing). *cut*: (stb - other) / bake -j1. *identical*: files decoded "
      "to the same "
      "bytes (JPEG decoders may round differently).\n\n";
  Table table({"tree", "decoder", "files", "Mpx", "stb_image", "other", "speed-up", "identical",
               "bake -j1", "stb share of bake", "cut"});
  for (const auto& [key, s] : summarize_decoders(r)) {
    table.add({key.first, key.second, std::to_string(s.files), fixed(double(s.pixels) / 1e6, 1),
               seconds(s.stb), seconds(s.other), ratio(s.other > 0 ? s.stb / s.other : 0),
               std::to_string(s.identical), seconds(s.bake),
               percent(s.bake > 0 ? s.stb / s.bake : 0), percent(s.cut())});
  }
  return out + table.markdown() + decoder_verdict(r);
}

}  // namespace bench
