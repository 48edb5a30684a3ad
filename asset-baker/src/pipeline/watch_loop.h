// `asset-baker <input> --watch`: bake, then bake again whenever something under the input folder
// changes, until Ctrl-C. Changes are seen through inotify (Linux), not by polling, from before the
// first bake; a burst of writes (an editor saving, a git checkout) is gathered into one rebake once
// the folder has been quiet for kSettleTime. The baker.json files above the input are watched too;
// the output folder, temporaries and the baker's own files are not, and a source file baker.json
// excludes (read again before each rebake) is no change. Each bake waits for another baker of the
// output folder rather than dropping its change; an overflowing event queue rebakes and watches
// the whole tree again.
#pragma once

#include "pipeline/bake_tree.h"

#include <chrono>

namespace baker {

inline constexpr std::chrono::milliseconds kSettleTime{200};

// Returns 128 + the signal that ended it (Ctrl-C: 130), or 2 when the input cannot be watched.
int run_watch(const BakeOptions& options);

}  // namespace baker
