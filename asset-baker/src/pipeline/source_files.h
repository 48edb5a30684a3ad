// Reading files of the input tree: only regular files inside the root, within the size limit.
#pragma once

#include "common/bake_status.h"
#include "pipeline/bake_cache.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace baker {

// Source files larger than this are not assets anyone should ship; refused before reading.
inline constexpr uint64_t kMaxSourceBytes = 1ull << 30;

// Size and modification time of a regular file (no hash yet); nullopt for anything else.
std::optional<FileStamp> stat_file(const std::filesystem::path& path);

// Reads the root-relative file `relative` into `out`: RefusedPath when a symlink leads outside the
// root, UnreadableSource when it is missing or not a regular file, IoError when it is there but
// cannot be read (permissions, a device error: its previous outputs are kept), LimitExceeded over
// kMaxSourceBytes (checked before reading).
inline constexpr const char* kUnreadableReason =
    "is there but cannot be read (permissions or a device error); its previous outputs are kept";
BakeStatus read_source(const std::filesystem::path& root, const std::string& relative,
                       std::vector<std::byte>& out);

}  // namespace baker
