// assetlib: pack files, every asset of a baked folder in one file.
//
// A game that loads each asset from its own file pays an open and three reads per asset; a pack
// holds them all behind one table of contents, so the game maps one file and finds each asset by
// its logical name. Little-endian (docs/format.md, "Pack file", is the reference):
//
//   header      72 bytes: "APAK", version, entry count, where the tables and the data lie, the
//               file's own size
//   entries     entry_count x 48 bytes, sorted by name bytes (strictly increasing: names unique)
//   names       the entries' logical names, UTF-8, back to back, not NUL-terminated
//   data        each asset file unchanged (header + JSON + blob), starting at a multiple of 64,
//               zero padding between, so every blob is 16-byte aligned in a mapped pack
//
// Reading is stateless and copies nothing: the caller maps (or reads) the pack and keeps the bytes
// alive; open_pack() checks the header and the tables once, in O(entries), touching no asset
// bytes; find_pack_entry() is a binary search; read_pack_asset() hands out the same AssetView as
// parse_binaryfile(), from which read_*_info and unpack_* go on as for a file. Content hashes are
// stored for tools to verify (asset-baker check) and never verified here: that would read every
// asset.
//
// Writing: layout_pack() computes where each asset goes and serialises the header and tables;
// the writer streams the asset files after them (asset-baker pack does, into a temporary file it
// renames). assetlib does not hash: the caller gives each entry's hash.
//
// Hostile input follows asset_file.h: open_pack, pack_entry, find_pack_entry and read_pack_asset
// are safe on any bytes (and on any PackView or PackEntry values), read only inside the pack's
// bytes, allocate nothing but error messages and never throw.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/status.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace assetlib {

// The pack layout version this build writes and reads (independent of kFormatVersion, the
// version of the assets inside).
inline constexpr uint32_t kPackVersion = 1;
inline constexpr size_t kPackHeaderSize = 72;
inline constexpr size_t kPackEntrySize = 48;
// Every asset starts at a multiple of this in the pack (and so in a mapped pack, which is page
// aligned): a cache line, and a multiple of kBlobAlignment.
inline constexpr uint64_t kPackAlignment = 64;

// One asset of a pack, decoded from its table entry.
struct PackEntry {
  std::string_view name;        // logical name (any bytes; the baker writes UTF-8); lies inside
                                // the pack's bytes, valid while they are
  char type[4] = {0, 0, 0, 0};  // asset type, as in the asset's own header ("TEXI")
  uint64_t offset = 0;          // where the asset file starts in the pack
  uint64_t size = 0;            // bytes of the asset file
  // Unpacked bytes as the pack's writer gave them (the manifest's raw_size), not checked against
  // the asset: a hint for planning, never an allocation size. Allocate what read_*_info says.
  uint64_t raw_size = 0;
  uint64_t hash = 0;  // XXH3-64 of the asset file's bytes (the manifest's "xxh3-64:"), as written
};

// A pack checked by open_pack (non-owning). Valid while the bytes are.
struct PackView {
  std::span<const std::byte> bytes;    // the whole pack
  std::span<const std::byte> entries;  // the entry table: entry_count x kPackEntrySize bytes
  std::span<const std::byte> names;    // the name table
  uint32_t entry_count = 0;
};

// Checks `bytes` as a pack and fills `out`.
// Safe on hostile bytes; O(entry_count + name bytes), allocates nothing (but error messages),
// reads no asset bytes. Checked, in this order: at least kPackHeaderSize bytes (TruncatedHeader);
// the magic "APAK" (UnknownType: not a pack); the version (UnsupportedVersion); the header's file
// size against bytes.size() (fewer bytes: TruncatedHeader; more: LengthMismatch); then
// (InvalidValue) the reserved fields are 0, the entry table is entry_count x kPackEntrySize bytes,
// the entry table, name table and data lie after the header, in that order, without overlapping,
// inside the file, the data starting at a multiple of kPackAlignment; and each entry: its asset
// lies inside the data and starts at a multiple of kPackAlignment, its name inside the name
// table, its type is 4 characters of A-Z, 0-9 or _, its name is strictly greater (byte-wise) than
// the previous entry's. Not checked: the assets themselves (read_pack_asset parses one; hashes are
// the tools' job). Entries may share bytes. Messages start with `source_name` and name the entry.
// `out` is left unchanged on error.
Status open_pack(std::span<const std::byte> bytes, PackView& out,
                 std::string_view source_name = "<memory>");

// Entry `index` of `pack`, decoded. O(1), no allocation. Any view and index: an index outside the
// table, or an entry whose name is not inside `pack.names`, gives an empty PackEntry (a view
// filled by open_pack has none of those for index < entry_count).
PackEntry pack_entry(const PackView& pack, size_t index);

// The entry named `name` (exact bytes), or nullopt. Binary search, no allocation: O(log n) entry
// decodes. Requires the names sorted, as open_pack checks; any other view gives wrong answers,
// never a read outside it.
std::optional<PackEntry> find_pack_entry(const PackView& pack, std::string_view name);

// Splits the asset `entry` describes into `out` with parse_binaryfile (no copy: `out` points into
// the pack's bytes) and checks that its header's type is the entry's.
// Safe on hostile bytes and on any `entry` values: an asset range outside `pack.bytes` is
// InvalidArgument; then parse_binaryfile's errors; a type other than the entry's is UnknownType.
// Messages start with "<source_name>: <entry name>". `out` is left unchanged on error.
Status read_pack_asset(const PackView& pack, const PackEntry& entry, AssetView& out,
                       std::string_view source_name = "<memory>");

// What a writer knows of one asset before writing the pack.
struct PackInput {
  std::string_view name;        // logical name, unique among the inputs
  char type[4] = {0, 0, 0, 0};  // the asset's type, as in its header
  uint64_t size = 0;            // bytes of the asset file
  uint64_t raw_size = 0;        // unpacked bytes (the manifest's raw_size)
  uint64_t hash = 0;            // XXH3-64 of the asset file's bytes
};

// Where everything goes. The pack is `index`, then for each input k in `order`: zero bytes up to
// offsets[k], then input k's file (size bytes); it ends at file_size.
struct PackLayout {
  std::vector<std::byte> index;   // bytes [0, data start): header, entry table, name table, padding
  std::vector<size_t> order;      // input indices in file order: by name
  std::vector<uint64_t> offsets;  // offsets[k]: where input k starts in the pack
  uint64_t file_size = 0;
};

// Lays out a pack of `inputs` (any order; sorted by name here) and serialises its index. The same
// inputs give the same bytes (docs/format.md, "Pack file": the layout is fully determined).
// Trusts `inputs` otherwise: types and hashes are written as given (a type that is not a type tag
// makes a pack open_pack refuses), and each size must be the size of the file written.
// Errors (InvalidArgument): two inputs with one name; more than 2^32 - 1 inputs; a name table over
// 4 GiB (name offsets are u32). `out` is written only on success.
Status layout_pack(std::span<const PackInput> inputs, PackLayout& out);

}  // namespace assetlib
