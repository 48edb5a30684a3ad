// Giving a file a second name in another folder, by descriptors: a hard link where that is safe
// and the file system allows it, else a streamed copy. The shared cache (shared_cache.h) fills its
// entries from the output folder this way and restores outputs from them.
#pragma once

#include <string>

namespace baker {

// Creates `to_name` in the folder `to_dir` (never replacing anything: O_EXCL) holding the bytes of
// the regular file `from_name` in `from_dir`. Neither name is followed through a symlink, and
// neither is a path: both are single names inside their folders.
//
// With `allow_link`, a hard link is made when the file belongs to this user: nobody else can then
// change its bytes in place under the other name. Otherwise, or when linking fails (another file
// system, no hard links, the link limit), the bytes are copied (copy_file_range, which clones on
// file systems that can, else read/write in 1 MiB steps: memory stays small for any size).
// Returns 0, or the errno of what failed; a half-written copy is removed.
int link_or_copy(int from_dir, const std::string& from_name, int to_dir, const std::string& to_name,
                 bool allow_link);

}  // namespace baker
