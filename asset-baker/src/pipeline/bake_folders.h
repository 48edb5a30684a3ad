// The folders and configuration of the commands that bake part of a tree (bake-one, plan,
// collect), resolved and checked as a whole-folder bake resolves its own (bake_tree.cpp).
#pragma once

#include "common/bake_status.h"
#include "pipeline/bake_config.h"
#include "pipeline/output_tree.h"
#include "pipeline/shared_cache.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace baker {

// True when `inner` is `outer` or lies below it (both absolute and normalised).
bool folder_within(const std::filesystem::path& inner, const std::filesystem::path& outer);

// True when the output folder `output` is, or contains, the input folder `input`: by path
// (folder_within), or as the same folder under another path that no symlink explains (a bind
// mount, a container volume mounted twice): the input or a folder above it has the output's device
// and inode. An output inside the input is not (the input's walk leaves it out).
bool output_holds_input(const std::filesystem::path& input, const std::filesystem::path& output);

// The root-relative path of the source file `file` as a walk of the folder `root` names it (both as
// the user named them): a symlinked source keeps its own name, as the walk finds it under that
// name, not its target's. Folders on the way may not be symlinks (the walk does not follow them);
// a root named through a symlink is resolved. Empty when `file` is not inside `root`.
std::string source_relative(const std::filesystem::path& file, const std::filesystem::path& root);

// `path` made absolute and canonical as far as it exists.
std::filesystem::path resolved(const std::filesystem::path& path);

// The input root: an existing folder (Config otherwise).
BakeStatus resolve_root(const std::filesystem::path& root, std::filesystem::path& out);

// The output folder for input `root`: refused (Config) when it is the root or holds it, since no
// source may ever be taken for one of its files.
BakeStatus resolve_output(const std::filesystem::path& root, const std::filesystem::path& output,
                          std::filesystem::path& out);

// `config` (or the nearest baker.json at or above `root`) with `preset`, as a bake loads it.
BakeStatus load_bake_config(const std::filesystem::path& root,
                            const std::optional<std::filesystem::path>& config,
                            const std::string& preset, BakeConfig& out);

// Which shared cache a command uses.
struct CacheChoice {
  std::optional<std::filesystem::path> dir;  // default: $ASSETLIB_CACHE_DIR, else none
  bool none = false;
  uint64_t limit = kDefaultCacheLimit;
};

// Opens the cache `choice` names for a bake of `input` into `output`: nullptr when none is wanted,
// or (with `warning` set) when it cannot be used: a cache folder that is, holds or lies in the
// input folder, or is the output folder, or cannot be opened. A bake never fails for want of a
// cache.
std::unique_ptr<SharedCache> open_cache_for(const CacheChoice& choice,
                                            const std::filesystem::path& input,
                                            const OutputTree& output, std::string& warning);

}  // namespace baker
