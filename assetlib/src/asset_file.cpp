// The container: header, padded JSON, blob. Reading checks every length against the bytes that
// exist before allocating or copying anything.
#include <assetlib/asset_file.h>
#include <assetlib/limits.h>

#include "little_endian.h"
#include "no_throw.h"
#include "read_file.h"
#include "type_tag.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>

namespace assetlib {
namespace {

struct Header {
  char type[4];
  uint32_t version;
  uint32_t json_length;
  uint32_t blob_length;
};

Header decode_header(const std::byte* p) {
  Header h{};
  std::memcpy(h.type, p, 4);
  h.version = detail::read_u32(p + 4);
  h.json_length = detail::read_u32(p + 8);
  h.blob_length = detail::read_u32(p + 12);
  return h;
}

size_t padded_json_length(size_t json_length) {
  size_t end = kHeaderSize + json_length;
  return json_length + (kBlobAlignment - end % kBlobAlignment) % kBlobAlignment;
}

std::string printable(const char* type) {
  std::string out;
  for (int i = 0; i < 4; ++i) {
    unsigned char c = static_cast<unsigned char>(type[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    }
  }
  return out;
}

// Checks a decoded header against the number of bytes the file really has.
Status check_header(const Header& h, uint64_t file_size, std::string_view name) {
  if (!detail::is_type_tag(h.type)) {
    return Status::error(ErrorCode::UnknownType,
                         std::string(name) + ": not an asset file (it starts with \"" +
                             printable(h.type) + "\", not a 4-character asset type)");
  }
  if (h.version != kFormatVersion) {
    return Status::error(ErrorCode::UnsupportedVersion,
                         std::string(name) + ": format version " + std::to_string(h.version) +
                             " is not supported (this build reads version " +
                             std::to_string(kFormatVersion) + ")");
  }
  uint64_t expected = kHeaderSize + uint64_t(h.json_length) + h.blob_length;
  if (expected > file_size) {
    return Status::error(ErrorCode::TruncatedHeader,
                         std::string(name) + ": header promises " + std::to_string(expected) +
                             " bytes (json " + std::to_string(h.json_length) + ", blob " +
                             std::to_string(h.blob_length) + ") but the file has " +
                             std::to_string(file_size));
  }
  if (expected < file_size) {
    return Status::error(ErrorCode::LengthMismatch, std::string(name) + ": " +
                                                        std::to_string(file_size - expected) +
                                                        " unexpected bytes after the blob");
  }
  if (h.json_length > kMaxJsonSize) {
    return Status::error(ErrorCode::InvalidValue,
                         std::string(name) + ": JSON metadata of " + std::to_string(h.json_length) +
                             " bytes is over the 4 MiB limit (assetlib::kMaxJsonSize)");
  }
  return {};
}

Status too_short(std::string_view name, uint64_t size) {
  return Status::error(ErrorCode::TruncatedHeader, std::string(name) + ": " + std::to_string(size) +
                                                       " bytes is shorter than the 16-byte header");
}

// Bytes load_binaryfile's first read() takes before the lengths are known: the header and a
// typical JSON (0.5 to 1.5 KB), so a small asset takes one read() and a larger one two, instead
// of one per part. load_asset_head reads the header alone first: it promises to read no blob.
constexpr size_t kFirstRead = 4096;
using FirstRead = std::array<std::byte, kFirstRead>;

// Opens `path`, reads its first `first_read` bytes (kHeaderSize..kFirstRead; fewer when the file
// is shorter) into `first` and checks the header against the file's size (the version, the
// lengths and the JSON cap) before anything is allocated; then the JSON into `head`. `blob_start`
// is what the first read brought of the blob (in `first`); the file is left right after it.
Status read_asset_head(const std::string& path, size_t first_read, detail::FileHandle& f,
                       AssetHead& head, FirstRead& first, std::span<const std::byte>& blob_start) {
  uint64_t file_size = 0;
  if (Status s = detail::open_regular_file(path, f, file_size); !s) return s;
  if (file_size < kHeaderSize) return too_short(path, file_size);
  const size_t first_size = size_t(std::min<uint64_t>(file_size, first_read));
  if (Status s = detail::read_exact(f, first.data(), first_size, path, "header"); !s) return s;
  Header h = decode_header(first.data());
  if (Status s = check_header(h, file_size, path); !s) return s;
  // check_header proved file_size == 16 + json_length + blob_length: every split below is in range.
  std::memcpy(head.type, h.type, 4);
  head.version = h.version;
  head.blob_length = h.blob_length;
  head.json.resize(h.json_length);
  std::span<const std::byte> got(first.data() + kHeaderSize, first_size - kHeaderSize);
  size_t json_part = std::min<size_t>(got.size(), h.json_length);
  std::memcpy(head.json.data(), got.data(), json_part);
  blob_start = got.subspan(json_part);
  return detail::read_exact(f, head.json.data() + json_part, h.json_length - json_part, path,
                            "metadata");
}

Status load_binaryfile_throwing(const std::string& path, AssetFile& out) {
  detail::FileHandle f;
  AssetHead head;
  FirstRead first;
  std::span<const std::byte> blob_start;
  if (Status s = read_asset_head(path, kFirstRead, f, head, first, blob_start); !s) return s;
  AssetFile file;
  std::memcpy(file.type, head.type, 4);
  file.version = head.version;
  file.json = std::move(head.json);
  file.blob.resize(head.blob_length);
  // An empty blob's data() may be null, which memcpy must not get even for 0 bytes.
  if (!blob_start.empty()) std::memcpy(file.blob.data(), blob_start.data(), blob_start.size());
  if (Status s = detail::read_exact(f, file.blob.data() + blob_start.size(),
                                    file.blob.size() - blob_start.size(), path, "blob");
      !s) {
    return s;
  }
  out = std::move(file);
  return {};
}

Status load_asset_head_throwing(const std::string& path, AssetHead& out) {
  detail::FileHandle f;
  AssetHead head;
  FirstRead first;
  std::span<const std::byte> blob_start;  // empty: the first read takes the header alone
  if (Status s = read_asset_head(path, kHeaderSize, f, head, first, blob_start); !s) return s;
  out = std::move(head);
  return {};
}

// TruncatedHeader when bytes [offset, offset + size) are not all in the blob `head` describes.
Status check_blob_range(const std::string& path, const AssetHead& head, uint64_t offset,
                        uint64_t size) {
  if (offset <= head.blob_length && size <= head.blob_length - offset) return {};
  return Status::error(ErrorCode::TruncatedHeader,
                       path + ": blob bytes " + std::to_string(offset) + ".." +
                           std::to_string(offset + size) + " lie outside its " +
                           std::to_string(head.blob_length) + "-byte blob");
}

Status load_blob_range_throwing(const std::string& path, const AssetHead& head, uint64_t offset,
                                std::span<std::byte> destination) {
  const uint64_t size = destination.size();
  if (Status s = check_blob_range(path, head, offset, size); !s) return s;
  detail::FileHandle f;
  uint64_t file_size = 0;
  if (Status s = detail::open_regular_file(path, f, file_size); !s) return s;
  // The head was checked against the file when it was read; its size and the header's two lengths
  // must still agree (a file rewritten with a longer JSON and a shorter blob keeps its size, and
  // the range would then come from the wrong place).
  const uint64_t blob_start = kHeaderSize + head.json.size();
  std::byte header[kHeaderSize];
  bool same = file_size == blob_start + head.blob_length;
  if (same) {
    if (Status s = detail::read_exact_at(f, 0, header, kHeaderSize, path, "header"); !s) return s;
    same = detail::read_u32(header + 8) == head.json.size() &&
           detail::read_u32(header + 12) == head.blob_length;
  }
  if (!same) {
    return Status::error(ErrorCode::LengthMismatch,
                         path + ": the file changed since its head was read");
  }
  return detail::read_exact_at(f, blob_start + offset, destination.data(), size, path,
                               "blob range");
}

// The vector form: checked before allocating, `out` unchanged on error.
Status load_blob_range_throwing(const std::string& path, const AssetHead& head, uint64_t offset,
                                uint64_t size, std::vector<std::byte>& out) {
  if (Status s = check_blob_range(path, head, offset, size); !s) return s;
  std::vector<std::byte> bytes(size);
  if (Status s = load_blob_range_throwing(path, head, offset, bytes); !s) return s;
  out = std::move(bytes);
  return {};
}

}  // namespace

std::vector<std::byte> serialize_binaryfile_head(const AssetFile& file) {
  size_t json_length = padded_json_length(file.json.size());
  std::vector<std::byte> head(kHeaderSize + json_length, std::byte{' '});
  std::memcpy(head.data(), file.type, 4);
  detail::write_u32(head.data() + 4, file.version);
  detail::write_u32(head.data() + 8, uint32_t(json_length));
  detail::write_u32(head.data() + 12, uint32_t(file.blob.size()));
  std::memcpy(head.data() + kHeaderSize, file.json.data(), file.json.size());
  return head;
}

AssetView::AssetView(const AssetFile& file)
    : version(file.version), json(file.json), blob(file.blob) {
  std::memcpy(type, file.type, 4);
}

bool has_type(const AssetView& view, const char (&type)[5]) {
  return std::memcmp(view.type, type, 4) == 0;
}

std::vector<std::byte> serialize_binaryfile(const AssetFile& file) {
  std::vector<std::byte> bytes = serialize_binaryfile_head(file);
  bytes.insert(bytes.end(), file.blob.begin(), file.blob.end());
  return bytes;
}

Status save_binaryfile(const std::string& path, const AssetFile& file) {
  return detail::no_throw(path, [&] {
    if (padded_json_length(file.json.size()) > kMaxJsonSize) {
      return Status::error(
          ErrorCode::InvalidArgument,
          path + ": JSON metadata of " + std::to_string(file.json.size()) +
              " bytes is over the 4 MiB limit (assetlib::kMaxJsonSize): no reader would load it");
    }
    if (file.blob.size() > UINT32_MAX) {
      return Status::error(ErrorCode::InvalidArgument,
                           path + ": blob larger than the 4 GiB the header can describe");
    }
    // The blob is written from where it is; only the small head is assembled.
    std::vector<std::byte> head = serialize_binaryfile_head(file);
    const std::span<const std::byte> parts[] = {head, file.blob};
    return write_file_atomically(path, parts);
  });
}

Status parse_binaryfile(std::span<const std::byte> bytes, AssetView& out,
                        std::string_view source_name) {
  // Allocates nothing but error messages.
  return detail::no_throw(source_name, [&] {
    if (bytes.size() < kHeaderSize) return too_short(source_name, bytes.size());
    Header h = decode_header(bytes.data());
    if (Status s = check_header(h, bytes.size(), source_name); !s) return s;
    std::memcpy(out.type, h.type, 4);
    out.version = h.version;
    out.json =
        std::string_view(reinterpret_cast<const char*>(bytes.data() + kHeaderSize), h.json_length);
    out.blob = bytes.subspan(kHeaderSize + h.json_length, h.blob_length);
    return Status{};
  });
}

Status load_binaryfile(const std::string& path, AssetFile& out) {
  return detail::no_throw(path, [&] { return load_binaryfile_throwing(path, out); });
}

Status load_asset_head(const std::string& path, AssetHead& out) {
  return detail::no_throw(path, [&] { return load_asset_head_throwing(path, out); });
}

Status load_blob_range(const std::string& path, const AssetHead& head, uint64_t offset,
                       uint64_t size, std::vector<std::byte>& out) {
  return detail::no_throw(path,
                          [&] { return load_blob_range_throwing(path, head, offset, size, out); });
}

Status load_blob_range(const std::string& path, const AssetHead& head, uint64_t offset,
                       std::span<std::byte> destination) {
  return detail::no_throw(
      path, [&] { return load_blob_range_throwing(path, head, offset, destination); });
}

}  // namespace assetlib
