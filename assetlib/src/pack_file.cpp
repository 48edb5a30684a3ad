// Pack files: the header and tables checked once on open, entries decoded on demand, the index
// laid out for writers. Every range is compared in 64-bit arithmetic that cannot wrap: a size is
// compared with what is left after an offset, never added to it first.
#include <assetlib/pack_file.h>

#include "little_endian.h"
#include "no_throw.h"
#include "quoted_name.h"
#include "type_tag.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

namespace assetlib {
namespace {

constexpr char kPackMagic[4] = {'A', 'P', 'A', 'K'};

using detail::read_u32;
using detail::read_u64;
using detail::write_u32;
using detail::write_u64;

// The header, field by field (docs/format.md, "Pack file").
struct PackHeader {
  char magic[4];
  uint32_t version;
  uint32_t entry_count;
  uint32_t reserved;
  uint64_t entries_offset, entries_size;
  uint64_t names_offset, names_size;
  uint64_t data_offset, data_size;
  uint64_t file_size;
};

PackHeader decode_header(const std::byte* p) {
  PackHeader h{};
  std::memcpy(h.magic, p, 4);
  h.version = read_u32(p + 4);
  h.entry_count = read_u32(p + 8);
  h.reserved = read_u32(p + 12);
  h.entries_offset = read_u64(p + 16);
  h.entries_size = read_u64(p + 24);
  h.names_offset = read_u64(p + 32);
  h.names_size = read_u64(p + 40);
  h.data_offset = read_u64(p + 48);
  h.data_size = read_u64(p + 56);
  h.file_size = read_u64(p + 64);
  return h;
}

void encode_header(const PackHeader& h, std::byte* p) {
  std::memcpy(p, h.magic, 4);
  write_u32(p + 4, h.version);
  write_u32(p + 8, h.entry_count);
  write_u32(p + 12, h.reserved);
  write_u64(p + 16, h.entries_offset);
  write_u64(p + 24, h.entries_size);
  write_u64(p + 32, h.names_offset);
  write_u64(p + 40, h.names_size);
  write_u64(p + 48, h.data_offset);
  write_u64(p + 56, h.data_size);
  write_u64(p + 64, h.file_size);
}

// One entry as stored: the name as an offset into the name table.
struct RawEntry {
  uint64_t offset, size, raw_size, hash;
  uint32_t name_offset, name_length;
  char type[4];
  uint32_t reserved;
};

RawEntry decode_entry(const std::byte* p) {
  RawEntry e{};
  e.offset = read_u64(p);
  e.size = read_u64(p + 8);
  e.raw_size = read_u64(p + 16);
  e.hash = read_u64(p + 24);
  e.name_offset = read_u32(p + 32);
  e.name_length = read_u32(p + 36);
  std::memcpy(e.type, p + 40, 4);
  e.reserved = read_u32(p + 44);
  return e;
}

void encode_entry(const RawEntry& e, std::byte* p) {
  write_u64(p, e.offset);
  write_u64(p + 8, e.size);
  write_u64(p + 16, e.raw_size);
  write_u64(p + 24, e.hash);
  write_u32(p + 32, e.name_offset);
  write_u32(p + 36, e.name_length);
  std::memcpy(p + 40, e.type, 4);
  write_u32(p + 44, e.reserved);
}

// [offset, offset + size) lies inside [begin, end), without computing offset + size.
bool inside(uint64_t offset, uint64_t size, uint64_t begin, uint64_t end) {
  return begin <= offset && offset <= end && size <= end - offset;
}

std::string_view name_in(std::span<const std::byte> names, const RawEntry& e) {
  return {reinterpret_cast<const char*>(names.data()) + e.name_offset, e.name_length};
}

Status invalid(std::string_view source, const std::string& what) {
  std::string message(source);
  message += ": ";
  message += what;
  return Status::error(ErrorCode::InvalidValue, std::move(message));
}

// Magic, version and the file's size: what says whether these bytes are a whole pack at all.
Status check_identity(const PackHeader& h, uint64_t size, std::string_view source) {
  if (std::memcmp(h.magic, kPackMagic, 4) != 0) {
    return Status::error(ErrorCode::UnknownType,
                         std::string(source) + ": not a pack file (no \"APAK\" magic)");
  }
  if (h.version != kPackVersion) {
    return Status::error(ErrorCode::UnsupportedVersion,
                         std::string(source) + ": pack version " + std::to_string(h.version) +
                             " is not supported (this build reads version " +
                             std::to_string(kPackVersion) + ")");
  }
  if (h.file_size > size) {
    return Status::error(ErrorCode::TruncatedHeader,
                         std::string(source) + ": header promises " + std::to_string(h.file_size) +
                             " bytes but the pack has " + std::to_string(size) + " (truncated)");
  }
  if (h.file_size < size) {
    return Status::error(ErrorCode::LengthMismatch,
                         std::string(source) + ": " + std::to_string(size - h.file_size) +
                             " unexpected bytes after the end the header gives");
  }
  return {};
}

// The three sections: after the header, in order, disjoint, inside the file.
Status check_sections(const PackHeader& h, std::string_view source) {
  if (h.reserved != 0) return invalid(source, "reserved header field is not 0");
  if (h.entries_size != uint64_t(h.entry_count) * kPackEntrySize) {
    return invalid(source, "entry table of " + std::to_string(h.entries_size) + " bytes for " +
                               std::to_string(h.entry_count) + " entries of " +
                               std::to_string(kPackEntrySize));
  }
  if (!inside(h.entries_offset, h.entries_size, kPackHeaderSize, h.file_size))
    return invalid(source, "entry table outside the file (or over the header)");
  if (!inside(h.names_offset, h.names_size, h.entries_offset + h.entries_size, h.file_size))
    return invalid(source, "name table outside the file (or over the entry table)");
  if (!inside(h.data_offset, h.data_size, h.names_offset + h.names_size, h.file_size))
    return invalid(source, "data outside the file (or over the name table)");
  if (h.data_offset % kPackAlignment != 0) {
    return invalid(source, "data offset " + std::to_string(h.data_offset) +
                               " is not a multiple of " + std::to_string(kPackAlignment));
  }
  return {};
}

// "<source>: entry 3 ('textures/a.png')<what>", built only when the entry is refused.
Status entry_invalid(std::string_view source, size_t i, std::string_view name,
                     const std::string& what) {
  return invalid(source,
                 "entry " + std::to_string(i) + " (" + detail::quoted_name(name) + ")" + what);
}

// Entry `i` on its own, then its name against the previous entry's. Builds no string unless the
// entry is refused: open_pack allocates nothing for a valid pack.
Status check_entry(const PackHeader& h, std::span<const std::byte> names, const RawEntry& e,
                   size_t i, std::string_view previous, std::string_view source) {
  if (!inside(e.name_offset, e.name_length, 0, h.names_size))
    return invalid(source, "entry " + std::to_string(i) + ": name outside the name table");
  std::string_view name = name_in(names, e);
  if (e.reserved != 0) return entry_invalid(source, i, name, ": reserved field is not 0");
  if (!detail::is_type_tag(e.type))
    return entry_invalid(source, i, name, ": type is not 4 characters A-Z0-9_");
  if (!inside(e.offset, e.size, h.data_offset, h.data_offset + h.data_size)) {
    return entry_invalid(source, i, name,
                         ": asset at " + std::to_string(e.offset) + ", " + std::to_string(e.size) +
                             " bytes, lies outside the data");
  }
  if (e.offset % kPackAlignment != 0) {
    return entry_invalid(source, i, name,
                         ": asset offset " + std::to_string(e.offset) + " is not a multiple of " +
                             std::to_string(kPackAlignment));
  }
  if (i > 0 && !(previous < name)) {
    return entry_invalid(source, i, name,
                         " does not sort after entry " + std::to_string(i - 1) + " (" +
                             detail::quoted_name(previous) + "): names must be sorted and unique");
  }
  return {};
}

Status open_pack_checked(std::span<const std::byte> bytes, PackView& out, std::string_view source) {
  if (bytes.size() < kPackHeaderSize) {
    return Status::error(ErrorCode::TruncatedHeader,
                         std::string(source) + ": " + std::to_string(bytes.size()) +
                             " bytes is shorter than the 72-byte pack header");
  }
  PackHeader h = decode_header(bytes.data());
  if (Status s = check_identity(h, bytes.size(), source); !s) return s;
  if (Status s = check_sections(h, source); !s) return s;
  std::span<const std::byte> entries = bytes.subspan(h.entries_offset, h.entries_size);
  std::span<const std::byte> names = bytes.subspan(h.names_offset, h.names_size);
  std::string_view previous;
  for (size_t i = 0; i < h.entry_count; ++i) {
    RawEntry e = decode_entry(entries.data() + i * kPackEntrySize);
    if (Status s = check_entry(h, names, e, i, previous, source); !s) return s;
    previous = name_in(names, e);
  }
  out.bytes = bytes;
  out.entries = entries;
  out.names = names;
  out.entry_count = h.entry_count;
  return {};
}

uint64_t align_up(uint64_t value) {
  return (value + kPackAlignment - 1) / kPackAlignment * kPackAlignment;
}

// Writes the header, the entries (in `order`, at `offsets`) and the names into `index`.
void serialize_index(std::span<const PackInput> inputs, const std::vector<size_t>& order,
                     const std::vector<uint64_t>& offsets, const PackHeader& h,
                     std::vector<std::byte>& index) {
  index.assign(size_t(h.data_offset), std::byte{0});
  encode_header(h, index.data());
  uint64_t name_offset = 0;
  for (size_t slot = 0; slot < order.size(); ++slot) {
    const PackInput& in = inputs[order[slot]];
    RawEntry e{};
    e.offset = offsets[order[slot]];
    e.size = in.size;
    e.raw_size = in.raw_size;
    e.hash = in.hash;
    e.name_offset = uint32_t(name_offset);
    e.name_length = uint32_t(in.name.size());
    std::memcpy(e.type, in.type, 4);
    encode_entry(e, index.data() + h.entries_offset + slot * kPackEntrySize);
    std::memcpy(index.data() + h.names_offset + name_offset, in.name.data(), in.name.size());
    name_offset += in.name.size();
  }
}

Status layout_pack_checked(std::span<const PackInput> inputs, PackLayout& out) {
  if (inputs.size() > UINT32_MAX) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack of " + std::to_string(inputs.size()) + " assets: at most " +
                             std::to_string(UINT32_MAX) + " fit its u32 entry count");
  }
  std::vector<size_t> order(inputs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return inputs[a].name < inputs[b].name; });
  uint64_t names_size = 0;
  for (size_t slot = 0; slot < order.size(); ++slot) {
    std::string_view name = inputs[order[slot]].name;
    if (slot > 0 && inputs[order[slot - 1]].name == name) {
      return Status::error(
          ErrorCode::InvalidArgument,
          "two assets named " + detail::quoted_name(name) + ": pack names must be unique");
    }
    names_size += name.size();
  }
  if (names_size > UINT32_MAX) {
    return Status::error(ErrorCode::InvalidArgument,
                         "pack names of " + std::to_string(names_size) +
                             " bytes: the name table holds at most 4 GiB (u32 offsets)");
  }
  PackHeader h{};
  std::memcpy(h.magic, kPackMagic, 4);
  h.version = kPackVersion;
  h.entry_count = uint32_t(inputs.size());
  h.entries_offset = kPackHeaderSize;
  h.entries_size = uint64_t(inputs.size()) * kPackEntrySize;
  h.names_offset = h.entries_offset + h.entries_size;
  h.names_size = names_size;
  h.data_offset = align_up(h.names_offset + h.names_size);
  std::vector<uint64_t> offsets(inputs.size());
  uint64_t end = h.data_offset;
  for (size_t k : order) {
    offsets[k] = align_up(end);
    end = offsets[k] + inputs[k].size;
  }
  h.data_size = end - h.data_offset;
  h.file_size = end;
  PackLayout layout;
  serialize_index(inputs, order, offsets, h, layout.index);
  layout.order = std::move(order);
  layout.offsets = std::move(offsets);
  layout.file_size = h.file_size;
  out = std::move(layout);
  return {};
}

}  // namespace

Status open_pack(std::span<const std::byte> bytes, PackView& out, std::string_view source_name) {
  return detail::no_throw(source_name, [&] { return open_pack_checked(bytes, out, source_name); });
}

PackEntry pack_entry(const PackView& pack, size_t index) {
  if (index >= pack.entries.size() / kPackEntrySize) return {};
  RawEntry e = decode_entry(pack.entries.data() + index * kPackEntrySize);
  if (!inside(e.name_offset, e.name_length, 0, pack.names.size())) return {};
  PackEntry entry;
  entry.name = name_in(pack.names, e);
  std::memcpy(entry.type, e.type, 4);
  entry.offset = e.offset;
  entry.size = e.size;
  entry.raw_size = e.raw_size;
  entry.hash = e.hash;
  return entry;
}

std::optional<PackEntry> find_pack_entry(const PackView& pack, std::string_view name) {
  size_t count = std::min<size_t>(pack.entry_count, pack.entries.size() / kPackEntrySize);
  // The first entry whose name is not below `name`: it is the one, if any is.
  size_t low = 0, high = count;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (pack_entry(pack, middle).name < name) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low == count) return std::nullopt;
  PackEntry entry = pack_entry(pack, low);
  if (entry.name != name) return std::nullopt;
  return entry;
}

Status read_pack_asset(const PackView& pack, const PackEntry& entry, AssetView& out,
                       std::string_view source_name) {
  return detail::no_throw(source_name, [&] {
    auto where = [&] {
      std::string text(source_name);
      text += ": ";
      text += entry.name;
      return text;
    };
    if (!inside(entry.offset, entry.size, 0, pack.bytes.size())) {
      return Status::error(ErrorCode::InvalidArgument,
                           where() + ": asset range lies outside the pack's bytes");
    }
    AssetView view;
    Status s = parse_binaryfile(pack.bytes.subspan(entry.offset, entry.size), view, entry.name);
    if (!s) return Status::error(s.code, std::string(source_name) + ": " + s.message);
    if (std::memcmp(view.type, entry.type, 4) != 0) {
      return Status::error(ErrorCode::UnknownType,
                           where() + ": the pack lists it as " + std::string(entry.type, 4) +
                               ", the asset is " + std::string(view.type, 4));
    }
    out = view;
    return Status{};
  });
}

Status layout_pack(std::span<const PackInput> inputs, PackLayout& out) {
  return detail::no_throw("layout_pack", [&] { return layout_pack_checked(inputs, out); });
}

}  // namespace assetlib
