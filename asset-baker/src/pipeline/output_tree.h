// The output folder: the only place the baker writes or deletes.
//
// Output folders sit in checkouts and CI workspaces that other people control, so nothing found
// there is trusted. Every path is checked with assetlib::is_safe_relative_path, and every folder on
// the way is opened from the root's descriptor with O_NOFOLLOW | O_DIRECTORY: a symlink planted
// anywhere in the tree is refused, never followed, so no write or delete can land outside the root.
// Files are replaced atomically (a temporary beside the target, then renameat), and a file is
// deleted only while it still holds the bytes the baker wrote.
#pragma once

#include "common/bake_status.h"
#include "common/regular_file.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace baker {

// Temporary files carry this marker followed by "<pid>-<counter>"; only such names are swept.
inline constexpr const char* kTempMarker = ".assetlib-tmp-";
inline constexpr size_t kMaxFileName = 255;  // bytes of one path component (NAME_MAX on Linux)

// True for a name written by OutputTree::write as a temporary ("x.tx.assetlib-tmp-12-3").
bool is_temporary_name(std::string_view file_name);

// `path` + "<kTempMarker><pid>-<n>": a temporary sibling name no other writer uses at once. Its
// file name is cut to leave room for the suffix within kMaxFileName bytes.
std::string temporary_name(const std::string& path);

// Writes all of `bytes` to `fd`, retrying short writes and EINTR. False with errno set (ENOSPC
// for a write that made no progress).
bool write_all(int fd, std::span<const std::byte> bytes);

// All bytes of the regular file `name` in the folder `dir` (not followed through a symlink,
// never blocking on a FIFO), when it holds at most `max_bytes`; nullopt otherwise or on an error.
std::optional<std::string> read_small_file(int dir, const std::string& name, uint64_t max_bytes);

// "<what> failed: <strerror>", or "disk full <what> (...)" / "disk quota exceeded <what> (...)"
// for the two errors a user can act on.
std::string io_reason(const char* what, int err);

struct FileStat {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
};

// A file written next to its target under a temporary name (OutputTree::stage), not yet in place.
class StagedFile {
 public:
  StagedFile() = default;
  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile();  // removes the temporary unless it was published

 private:
  friend class OutputTree;
  void discard() noexcept;
  int dir_ = -1;  // the folder holding both names
  std::string temporary, leaf, path;
};

class OutputTree {
 public:
  OutputTree() = default;
  OutputTree(const OutputTree&) = delete;
  OutputTree& operator=(const OutputTree&) = delete;
  OutputTree(OutputTree&& other) noexcept;
  OutputTree& operator=(OutputTree&& other) noexcept;
  ~OutputTree();

  // Opens `root` (created if missing). Refuses a root that is not a directory.
  static BakeStatus open(const std::filesystem::path& root, OutputTree& out);

  const std::filesystem::path& root() const { return root_; }
  int descriptor() const { return fd_; }

  // Replaces `relative` with `parts` written one after another, creating missing folders. On any
  // failure the old file is untouched and no temporary is left. A full disk says so.
  BakeStatus write(const std::string& relative,
                   std::span<const std::span<const std::byte>> parts) const;

  // write() in two steps, so that several files are replaced all or none: stage() writes the
  // temporary beside `relative` (the old file untouched; on failure no temporary is left),
  // publish() renames it into place. A StagedFile that is not published removes its temporary.
  BakeStatus stage(const std::string& relative, std::span<const std::span<const std::byte>> parts,
                   StagedFile& out) const;
  BakeStatus publish(StagedFile& staged) const;

  // Whether publishing `staged`, a baked asset, may replace what its path holds: nothing, a
  // symlink (replaced, never followed), or a regular file that starts with an asset's type (one
  // the baker wrote, also when damaged or of an older format version). A user's file there (an
  // output folder that was never a bake's, "a.tx" of their own) is refused with IoError naming it:
  // nothing good is lost to a bake.
  BakeStatus replaceable(const StagedFile& staged) const;

  // stage() from a file elsewhere: the temporary beside `relative` gets the bytes of the regular
  // file `from_name` in the folder `from_dir` (a hard link when `allow_link`, see file_copy.h),
  // and is kept only when it is a regular file of `size` bytes whose content hash is `hash`: what
  // another folder holds (the shared cache) is verified as it arrives, never trusted.
  BakeStatus stage_from(const std::string& relative, int from_dir, const std::string& from_name,
                        bool allow_link, uint64_t size, const std::string& hash,
                        StagedFile& out) const;

  // The folder holding `relative`, opened as every write opens it (no symlink on the way), and
  // its file name in `leaf`: -1 when there is none. The caller closes the descriptor.
  int open_folder_of(const std::string& relative, std::string& leaf) const {
    return open_parent(relative, false, leaf);
  }

  // Size and modification time of the regular file at `relative`; nullopt as for file_hash.
  std::optional<FileStat> file_stat(const std::string& relative) const;

  // The bytes of the regular file at `relative`, if it holds at most `max_bytes`.
  std::optional<std::string> read_file(const std::string& relative, uint64_t max_bytes) const;

  // The same, with the reason when it cannot be read: a symlink at `relative` or on the way to it
  // is NotRegular (what lies behind it is never read).
  ReadResult read_bytes(const std::string& relative, uint64_t max_bytes,
                        std::vector<std::byte>& out) const;

  // The content hash ("xxh3-64:...") of the regular file at `relative`; nullopt when there is
  // none, or the path is unsafe or passes a symlink.
  std::optional<std::string> file_hash(const std::string& relative) const;

  // Deletes `relative` only when it is a regular file laid out as an asset (a known type, the
  // format version, header lengths matching its size) whose content hash is `expected_hash` (what
  // the baker recorded writing), then the folders above it that this leaves empty (a removed
  // source's `textures/`, a glTF's `.parts`), as a fresh bake would not have them. Absent: nothing
  // is there, or a folder is (at the path, or a file on the way: another output took the place).
  // Kept: another file is there (edited since, or replaced), left alone. Only while holding the
  // output lock exclusively: a shared holder could be about to write into a folder that is empty
  // for a moment.
  enum class Removal { Removed, Absent, Kept };
  Removal remove_if_unchanged(const std::string& relative, const std::string& expected_hash) const;

  // Deletes temporaries (is_temporary_name) that killed runs left anywhere in the tree, then the
  // folders left empty (a failed bake-one's parts folder), without following symlinks. Only safe
  // while holding the output lock exclusively (OutputLock).
  void sweep_leftovers() const;

 private:
  // Opens the folder holding `relative` and sets `leaf` to the file name; -1 when the path is
  // unsafe, passes a symlink or (unless `create`) a folder is missing.
  int open_parent(const std::string& relative, bool create, std::string& leaf) const;

  std::filesystem::path root_;
  int fd_ = -1;
};

}  // namespace baker
