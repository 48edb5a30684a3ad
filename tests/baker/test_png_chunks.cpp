// The one walk over a PNG's chunks (import/png_chunks.h) that the preflight and every PNG reader
// share: where each chunk lies, where the walk stops, and that no length a file claims moves it
// anywhere but forward.
#include "../hostile/hostile_helpers.h"

#include "import/png_chunks.h"

#include <catch2/catch.hpp>

#include <span>
#include <string>
#include <vector>

namespace {

using hostile::Bytes;

// The chunks `walk` hands out, as "TYPE@offset+length" strings.
template <typename Step>
std::vector<std::string> walk(const Bytes& file, Step step) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(file.data()),
                                         file.size());
  baker::PngChunks chunks{baker::ByteView(bytes)};
  std::vector<std::string> seen;
  for (baker::PngChunk chunk; step(chunks, chunk);) {
    seen.push_back(std::string(chunk.type) + "@" + std::to_string(chunk.at) + "+" +
                   std::to_string(chunk.length));
  }
  return seen;
}

bool next(baker::PngChunks& chunks, baker::PngChunk& chunk) { return chunks.next(chunk); }
bool before_image(baker::PngChunks& chunks, baker::PngChunk& chunk) {
  return chunks.next_before_image_data(chunk);
}

Bytes signature() { return {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}; }

}  // namespace

TEST_CASE("PNG chunks: every chunk in order, with where it lies", "[png_chunks]") {
  hostile::PngSpec spec;
  spec.color_type = 3;
  spec.depth = 8;
  spec.palette = Bytes(6, 0x40);
  spec.trns = {0xff};
  Bytes file = hostile::png(spec);
  std::vector<std::string> all = walk(file, next);
  REQUIRE(all.size() == 5);
  CHECK(all[0] == "IHDR@8+13");
  CHECK(all[1] == "PLTE@33+6");  // 8 + 12 + 13
  CHECK(all[2] == "tRNS@51+1");
  CHECK(all[3].rfind("IDAT@64+", 0) == 0);
  CHECK(all[4].rfind("IEND@", 0) == 0);
  CHECK(walk(file, before_image) == std::vector<std::string>(all.begin(), all.begin() + 3));
}

TEST_CASE("PNG chunks: a chunk is handed out while its length and type are in the file",
          "[png_chunks]") {
  Bytes file = signature();
  hostile::png_chunk(file, "tEXt", {'a'});
  Bytes whole = file;
  // Length and type of a chunk whose payload and CRC are missing: handed out, for the preflight
  // to say how much is missing.
  hostile::put_be32(file, 100);
  hostile::append(file, std::string("IDAT"));
  CHECK(walk(file, next) == std::vector<std::string>{"tEXt@8+1", "IDAT@21+100"});
  // Seven bytes of a chunk header: not a chunk.
  whole.insert(whole.end(), {0, 0, 0, 0, 'I', 'D', 'A'});
  CHECK(walk(whole, next) == std::vector<std::string>{"tEXt@8+1"});
  CHECK(walk(signature(), next).empty());
  CHECK(walk(Bytes{0x89, 'P'}, next).empty());
}

TEST_CASE("PNG chunks: the largest claimed length ends the walk, never wraps it back",
          "[png_chunks]") {
  Bytes file = signature();
  hostile::put_be32(file, 0xffffffffu);  // by hand: png_chunk reads UINT32_MAX as "the true length"
  hostile::append(file, std::string("IHDR"));
  file.resize(file.size() + 13 + 4);
  hostile::png_chunk(file, "IEND", {});
  CHECK(walk(file, next) == std::vector<std::string>{"IHDR@8+4294967295"});
}

TEST_CASE("PNG chunks: the walk before the image data stops at IEND without an IDAT",
          "[png_chunks]") {
  Bytes file = signature();
  hostile::png_chunk(file, "gAMA", {0, 0, 0xb1, 0x8f});
  hostile::png_chunk(file, "IEND", {});
  hostile::png_chunk(file, "sRGB", {0});  // after the end: not the image's
  CHECK(walk(file, before_image) == std::vector<std::string>{"gAMA@8+4"});
  CHECK(walk(file, next).size() == 3);
}
