#include "pipeline/output_tree.h"

#include "common/asset_kinds.h"
#include "common/content_hash.h"
#include "common/file_descriptor.h"
#include "common/file_time.h"
#include "pipeline/file_copy.h"

#include <assetlib/asset_file.h>
#include <assetlib/limits.h>
#include <assetlib/manifest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

namespace baker {
namespace {

// Deeper trees than this are not output trees the baker made; the sweep stops there.
constexpr int kMaxSweepDepth = 64;

bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

int open_folder(int dir, const char* name) {
  return ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// A regular file opened without following a symlink and without blocking on a FIFO.
int open_regular(int dir, const std::string& name) {
  int fd = ::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st {};
  if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  return fd;
}

// True when the open file is laid out as an asset the baker writes: a known type, this format
// version, and header lengths that account for exactly the file's size. The cache that names a
// file to delete can be planted along with its hash; no planted hash turns a user's file into one
// of these.
bool is_asset_file(int fd) {
  std::byte header[assetlib::kHeaderSize];
  struct stat st {};
  if (::fstat(fd, &st) != 0 || ::pread(fd, header, sizeof header, 0) != ssize_t(sizeof header))
    return false;
  const bool known = is_baked_type(header);
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, header + at, 4);
    return uint64_t(v);
  };
  return known && u32(4) == assetlib::kFormatVersion &&
         assetlib::kHeaderSize + u32(8) + u32(12) == uint64_t(st.st_size);
}

// Deletes the temporaries under `dir`, and with `remove_empty` the folders they leave empty.
void sweep(int dir, int depth, bool remove_empty) {
  if (depth > kMaxSweepDepth) return;
  std::vector<std::string> names;
  if (DIR* listing = ::fdopendir(::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC))) {
    while (dirent* entry = ::readdir(listing)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    ::closedir(listing);
  }
  for (const std::string& name : names) {
    struct stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      FileDescriptor sub(open_folder(dir, name.c_str()));
      const bool hidden = name[0] == '.';
      if (sub.get() >= 0) sweep(sub.get(), depth + 1, remove_empty && !hidden);
      // Left empty (rmdir refuses any other): a fresh bake has no such folder. Not a hidden one,
      // nor in one: the baker's own (.assetlib-records) may be empty between runs, and a .git
      // someone keeps in the output folder needs its empty folders.
      if (remove_empty && !hidden) ::unlinkat(dir, name.c_str(), AT_REMOVEDIR);
    } else if (S_ISREG(st.st_mode) && is_temporary_name(name)) {
      ::unlinkat(dir, name.c_str(), 0);
    }
  }
}

}  // namespace

bool write_all(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      return false;
    }
    bytes = bytes.subspan(size_t(n));
  }
  return true;
}

std::optional<std::string> read_small_file(int dir, const std::string& name, uint64_t max_bytes) {
  FileDescriptor file(open_regular(dir, name));
  struct stat st {};
  if (file.get() < 0 || ::fstat(file.get(), &st) != 0 || uint64_t(st.st_size) > max_bytes)
    return std::nullopt;
  std::string text(size_t(st.st_size), '\0');
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::read(file.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    done += size_t(n);
  }
  return text;
}

std::string io_reason(const char* what, int err) {
  if (err == ENOSPC) return std::string("disk full ") + what + " (" + std::strerror(err) + ")";
  if (err == EDQUOT)
    return std::string("disk quota exceeded ") + what + " (" + std::strerror(err) + ")";
  return std::string(what) + " failed: " + std::strerror(err);
}

std::string temporary_name(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  const std::string suffix =
      kTempMarker + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  // A file name near the 255-byte limit leaves no room for the suffix: the start of the name
  // stands in for it (the counter keeps the temporary unique).
  const size_t slash = path.rfind('/');
  const size_t leaf = slash == std::string::npos ? 0 : slash + 1;
  const size_t room = kMaxFileName - suffix.size();
  return path.substr(0, leaf + std::min(path.size() - leaf, room)) + suffix;
}

bool is_temporary_name(std::string_view file_name) {
  size_t marker = file_name.rfind(kTempMarker);
  if (marker == std::string_view::npos || marker == 0) return false;
  std::string_view tail = file_name.substr(marker + std::strlen(kTempMarker));
  size_t dash = tail.find('-');
  return dash != std::string_view::npos && all_digits(tail.substr(0, dash)) &&
         all_digits(tail.substr(dash + 1));
}

OutputTree::OutputTree(OutputTree&& other) noexcept
    : root_(std::move(other.root_)), fd_(std::exchange(other.fd_, -1)) {}

OutputTree& OutputTree::operator=(OutputTree&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    root_ = std::move(other.root_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

OutputTree::~OutputTree() {
  if (fd_ >= 0) ::close(fd_);
}

BakeStatus OutputTree::open(const std::filesystem::path& root, OutputTree& out) {
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return BakeStatus::failure(
        BakeError::IoError, root.string(),
        ec ? "cannot create the output folder: " + ec.message()
           : std::string("cannot open the output folder: ") + std::strerror(errno));
  }
  out = OutputTree();
  out.root_ = root;
  out.fd_ = fd;
  return {};
}

int OutputTree::open_parent(const std::string& relative, bool create, std::string& leaf) const {
  if (!assetlib::is_safe_relative_path(relative)) {
    errno = EINVAL;
    return -1;
  }
  FileDescriptor dir(::dup(fd_));
  size_t start = 0;
  for (size_t slash; (slash = relative.find('/', start)) != std::string::npos; start = slash + 1) {
    std::string name = relative.substr(start, slash - start);
    int next = open_folder(dir.get(), name.c_str());
    if (next < 0 && errno == ENOENT && create) {
      if (::mkdirat(dir.get(), name.c_str(), 0777) != 0 && errno != EEXIST) return -1;
      next = open_folder(dir.get(), name.c_str());
    }
    if (next < 0) {
      // O_DIRECTORY | O_NOFOLLOW fails a symlink with ENOTDIR too: told apart, as ELOOP.
      struct stat st {};
      if (errno == ENOTDIR && ::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode))
        errno = ELOOP;
      return -1;  // ELOOP: a symlink; ENOTDIR: a file where a folder should be
    }
    dir.reset(next);
  }
  leaf = relative.substr(start);
  return dir.release();
}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : dir_(std::exchange(other.dir_, -1)),
      temporary(std::move(other.temporary)),
      leaf(std::move(other.leaf)),
      path(std::move(other.path)) {}

StagedFile& StagedFile::operator=(StagedFile&& other) noexcept {
  if (this != &other) {
    discard();
    dir_ = std::exchange(other.dir_, -1);
    temporary = std::move(other.temporary);
    leaf = std::move(other.leaf);
    path = std::move(other.path);
  }
  return *this;
}

StagedFile::~StagedFile() { discard(); }

void StagedFile::discard() noexcept {
  if (dir_ < 0) return;
  ::unlinkat(dir_, temporary.c_str(), 0);
  ::close(std::exchange(dir_, -1));
}

BakeStatus OutputTree::stage(const std::string& relative,
                             std::span<const std::span<const std::byte>> parts,
                             StagedFile& out) const {
  std::string path = (root_ / relative).string();
  std::string leaf;
  FileDescriptor dir(open_parent(relative, true, leaf));
  if (dir.get() < 0) {
    int err = errno;
    // The output folder's fault, not the source's (IoError: its previous outputs are kept).
    if (err == ELOOP || err == ENOTDIR || err == EINVAL) {
      return BakeStatus::failure(
          BakeError::IoError, path,
          "a folder on the way is a symlink or not a folder; outputs are written only "
          "through real folders inside the output folder");
    }
    return BakeStatus::failure(BakeError::IoError, path, io_reason("creating its folder", err));
  }
  std::string tmp = temporary_name(leaf);
  // Never group- or world-writable, whatever the umask allows: an output may be hard-linked into a
  // shared cache and from there into other users' folders (one inode, one mode).
  FileDescriptor file(
      ::openat(dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (file.get() < 0)
    return BakeStatus::failure(BakeError::IoError, path, io_reason("creating a temporary", errno));
  bool written = true;
  for (std::span<const std::byte> part : parts) written = written && write_all(file.get(), part);
  int err = errno;
  bool closed = ::close(file.release()) == 0;
  if (!closed && written) err = errno;
  if (!written || !closed) {
    ::unlinkat(dir.get(), tmp.c_str(), 0);
    return BakeStatus::failure(BakeError::IoError, path, io_reason("writing", err));
  }
  out = StagedFile();
  out.dir_ = dir.release();
  out.temporary = std::move(tmp);
  out.leaf = std::move(leaf);
  out.path = std::move(path);
  return {};
}

BakeStatus OutputTree::stage_from(const std::string& relative, int from_dir,
                                  const std::string& from_name, bool allow_link, uint64_t size,
                                  const std::string& hash, StagedFile& out) const {
  std::string path = (root_ / relative).string();
  std::string leaf;
  FileDescriptor dir(open_parent(relative, true, leaf));
  if (dir.get() < 0) {
    return BakeStatus::failure(BakeError::IoError, path,
                               "a folder on the way is a symlink or not a folder");
  }
  // Judged before a byte is read or written: what the record claims bounds the copy, and an
  // entry could be planted with a claim of its own (a sparse 20 GiB hole recorded as 20 GiB).
  // No asset is larger than its header allows; one mostly hole is no file the baker wrote (a
  // compressing file system may look so too: then the entry is only baked again).
  struct stat from {};
  constexpr uint64_t kLargestAsset =
      assetlib::kHeaderSize + assetlib::kMaxJsonSize + uint64_t(UINT32_MAX);
  constexpr uint64_t kHoleCheckFrom = uint64_t(1) << 20;
  if (::fstatat(from_dir, from_name.c_str(), &from, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISREG(from.st_mode) || uint64_t(from.st_size) != size || size > kLargestAsset ||
      (size > kHoleCheckFrom && uint64_t(from.st_blocks) * 512 < size / 2)) {
    return BakeStatus::failure(BakeError::InvalidAsset, path,
                               "not a regular file of the recorded size (at most an asset's "
                               "largest, without holes)");
  }
  StagedFile staged;
  std::string tmp = temporary_name(leaf);
  if (int err = link_or_copy(from_dir, from_name, dir.get(), tmp, allow_link))
    return BakeStatus::failure(BakeError::IoError, path, io_reason("copying", err));
  staged.dir_ = dir.release();
  staged.temporary = std::move(tmp);
  staged.leaf = std::move(leaf);
  staged.path = std::move(path);
  FileDescriptor file(open_regular(staged.dir_, staged.temporary));
  struct stat st {};
  uint64_t got = 0;
  if (file.get() < 0 || ::fstat(file.get(), &st) != 0 || uint64_t(st.st_size) != size ||
      !hash_fd(file.get(), got) || hash_string(got) != hash) {
    return BakeStatus::failure(BakeError::InvalidAsset, staged.path,
                               "the copy does not have the recorded size and content hash");
  }
  out = std::move(staged);
  return {};
}

BakeStatus OutputTree::publish(StagedFile& staged) const {
  if (::renameat(staged.dir_, staged.temporary.c_str(), staged.dir_, staged.leaf.c_str()) != 0) {
    return BakeStatus::failure(BakeError::IoError, staged.path,
                               io_reason("renaming into place", errno));
  }
  // rename() of a link over another link of the same file does nothing and succeeds (POSIX): a
  // cached output linked in over the same cache file, already in place, leaves its temporary.
  ::unlinkat(staged.dir_, staged.temporary.c_str(), 0);  // ENOENT after any other rename
  ::close(std::exchange(staged.dir_, -1));               // published: nothing left to remove
  return {};
}

BakeStatus OutputTree::replaceable(const StagedFile& staged) const {
  struct stat st {};
  if (::fstatat(staged.dir_, staged.leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      S_ISLNK(st.st_mode))
    return {};
  // Lenient where deleting is strict (is_asset_file): the baker's own output that is truncated,
  // damaged or of an older format version still starts with its type, and is replaced.
  FileDescriptor file(S_ISREG(st.st_mode) ? open_regular(staged.dir_, staged.leaf) : -1);
  char type[4] = {};
  if (file.get() >= 0 && ::pread(file.get(), type, 4, 0) == 4 && is_baked_type(type)) return {};
  if (S_ISDIR(st.st_mode)) {
    return BakeStatus::failure(BakeError::IoError, staged.path,
                               "a folder is where this output goes (files an earlier bake or "
                               "someone else put there); move it away and bake again");
  }
  return BakeStatus::failure(BakeError::IoError, staged.path,
                             "would replace a file that is not a baked asset (the baker did not "
                             "write it); move it away and bake again");
}

BakeStatus OutputTree::write(const std::string& relative,
                             std::span<const std::span<const std::byte>> parts) const {
  StagedFile staged;
  if (BakeStatus s = stage(relative, parts, staged); !s) return s;
  return publish(staged);
}

std::optional<FileStat> OutputTree::file_stat(const std::string& relative) const {
  std::string leaf;
  FileDescriptor dir(open_parent(relative, false, leaf));
  struct stat st {};
  if (dir.get() < 0 || ::fstatat(dir.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  return FileStat{uint64_t(st.st_size), modification_ns(st)};
}

std::optional<std::string> OutputTree::read_file(const std::string& relative,
                                                 uint64_t max_bytes) const {
  std::string leaf;
  FileDescriptor dir(open_parent(relative, false, leaf));
  if (dir.get() < 0) return std::nullopt;
  return read_small_file(dir.get(), leaf, max_bytes);
}

ReadResult OutputTree::read_bytes(const std::string& relative, uint64_t max_bytes,
                                  std::vector<std::byte>& out) const {
  auto failed = [] {  // open_regular: EINVAL for a file that is there but not regular
    if (errno == ENOENT) return ReadResult::NotFound;
    return errno == ELOOP || errno == ENOTDIR || errno == EINVAL ? ReadResult::NotRegular
                                                                 : ReadResult::ReadError;
  };
  std::string leaf;
  FileDescriptor dir(open_parent(relative, false, leaf));
  if (dir.get() < 0) return failed();
  int fd = open_regular(dir.get(), leaf);
  if (fd < 0) return failed();
  return read_opened_file(fd, max_bytes, out);
}

std::optional<std::string> OutputTree::file_hash(const std::string& relative) const {
  std::string leaf;
  FileDescriptor dir(open_parent(relative, false, leaf));
  if (dir.get() < 0) return std::nullopt;
  FileDescriptor file(open_regular(dir.get(), leaf));
  uint64_t hash = 0;
  if (file.get() < 0 || !hash_fd(file.get(), hash)) return std::nullopt;
  return hash_string(hash);
}

OutputTree::Removal OutputTree::remove_if_unchanged(const std::string& relative,
                                                    const std::string& expected_hash) const {
  std::string leaf;
  FileDescriptor dir(open_parent(relative, false, leaf));
  // A file where a folder on the way was, or a folder where the file was (an output of another
  // source took the place): the baker's file is not there.
  if (dir.get() < 0) return errno == ENOENT || errno == ENOTDIR ? Removal::Absent : Removal::Kept;
  struct stat st {};
  const bool found = ::fstatat(dir.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if ((!found && errno == ENOENT) || (found && S_ISDIR(st.st_mode))) return Removal::Absent;
  FileDescriptor file(open_regular(dir.get(), leaf));
  uint64_t hash = 0;
  if (file.get() < 0 || !is_asset_file(file.get()) || ::lseek(file.get(), 0, SEEK_SET) != 0 ||
      !hash_fd(file.get(), hash) || hash_string(hash) != expected_hash)
    return Removal::Kept;
  if (::unlinkat(dir.get(), leaf.c_str(), 0) != 0) return Removal::Kept;
  // Each folder above, deepest first, while it is empty (rmdir refuses one that is not).
  for (std::string folder = relative;;) {
    size_t slash = folder.rfind('/');
    if (slash == std::string::npos) break;
    folder.resize(slash);
    std::string name;
    FileDescriptor parent(open_parent(folder, false, name));
    if (parent.get() < 0 || ::unlinkat(parent.get(), name.c_str(), AT_REMOVEDIR) != 0) break;
  }
  return Removal::Removed;
}

void OutputTree::sweep_leftovers() const { sweep(fd_, 0, true); }

}  // namespace baker
