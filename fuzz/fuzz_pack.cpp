// Fuzz target 6: a pack file from memory, as a game maps one from a download or a mod.
// open_pack -> every entry by index and by name -> read_pack_asset, with the invariants open_pack
// promises checked on whatever it accepts; then read_pack_asset on made-up entries, which must be
// refused without reading outside the pack.
//
// Each input is tried twice: as is, and with the header's file size repaired to the input's, so
// mutations of the tables reach the table checks instead of stopping at TruncatedHeader.
#include "fuzz_common.h"

#include <assetlib/assetlib.h>

#include <cstring>
#include <vector>

namespace {

using namespace assetlib;

constexpr size_t kFileSizeAt = 64;  // the header's file size (docs/format.md, "Pack file")

bool inside(const PackView& pack, const PackEntry& e) {
  return e.offset <= pack.bytes.size() && e.size <= pack.bytes.size() - e.offset;
}

void exercise_entry(const PackView& pack, size_t i, std::string_view previous) {
  PackEntry e = pack_entry(pack, i);
  FUZZ_CHECK(inside(pack, e), "an accepted entry lies inside the pack");
  FUZZ_CHECK(e.offset % kPackAlignment == 0, "an accepted entry is aligned");
  FUZZ_CHECK(e.name.data() >= reinterpret_cast<const char*>(pack.names.data()) &&
                 e.name.data() + e.name.size() <=
                     reinterpret_cast<const char*>(pack.names.data() + pack.names.size()),
             "an accepted name lies inside the name table");
  FUZZ_CHECK(i == 0 || previous < e.name, "accepted names are strictly increasing");
  std::optional<PackEntry> found = find_pack_entry(pack, e.name);
  FUZZ_CHECK(found && found->offset == e.offset && found->name.data() == e.name.data(),
             "every entry is found by its name");

  AssetView view;
  Status s = read_pack_asset(pack, e, view, "fuzz.pack");
  if (!s) {
    FUZZ_CHECK(fuzz::starts_with(s.message, "fuzz.pack: "), "errors name the pack");
    return;
  }
  FUZZ_CHECK(std::memcmp(view.type, e.type, 4) == 0, "the asset has the entry's type");
  FUZZ_CHECK(kHeaderSize + view.json.size() + view.blob.size() == e.size,
             "the view covers the entry");
  FUZZ_CHECK(view.blob.data() + view.blob.size() == pack.bytes.data() + e.offset + e.size,
             "the view lies where the entry says");
}

// Entries no table holds: any values must be refused or read inside the pack.
void exercise_made_up_entries(const PackView& pack) {
  const uint64_t size = pack.bytes.size();
  const uint64_t offsets[] = {0, 1, size / 2, size, size + 1, ~uint64_t(0)};
  const uint64_t sizes[] = {0, 16, size, ~uint64_t(0)};
  for (uint64_t offset : offsets) {
    for (uint64_t length : sizes) {
      PackEntry e;
      std::memcpy(e.type, "TEXI", 4);
      e.name = "made-up";
      e.offset = offset;
      e.size = length;
      AssetView view;
      Status s = read_pack_asset(pack, e, view, "fuzz.pack");
      FUZZ_CHECK(!s.ok() || inside(pack, e), "an entry outside the pack is refused");
    }
  }
}

void exercise(std::span<const std::byte> bytes) {
  PackView pack;
  Status s = open_pack(bytes, pack, "fuzz.pack");
  if (!s) {
    FUZZ_CHECK(s.code == ErrorCode::TruncatedHeader || s.code == ErrorCode::LengthMismatch ||
                   s.code == ErrorCode::UnknownType || s.code == ErrorCode::UnsupportedVersion ||
                   s.code == ErrorCode::InvalidValue,
               "pack errors");
    FUZZ_CHECK(fuzz::starts_with(s.message, "fuzz.pack: "), "errors name the pack");
    return;
  }
  FUZZ_CHECK(pack.bytes.data() == bytes.data() && pack.bytes.size() == bytes.size(),
             "the view is the input");
  FUZZ_CHECK(pack.entries.size() == uint64_t(pack.entry_count) * kPackEntrySize,
             "the entry table holds the count");
  std::string_view previous;
  for (size_t i = 0; i < pack.entry_count; ++i) {
    exercise_entry(pack, i, previous);
    previous = pack_entry(pack, i).name;
  }
  FUZZ_CHECK(pack_entry(pack, pack.entry_count).name.empty(), "past the table: an empty entry");
  exercise_made_up_entries(pack);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The input is copied into a buffer of its exact size: reading past it is a finding.
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(data),
                               reinterpret_cast<const std::byte*>(data) + size);
  exercise(bytes);
  if (size >= kPackHeaderSize) {
    std::vector<std::byte> repaired = bytes;
    for (size_t i = 0; i < 8; ++i)
      repaired[kFileSizeAt + i] = std::byte((uint64_t(size) >> (8 * i)) & 0xff);
    if (repaired != bytes) exercise(repaired);
  }
  return 0;
}
